import CellKit
import Foundation
import Testing
@testable import CellRender

@Suite struct PNGTests {
    private func sample() -> RasterImage {
        var image = RasterImage(width: 7, height: 5, fill: .white)
        image[0, 0] = Color(red: 1, green: 0, blue: 0, alpha: 0.5).premultipliedARGB
        image[6, 4] = Color.clear.premultipliedARGB
        image[3, 2] = Color(red: 0.2, green: 0.4, blue: 0.6).premultipliedARGB
        return image
    }

    @Test func roundTripKeepsPixels() throws {
        let path = Fixtures.temporaryDirectory + "/roundtrip.png"
        try sample().writePNG(path: path)
        let decoded = try RasterImage.decodePNG(path: path)
        #expect(decoded.width == 7 && decoded.height == 5)
        #expect(decoded.maxChannelDifference(to: sample()) <= 1)
        #expect(decoded.rgba(x: 0, y: 0) == (255, 0, 0, 128))
    }

    @Test func writesNoTimeChunkAndIsByteStable() throws {
        let a = Fixtures.temporaryDirectory + "/stable-a.png", b = Fixtures.temporaryDirectory + "/stable-b.png"
        try sample().writePNG(path: a)
        try sample().writePNG(path: b)
        let da = try Data(contentsOf: URL(fileURLWithPath: a)), db = try Data(contentsOf: URL(fileURLWithPath: b))
        #expect(da == db)
        #expect(da.range(of: Data("tIME".utf8)) == nil)
        #expect(da.prefix(8) == Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]))
    }

    @Test func decodeErrorNamesTheFile() throws {
        let path = Fixtures.temporaryDirectory + "/not-a.png"
        try Data("definitely not a png".utf8).write(to: URL(fileURLWithPath: path))
        #expect(throws: PNGError.self) { try RasterImage.decodePNG(path: path) }
        do { _ = try RasterImage.decodePNG(path: path) } catch { #expect(error.description.hasPrefix(path)) }
        do { _ = try RasterImage.decodePNG(path: "/nonexistent/x.png") } catch { #expect(error.path == "/nonexistent/x.png") }
    }

    @Test func writerWritesEveryFrameInTheBackground() throws {
        let writer = PNGFrameWriter(capacity: 2)
        // Its own folder: other tests of the suite write files (and their partial files) next to it at the same time.
        let directory = Fixtures.temporaryDirectory + "/writer-in-background"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let paths = (0..<6).map { directory + "/frame-\($0).png" }
        for (i, path) in paths.enumerated() {
            writer.enqueue(RasterImage(width: 16, height: 8, fill: Color(white: Double(i) / 6)), path: path)
        }
        try writer.finish()
        for (i, path) in paths.enumerated() {
            let decoded = try RasterImage.decodePNG(path: path)
            #expect(decoded.maxChannelDifference(to: RasterImage(width: 16, height: 8, fill: Color(white: Double(i) / 6))) <= 1)
        }
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: directory).filter { $0.contains(".partial-") }
        #expect(leftovers.isEmpty, "temporary files must be renamed or removed: \(leftovers)")
    }

    @Test func writerReportsFailedPaths() {
        let writer = PNGFrameWriter()
        writer.enqueue(RasterImage(width: 2, height: 2, fill: .black), path: "/nonexistent-dir/frame.png")
        writer.enqueue(RasterImage(width: 2, height: 2, fill: .black), path: Fixtures.temporaryDirectory + "/ok.png")
        do {
            try writer.finish()
            Issue.record("finish() must throw when a frame could not be written")
        } catch {
            #expect(error.errors.count == 1)
            #expect(error.description.contains("/nonexistent-dir/frame.png"))
        }
    }

    @Test func comparisonHelpers() {
        var a = RasterImage(width: 4, height: 4, fill: .white)
        let b = a
        a[1, 2] = 0xFF_FF_FF_F0
        a[3, 3] = 0xFF_00_00_00
        #expect(a.maxChannelDifference(to: b) == 255)
        #expect(a.differingPixelCount(to: b) == 2)
        #expect(a.differingPixelCount(to: b, tolerance: 15) == 1)
        #expect(a.differenceBounds(to: b) == PixelRect(x: 1, y: 2, width: 3, height: 2))
        #expect(a.maxChannelDifference(to: RasterImage(width: 3, height: 4)) == .max)
    }
}
