import CellRender
import Foundation
import Testing

/// Compares rendered images with reference PNGs in a folder by decoded pixels: a pixel differs
/// when a channel differs by more than `channelTolerance`, and at most `pixelFraction` of the
/// pixels may differ (anti-aliased edges move by a level between FreeType builds; a layout or
/// colour change moves far more). `CELLHOST_RECORD_GOLDENS=1` writes the references instead.
public struct GoldenImages: Sendable {
    public var directory: String
    public var channelTolerance = 2
    public var pixelFraction = 0.001

    public init(directory: String) { self.directory = directory }

    /// The `Goldens` folder beside the test file that calls this.
    public init(besideFile filePath: String = #filePath) {
        self.init(directory: URL(fileURLWithPath: filePath).deletingLastPathComponent().appendingPathComponent("Goldens").path)
    }

    public static var isRecording: Bool { ProcessInfo.processInfo.environment["CELLHOST_RECORD_GOLDENS"] == "1" }

    /// Where an image that did not match is written, for a person to look at.
    public static let failureDirectory: String = BuiltProducts.temporaryDirectory(prefix: "cellhost-golden-failures")

    /// Records a test issue naming the golden, the count of differing pixels and where the
    /// actual frame was written, when `image` does not match `name`.png.
    public func check(_ image: RasterImage, _ name: String, sourceLocation: SourceLocation = #_sourceLocation) {
        let path = directory + "/" + name + ".png"
        if Self.isRecording {
            do { try image.writePNG(path: path) } catch {
                Issue.record("could not record golden \(path): \(error)", sourceLocation: sourceLocation)
            }
            return
        }
        guard FileManager.default.fileExists(atPath: path) else {
            let actual = Self.failureDirectory + "/" + name + ".png"
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
            let actual = Self.failureDirectory + "/" + name + ".actual.png"
            try? image.writePNG(path: actual)
            let message = "golden \(name): \(differing) px differ by more than \(channelTolerance) (allowed \(allowed)); "
                + "max channel difference \(image.maxChannelDifference(to: expected)); frame written to \(actual)"
            Issue.record("\(message)", sourceLocation: sourceLocation)
        }
    }
}
