import CPNGStripDeflate
import CZlib
import CellKit
import Foundation
import Testing
@testable import CellRender

/// The strip deflater writes each strip as the smallest of a dynamic-Huffman, fixed-Huffman or
/// stored block: zlib inflates every one to exactly the scanlines, and frames decode (with libpng)
/// to their pixels.
@Suite struct StripBlockChoiceTests {
    /// A strip deflated with `cellhost_run_deflate`, and the scanlines it stands for.
    private struct Deflated {
        var bytes: [UInt8]
        var scanlines: [UInt8]
        /// BTYPE of the first block: 0 stored, 1 fixed, 2 dynamic.
        var blockType: Int { Int(bytes[0] >> 1) & 3 }
    }

    private func deflate(_ image: RasterImage, channels: Int, last: Bool, workspace: OpaquePointer?) -> Deflated {
        let rowBytes = 1 + channels * image.width
        var scanlines = [UInt8](repeating: 0, count: image.height * rowBytes)
        for y in 0..<image.height {
            for x in 0..<image.width {
                let p = image[x, y], o = y * rowBytes + 1 + channels * x
                scanlines[o] = UInt8(truncatingIfNeeded: p >> 16)
                scanlines[o + 1] = UInt8(truncatingIfNeeded: p >> 8)
                scanlines[o + 2] = UInt8(truncatingIfNeeded: p)
                if channels == 4 { scanlines[o + 3] = UInt8(truncatingIfNeeded: p >> 24) }
            }
        }
        // A guard byte past the bound shows any write beyond it.
        let bound = cellhost_run_deflate_bound(scanlines.count)
        var out = [UInt8](repeating: 0xA5, count: bound + 1)
        let count = image.pixels.withUnsafeBufferPointer { p in
            scanlines.withUnsafeBufferPointer { s in
                out.withUnsafeMutableBufferPointer {
                    cellhost_run_deflate(workspace, p.baseAddress, image.width, UInt32(image.width), UInt32(image.height), Int32(channels),
                                         channels == 4 ? s.baseAddress : nil, last ? 1 : 0, nil, $0.baseAddress)
                }
            }
        }
        #expect(count > 0 && count <= bound && out[bound] == 0xA5, "\(count) bytes within the bound of \(bound)")
        return Deflated(bytes: Array(out.prefix(count)), scanlines: scanlines)
    }

    /// zlib's raw inflate of one strip's segment: the bytes, and whether it ended the stream (a
    /// segment that does not must end on a byte boundary with everything consumed).
    private func inflate(_ segment: [UInt8], capacity: Int) -> (bytes: [UInt8], ended: Bool)? {
        var stream = z_stream()
        guard inflateInit2_(&stream, -15, ZLIB_VERSION, Int32(MemoryLayout<z_stream>.size)) == Z_OK else { return nil }
        defer { inflateEnd(&stream) }
        var out = [UInt8](repeating: 0, count: capacity + 16)
        var input = segment
        let status = input.withUnsafeMutableBufferPointer { i in
            out.withUnsafeMutableBufferPointer { o in
                stream.next_in = i.baseAddress
                stream.avail_in = uInt(i.count)
                stream.next_out = o.baseAddress
                stream.avail_out = uInt(o.count)
                return CZlib.inflate(&stream, Z_SYNC_FLUSH)
            }
        }
        guard status == Z_OK || status == Z_STREAM_END, stream.avail_in == 0 else { return nil }
        return (Array(out.prefix(Int(stream.total_out))), status == Z_STREAM_END)
    }

    /// Random strips (run lengths, repeats of the row above, palettes from one colour to noise,
    /// RGB and RGBA, first or last) inflate to exactly their scanlines; all three kinds of block
    /// are chosen among them.
    @Test func randomStripsInflateThroughZlib() throws {
        var g = SeededGenerator(state: 31)
        let workspace = cellhost_run_deflate_workspace_create()
        defer { cellhost_run_deflate_workspace_destroy(workspace) }
        var kinds = Set<Int>()
        for round in 0..<300 {
            let width = round % 25 == 0 ? Int.random(in: 2_000...11_500, using: &g) : Int.random(in: 1...300, using: &g)
            let height = round % 25 == 0 ? 2 : Int.random(in: 1...40, using: &g)
            let channels = Bool.random(using: &g) ? 3 : 4
            let colors = [1, 2, 5, 40, 5_000, 1 << 24][round % 6]
            let palette = (0..<min(colors, 64)).map { _ in UInt32.random(in: 0...UInt32.max, using: &g) | (channels == 3 ? 0xFF00_0000 : 0) }
            var image = RasterImage(width: width, height: height)
            for y in 0..<height {
                for x in 0..<width {
                    switch Int.random(in: 0..<4, using: &g) {
                    case 0 where y > 0: image[x, y] = image[x, y - 1]
                    case 1 where x > 0: image[x, y] = image[x - 1, y]
                    default:
                        image[x, y] = colors > 64
                            ? UInt32.random(in: 0...UInt32.max, using: &g) | (channels == 3 ? 0xFF00_0000 : 0)
                            : palette.randomElement(using: &g)!
                    }
                }
            }
            let last = Bool.random(using: &g)
            let strip = deflate(image, channels: channels, last: last, workspace: workspace)
            let inflated = try #require(inflate(strip.bytes, capacity: strip.scanlines.count), "round \(round): zlib refuses the segment")
            let same = inflated.bytes == strip.scanlines  // a Bool: a diff of the bytes would take minutes
            #expect(same && inflated.ended == last, "round \(round): \(width)×\(height), \(channels) channels, \(colors) colours")
            kinds.insert(strip.blockType)
        }
        // Noise saves nothing (stored); a few pixels save less than a table would cost (fixed).
        var noise = RasterImage(width: 500, height: 8)
        for i in noise.pixels.indices { noise.pixels[i] = 0xFF00_0000 | UInt32.random(in: 0...0xFF_FFFF, using: &g) }
        let stored = deflate(noise, channels: 3, last: false, workspace: workspace)
        #expect(try #require(inflate(stored.bytes, capacity: stored.scanlines.count)).bytes == stored.scanlines)
        #expect(stored.blockType == 0 && stored.bytes.count == stored.scanlines.count + 5)
        var tiny = RasterImage(width: 2, height: 1)
        tiny.pixels = [0xFF10_2030, 0xFF40_5060]
        let fixed = deflate(tiny, channels: 3, last: true, workspace: workspace)
        #expect(try #require(inflate(fixed.bytes, capacity: fixed.scanlines.count)).bytes == fixed.scanlines)
        #expect(fixed.blockType == 1)
        kinds.formUnion([stored.blockType, fixed.blockType])
        #expect(kinds == [0, 1, 2])
    }

    /// A strip with no match (no pixel equals its left or upper neighbour) but few byte values is
    /// a dynamic block whose distance alphabet nothing uses: it sends two one-bit distance codes
    /// (HDIST 1), which zlib accepts.
    @Test func aStripWithoutMatchesSendsTwoDistanceCodes() throws {
        let colors: [UInt32] = [0xFF10_2030, 0xFF30_1020, 0xFF20_3010]
        var image = RasterImage(width: 400, height: 12)
        for y in 0..<image.height { for x in 0..<image.width { image[x, y] = colors[(x + 2 * y) % 3] } }
        let workspace = cellhost_run_deflate_workspace_create()
        defer { cellhost_run_deflate_workspace_destroy(workspace) }
        let strip = deflate(image, channels: 3, last: true, workspace: workspace)
        #expect(strip.blockType == 2)
        let header = Int(strip.bytes[0]) | Int(strip.bytes[1]) << 8
        #expect((header >> 8) & 31 == 1, "HDIST + 1 distance codes")
        #expect(try #require(inflate(strip.bytes, capacity: strip.scanlines.count)).bytes == strip.scanlines)
        #expect(strip.bytes.count * 3 < strip.scanlines.count, "\(strip.bytes.count) bytes for \(strip.scanlines.count)")
    }

    /// A horizontal and vertical gradient: every pixel differs from both neighbours.
    private func gradient(width: Int, height: Int) -> RasterImage {
        var image = RasterImage(width: width, height: height)
        for y in 0..<height {
            for x in 0..<width {
                let r = UInt32(x * 255 / max(1, width - 1)), g = UInt32(y * 255 / max(1, height - 1)), b = UInt32((x + y) % 256)
                image[x, y] = 0xFF00_0000 | r << 16 | g << 8 | b
            }
        }
        return image
    }

    /// Rendered frames (text, dark mode, blur, images, a gradient, a translucent one) written by
    /// the strip encoder decode with libpng to exactly their pixels (straight alpha within one
    /// step); the opaque ones, as `cellhost run --frames` writes, in no more than 1.2× zlib level
    /// 1's bytes for the same scanlines (RGB, filter 0): the size those frames are held to.
    @Test func framesDecodeToTheirPixelsWithinTheSizeOfZlibLevelOne() throws {
        var frames: [(String, RasterImage)] = try [
            "list-insetGrouped-light-L.png", "list-insetGrouped-dark-L.png", "list-plain-dark-AX2.png",
            "background-blur@2x.png", "images@2x.png", "attributed-runs@2x.png",
        ].map { ($0, try RasterImage.decodePNG(path: goldens.directory + "/" + $0)) }
        frames.append(("gradient", gradient(width: 390, height: 300)))
        // Its top half at half opacity (premultiplied: every channel halved).
        var translucent = try RasterImage.decodePNG(path: goldens.directory + "/images@2x.png")
        for i in 0..<translucent.pixels.count / 2 { translucent.pixels[i] = translucent.pixels[i] >> 1 & 0x7F7F_7F7F }
        frames.append(("translucent", translucent))
        for (name, image) in frames {
            let bytes = try PNGStripEncoder().encodedBytes(image, changed: nil)
            let path = Fixtures.temporaryDirectory + "/block-choice-" + name.replacingOccurrences(of: ".png", with: "") + ".png"
            try Data(bytes).write(to: URL(fileURLWithPath: path))
            let decoded = try RasterImage.decodePNG(path: path)
            let opaque = image.pixels.allSatisfy { $0 >> 24 == 0xFF }
            if opaque {
                #expect(decoded == image, "\(name)")
            } else {
                #expect(decoded.maxChannelDifference(to: image) <= 1, "\(name)")
            }
            guard opaque else { continue }
            var scanlines: [UInt8] = []
            scanlines.reserveCapacity(image.height * (1 + 3 * image.width))
            for y in 0..<image.height {
                scanlines.append(0)
                for x in 0..<image.width {
                    let p = image.rgba(x: x, y: y)
                    scanlines += [p.red, p.green, p.blue]
                }
            }
            var capacity = compressBound(uLong(scanlines.count))
            var zlib = [UInt8](repeating: 0, count: Int(capacity))
            #expect(compress2(&zlib, &capacity, scanlines, uLong(scanlines.count), 1) == Z_OK)
            #expect(Double(bytes.count) <= 1.2 * Double(capacity), "\(name): \(bytes.count) bytes, zlib level 1 \(capacity)")
        }
    }
}
