import CellKit
import Foundation
import Testing
@testable import CellRender

/// Compares frames with the PNGs in `Goldens/` by decoded pixels: a pixel differs when a channel
/// differs by more than `channelTolerance`; at most `pixelFraction` of the pixels may differ.
enum Goldens {
    static let channelTolerance = 2
    static let pixelFraction = 0.001
    static let directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Goldens").path
    static var isRecording: Bool { ProcessInfo.processInfo.environment["CELLHOST_RECORD_GOLDENS"] == "1" }

    static func check(_ image: RasterImage, _ name: String, sourceLocation: SourceLocation = #_sourceLocation) {
        let path = directory + "/" + name + ".png"
        if isRecording {
            do { try image.writePNG(path: path) } catch {
                Issue.record("could not record golden \(path): \(error)", sourceLocation: sourceLocation)
            }
            return
        }
        guard FileManager.default.fileExists(atPath: path) else {
            let actual = Fixtures.temporaryDirectory + "/" + name + ".png"
            try? image.writePNG(path: actual)
            let message = "missing golden \(path) (this frame was written to \(actual)). Look at it, then record goldens with "
                + "CELLHOST_RECORD_GOLDENS=1 swift test --filter GoldenTests"
            Issue.record("\(message)", sourceLocation: sourceLocation)
            return
        }
        let expected: RasterImage
        do { expected = try RasterImage.decodePNG(path: path) } catch {
            Issue.record("golden \(path) is unreadable: \(error)", sourceLocation: sourceLocation)
            return
        }
        guard expected.width == image.width, expected.height == image.height else {
            Issue.record("golden \(name): size \(image.width)×\(image.height), expected \(expected.width)×\(expected.height)",
                         sourceLocation: sourceLocation)
            return
        }
        let differing = image.differingPixelCount(to: expected, tolerance: channelTolerance)
        let allowed = Int(Double(image.width * image.height) * pixelFraction)
        if differing > allowed {
            let actual = Fixtures.temporaryDirectory + "/" + name + ".actual.png"
            try? image.writePNG(path: actual)
            let message = "golden \(name): \(differing) px differ by more than \(channelTolerance) (allowed \(allowed)); "
                + "max channel difference \(image.maxChannelDifference(to: expected)); frame written to \(actual)"
            Issue.record("\(message)", sourceLocation: sourceLocation)
        }
    }
}
