import CellRender
import CellRuntime

/// The image half of a snapshot: decoded pixels against the reference's, within the stream's
/// tolerance. Equal files are equal pixels, so the common case (nothing changed) costs reading
/// two files and comparing their bytes; only files that differ are decoded.
public struct ImageComparison: Sendable, Equatable {
    /// Pixels whose difference exceeds the channel tolerance (all of them when the sizes differ).
    public var differingPixels: Int
    public var totalPixels: Int
    /// The largest channel difference seen; nil when the sizes differ.
    public var maxChannelDifference: Int?
    /// Differing pixels' bounds in the actual image's coordinates; nil when none differ.
    public var bounds: PixelRect?
    /// Set when the sizes differ.
    public var sizeChange: String?
    public var matches: Bool

    /// `expected` and `actual`: the reference's and the run's PNG bytes.
    public static func compare(expected: [UInt8], actual: [UInt8], decodeExpected: () throws(PNGError) -> RasterImage,
                               decodeActual: () throws(PNGError) -> RasterImage,
                               tolerance: ImageTolerance) throws(PNGError) -> (ImageComparison, RasterImage?, RasterImage?) {
        if expected == actual {
            return (ImageComparison(differingPixels: 0, totalPixels: 0, maxChannelDifference: 0, bounds: nil, sizeChange: nil,
                                    matches: true), nil, nil)
        }
        let reference = try decodeExpected(), image = try decodeActual()
        return (compare(reference, image, tolerance: tolerance), reference, image)
    }

    public static func compare(_ expected: RasterImage, _ actual: RasterImage, tolerance: ImageTolerance) -> ImageComparison {
        guard expected.width == actual.width, expected.height == actual.height else {
            let total = max(expected.width, actual.width) * max(expected.height, actual.height)
            return ImageComparison(differingPixels: total, totalPixels: total, maxChannelDifference: nil,
                                   bounds: PixelRect(x: 0, y: 0, width: max(expected.width, actual.width),
                                                     height: max(expected.height, actual.height)),
                                   sizeChange: "\(expected.width)×\(expected.height) px → \(actual.width)×\(actual.height) px",
                                   matches: false)
        }
        var differing = 0, maxDifference = 0
        var minX = Int.max, minY = Int.max, maxX = -1, maxY = -1
        let width = actual.width
        expected.pixels.withUnsafeBufferPointer { e in
            actual.pixels.withUnsafeBufferPointer { a in
                for i in 0..<a.count where e[i] != a[i] {
                    let d = channelDifference(e[i], a[i])
                    maxDifference = max(maxDifference, d)
                    guard d > tolerance.channel else { continue }
                    differing += 1
                    let x = i % width, y = i / width
                    minX = min(minX, x); maxX = max(maxX, x); minY = min(minY, y); maxY = max(maxY, y)
                }
            }
        }
        let total = actual.pixels.count
        let bounds = differing == 0 ? nil : PixelRect(x: minX, y: minY, width: maxX - minX + 1, height: maxY - minY + 1)
        let allowed = Int((Double(total) * tolerance.pixelFraction).rounded(.down))
        return ImageComparison(differingPixels: differing, totalPixels: total, maxChannelDifference: maxDifference,
                               bounds: bounds, sizeChange: nil, matches: differing <= allowed)
    }

    /// The largest difference of one channel (premultiplied ARGB, 8 bits each).
    static func channelDifference(_ a: UInt32, _ b: UInt32) -> Int {
        var largest = 0
        for shift in stride(from: 0, through: 24, by: 8) {
            largest = max(largest, abs(Int((a >> UInt32(shift)) & 0xFF) - Int((b >> UInt32(shift)) & 0xFF)))
        }
        return largest
    }

    /// What differs, in words, for the summary.
    public var explanation: String {
        if let sizeChange { return "size \(sizeChange)" }
        let share = totalPixels == 0 ? 0 : Double(differingPixels) / Double(totalPixels)
        var text = "\(differingPixels) px differ (\(formatShare(share)) of \(totalPixels))"
        if let maxChannelDifference { text += ", up to \(maxChannelDifference) per channel" }
        if let bounds { text += ", within \(bounds)" }
        return text
    }

    private func formatShare(_ share: Double) -> String {
        let percent = (share * 10_000).rounded() / 100
        return percent == 0 && share > 0 ? "<0.01 %" : "\(percent) %"
    }
}
