import CellKit
import Foundation
import Testing
@testable import CellRender

@Suite struct PNGStripEncoderTests {
    /// An opaque picture with structure (bands and a gradient) so strips compress unevenly.
    private func opaqueImage(width: Int, height: Int) -> RasterImage {
        var pixels = [UInt32](repeating: 0, count: width * height)
        for y in 0..<height {
            for x in 0..<width {
                let r = UInt32((x * 255) / max(1, width - 1)), g = UInt32((y / 5 % 2) * 200), b = UInt32((x ^ y) & 0xFF)
                pixels[y * width + x] = 0xFF00_0000 | r << 16 | g << 8 | b
            }
        }
        return RasterImage(width: width, height: height, pixels: pixels)
    }

    /// A premultiplied colour with any alpha (its channels never exceed alpha).
    private func randomPremultiplied(_ g: inout SeededGenerator, opaque: Bool) -> UInt32 {
        let a = opaque ? 255 : UInt32.random(in: 0...255, using: &g)
        let r = UInt32.random(in: 0...a, using: &g), gr = UInt32.random(in: 0...a, using: &g), b = UInt32.random(in: 0...a, using: &g)
        return a << 24 | r << 16 | gr << 8 | b
    }

    private func paint(_ image: inout RasterImage, _ rect: PixelRect, _ g: inout SeededGenerator, opaque: Bool) {
        for y in rect.y..<rect.maxY { for x in rect.x..<rect.maxX { image[x, y] = randomPremultiplied(&g, opaque: opaque) } }
    }

    private func decode(_ bytes: [UInt8], name: String) throws -> RasterImage {
        let path = Fixtures.temporaryDirectory + "/" + name
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        return try RasterImage.decodePNG(path: path)
    }

    @Test func stripEncodedPNGDecodesToTheSourcePixels() throws {
        let opaque = opaqueImage(width: 203, height: 117)
        let encoder = PNGStripEncoder(stripHeight: 16)
        let bytes = try encoder.encodedBytes(opaque, changed: nil)
        #expect(bytes[25] == 2, "an opaque image is written as RGB (IHDR colour type 2)")
        #expect(try decode(bytes, name: "strips-opaque.png") == opaque)
        #expect(encoder.lastStripsDeflated == 8)

        var translucent = opaque
        var g = SeededGenerator(state: 7)
        paint(&translucent, PixelRect(x: 10, y: 40, width: 60, height: 30), &g, opaque: false)
        let rgba = try PNGStripEncoder(stripHeight: 16).encodedBytes(translucent, changed: nil)
        #expect(rgba[25] == 6, "an image with translucent pixels is written as RGBA (colour type 6)")
        let decoded = try decode(rgba, name: "strips-translucent.png")
        #expect(decoded.maxChannelDifference(to: translucent) <= 1)
        #expect(decoded.differingPixelCount(to: translucent) <= 60 * 30, "only translucent pixels may round")
    }

    @Test func incrementalEncodeAfterRandomDamageEqualsAFullEncode() throws {
        var g = SeededGenerator(state: 42)
        for stripHeight in [1, 16, 32] {
            var image = opaqueImage(width: 97, height: 150)
            let incremental = PNGStripEncoder(stripHeight: stripHeight, helpers: 1)
            _ = try incremental.encodedBytes(image, changed: nil)
            for round in 0..<12 {
                var damage: [PixelRect] = []
                for _ in 0..<Int.random(in: 1...3, using: &g) {
                    let x = Int.random(in: 0..<97, using: &g), y = Int.random(in: 0..<150, using: &g)
                    let rect = PixelRect(x: x, y: y, width: Int.random(in: 1...(97 - x), using: &g),
                                         height: Int.random(in: 1...min(40, 150 - y), using: &g))
                    paint(&image, rect, &g, opaque: round % 4 != 3)
                    damage.append(rect)
                }
                let bytes = try incremental.encodedBytes(image, changed: damage)
                let fresh = try PNGStripEncoder(stripHeight: stripHeight).encodedBytes(image, changed: nil)
                #expect(bytes == fresh, "strip height \(stripHeight), round \(round): incremental bytes equal a full encode")
                let decoded = try decode(bytes, name: "strips-incremental.png")
                #expect(decoded.maxChannelDifference(to: image) <= 1)
                if round % 4 == 3 { image = opaqueImage(width: 97, height: 150); _ = try incremental.encodedBytes(image, changed: nil) }
            }
        }
    }

    @Test func onlyStripsTheDamageTouchesAreDeflated() throws {
        var image = opaqueImage(width: 64, height: 100)
        let encoder = PNGStripEncoder(stripHeight: 16)
        _ = try encoder.encodedBytes(image, changed: nil)
        #expect(encoder.lastStripsDeflated == 7)
        image[5, 31] = 0xFF12_3456
        image[5, 32] = 0xFF65_4321
        _ = try encoder.encodedBytes(image, changed: [PixelRect(x: 5, y: 31, width: 1, height: 2)])
        #expect(encoder.lastStripsDeflated == 2, "rows 31 and 32 lie in strips 1 and 2")
        _ = try encoder.encodedBytes(image, changed: [PixelRect(x: -20, y: 96, width: 200, height: 50), PixelRect(x: 70, y: 0, width: 5, height: 5)])
        #expect(encoder.lastStripsDeflated == 1, "damage is clipped to the image: only the last strip")
    }

    @Test func uniformMiddleStripsAreDeflatedOncePerColour() throws {
        var image = RasterImage(width: 40, height: 16 * 10, fill: Color(white: 0.9))
        for x in 0..<40 { image[x, 16 * 4 + 3] = 0xFF10_2030 }  // strip 4 is not uniform
        let encoder = PNGStripEncoder(stripHeight: 16)
        let bytes = try encoder.encodedBytes(image, changed: nil)
        #expect(encoder.lastStripsDeflated == 4, "first, last, strip 4 and one uniform middle strip")
        #expect(try decode(bytes, name: "strips-uniform.png") == image)

        // A new colour in strips 6–7 deflates one of them; going back reuses the kept chunk.
        let before = image
        for y in 96..<128 { for x in 0..<40 { image[x, y] = 0xFF00_8000 } }
        let changed = [PixelRect(x: 0, y: 96, width: 40, height: 32)]
        let green = try encoder.encodedBytes(image, changed: changed)
        #expect(encoder.lastStripsDeflated == 1)
        #expect(green == (try PNGStripEncoder(stripHeight: 16).encodedBytes(image, changed: nil)))
        #expect(try decode(green, name: "strips-uniform-green.png") == image)
        let back = try encoder.encodedBytes(before, changed: changed)
        #expect(encoder.lastStripsDeflated == 0)
        #expect(back == bytes)

        // Translucent uniform strips are keyed apart from opaque ones (RGBA, not RGB).
        let clear = RasterImage(width: 40, height: 16 * 5, fill: .clear)
        let rgba = try encoder.encodedBytes(clear, changed: nil)
        #expect(rgba[25] == 6 && encoder.lastStripsDeflated == 3)
        #expect(try decode(rgba, name: "strips-uniform-clear.png") == clear)
    }

    @Test func stripsAreSharedOnlyWhileSeveralAreBeingDeflated() throws {
        var image = opaqueImage(width: 90, height: 200)
        let encoder = PNGStripEncoder(stripHeight: 16, helpers: 1)
        var shared = 0
        encoder.deflationStarted = { shared += 1 }
        #expect(!encoder.canBeHelped)
        encoder.help()  // nothing to take: returns at once
        _ = try encoder.encodedBytes(image, changed: nil)
        #expect(shared == 1, "a frame's strips are offered once")
        #expect(!encoder.canBeHelped, "and no longer once the frame is deflated")
        _ = try encoder.encodedBytes(image, changed: [])
        #expect(shared == 1, "a frame without damage deflates nothing")
        image[3, 100] = 0xFF01_0203
        let oneStrip = try encoder.encodedBytes(image, changed: [PixelRect(x: 3, y: 100, width: 1, height: 1)])
        #expect(shared == 1 && encoder.lastStripsDeflated == 1, "one strip is not worth sharing")
        // Compared as a Bool: on a failure, a diff of the bytes would take minutes.
        let sameAsWhole = try oneStrip == PNGStripEncoder(stripHeight: 16).encodedBytes(image, changed: nil)
        #expect(sameAsWhole, "the same bytes as a whole encode")
        let unhelped = PNGStripEncoder(stripHeight: 16)
        unhelped.deflationStarted = { shared += 1 }
        _ = try unhelped.encodedBytes(image, changed: nil)
        #expect(shared == 1, "an encoder without helpers offers nothing")
    }

    @Test func aHelperDeflatesTheOtherStripsWhileTheEncodingThreadIsStalled() throws {
        let image = opaqueImage(width: 64, height: 16 * 12)
        let encoder = PNGStripEncoder(stripHeight: 16, helpers: 1)
        let helped = DispatchSemaphore(value: 0)
        // The helper joins late (a new thread), as a waiting producer may.
        nonisolated(unsafe) let helpee = encoder
        encoder.deflationStarted = { Thread { helpee.help(); helped.signal() }.start() }
        defer { encoder.deflationStarted = {} }
        let source = StallingStrips(image: image, stripHeight: 16, stalled: 1)
        try encoder.update(width: image.width, height: image.height, changedStrips: nil, path: "<memory>", pixels: source)
        #expect(source.othersWereReadWhileStalled, "the helper deflated every other strip while strip 1 waited")
        #expect(encoder.lastStripsDeflated == 12)
        #expect(helped.wait(timeout: .now() + 10) == .success)
        #expect(try decode(try encoder.encodedBytes(image, changed: []), name: "helped.png") == image)
    }

    @Test func frameWithoutDamageReusesEveryStrip() throws {
        let image = opaqueImage(width: 50, height: 70)
        let encoder = PNGStripEncoder(stripHeight: 32)
        let first = try encoder.encodedBytes(image, changed: nil)
        let again = try encoder.encodedBytes(image, changed: [])
        #expect(encoder.lastStripsDeflated == 0)
        #expect(again == first)
        #expect(try decode(again, name: "strips-undamaged.png") == image)
    }

    @Test func oddSizesEncode() throws {
        var g = SeededGenerator(state: 3)
        for (width, height) in [(1, 1), (1, 33), (33, 1), (5, 31), (13, 65), (300, 97)] {
            var image = RasterImage(width: width, height: height)
            paint(&image, PixelRect(x: 0, y: 0, width: width, height: height), &g, opaque: width % 2 == 1)
            for stripHeight in [16, 32, 64] {
                let bytes = try PNGStripEncoder(stripHeight: stripHeight).encodedBytes(image, changed: nil)
                let decoded = try decode(bytes, name: "strips-odd.png")
                #expect(decoded.width == width && decoded.height == height)
                #expect(decoded.maxChannelDifference(to: image) <= 1, "\(width)×\(height), strips of \(stripHeight)")
            }
        }
    }

    @Test func sizeChangeAndTranslucencyChangeReencodeEverything() throws {
        let encoder = PNGStripEncoder(stripHeight: 16)
        _ = try encoder.encodedBytes(opaqueImage(width: 40, height: 64), changed: nil)
        let larger = opaqueImage(width: 40, height: 80)
        let bytes = try encoder.encodedBytes(larger, changed: [])
        #expect(encoder.lastStripsDeflated == 5, "a new size deflates every strip whatever the damage says")
        #expect(try decode(bytes, name: "strips-resized.png") == larger)

        var translucent = larger
        translucent[3, 70] = 0x8040_2010
        let rgba = try encoder.encodedBytes(translucent, changed: [PixelRect(x: 3, y: 70, width: 1, height: 1)])
        #expect(encoder.lastStripsDeflated == 5, "one translucent pixel turns every strip into RGBA")
        #expect(rgba[25] == 6)
        #expect(try decode(rgba, name: "strips-rgba.png").maxChannelDifference(to: translucent) <= 1)
        let back = try encoder.encodedBytes(larger, changed: [PixelRect(x: 3, y: 70, width: 1, height: 1)])
        #expect(back[25] == 2 && encoder.lastStripsDeflated == 5)
        #expect(try decode(back, name: "strips-rgb.png") == larger)
    }

    @Test func writeFailsWithTheFileNamed() {
        let encoder = PNGStripEncoder()
        #expect(throws: PNGError.self) { try encoder.write(opaqueImage(width: 4, height: 4), changed: nil, to: "/nonexistent-dir/x.png") }
        do { try encoder.write(RasterImage(width: 0, height: 3), changed: nil, to: "/tmp/empty.png") } catch {
            #expect(error.path == "/tmp/empty.png")
        }
    }

    @Test func writerHandsOverChangedRowsAndEveryFrameShowsTheWholeImage() throws {
        let writer = PNGFrameWriter(capacity: 2)
        var g = SeededGenerator(state: 11)
        var image = opaqueImage(width: 70, height: 100)
        var frame = image.pixels  // the "framebuffer" the writer reads from, changed after each enqueue
        var expected: [(String, RasterImage)] = []
        for i in 0..<12 {
            var changed: [PixelRect]? = []
            if i == 7 {
                image = opaqueImage(width: 90, height: 45)  // a new size: every row is handed over whatever the damage says
            } else if i == 3 {
                changed = nil
            } else if i % 4 != 1 {  // some frames change nothing
                let rect = PixelRect(x: Int.random(in: 0..<image.width, using: &g), y: Int.random(in: 0..<image.height, using: &g),
                                     width: 9, height: 7).intersection(PixelRect(x: 0, y: 0, width: image.width, height: image.height))
                paint(&image, rect, &g, opaque: i != 9)
                changed = [rect]
            }
            frame = image.pixels
            let path = Fixtures.temporaryDirectory + "/writer-\(i).png"
            frame.withUnsafeBufferPointer { writer.enqueue(pixels: $0, width: image.width, height: image.height, path: path, changed: changed) }
            for j in frame.indices { frame[j] = 0xFF00_FF00 }  // the writer must not read it later
            expected.append((path, image))
        }
        try writer.finish()
        for (path, image) in expected {
            #expect(try RasterImage.decodePNG(path: path).maxChannelDifference(to: image) <= 1, "\(path)")
        }
    }
}

/// Lends a frame's strips, holding the thread that takes strip `stalled` until every other strip
/// has been read (at most 10 s): a thread that stalls must not keep the others from the strips.
private final class StallingStrips: StripPixelSource, @unchecked Sendable {
    private let pixels: [UInt32]
    private let stripPixels: Int, strips: Int, stalled: Int
    private let lock = NSLock()
    private var othersRead = 0
    private let othersDone = DispatchSemaphore(value: 0)
    private(set) var othersWereReadWhileStalled = false

    init(image: RasterImage, stripHeight: Int, stalled: Int) {
        pixels = image.pixels
        stripPixels = stripHeight * image.width
        strips = (image.height + stripHeight - 1) / stripHeight
        self.stalled = stalled
    }

    func withPixels(ofStrip index: Int, _ body: (UnsafePointer<UInt32>) -> Void) {
        if index == stalled { othersWereReadWhileStalled = othersDone.wait(timeout: .now() + 10) == .success }
        pixels.withUnsafeBufferPointer { body($0.baseAddress! + index * stripPixels) }
        guard index != stalled else { return }
        lock.lock()
        othersRead += 1
        if othersRead == strips - 1 { othersDone.signal() }
        lock.unlock()
    }
}
