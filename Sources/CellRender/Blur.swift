import CellKit

/// A Gaussian approximated by three successive box blurs per axis (running sums: cost independent
/// of the radius). pixman's Gaussian convolution is orders of magnitude slower.
enum Blur {
    /// Box widths whose three passes approximate a Gaussian of deviation `sigma` (W3C filter effects).
    static func boxRadii(sigma: Double) -> [Int] {
        let ideal = (12 * sigma * sigma / 3 + 1).squareRoot()
        var lower = Int(ideal.rounded(.down))
        if lower % 2 == 0 { lower -= 1 }
        let upper = lower + 2
        let m = ((12 * sigma * sigma - 3 * Double(lower * lower) - 12 * Double(lower) - 9) / (-4 * Double(lower) - 4)).rounded()
        return (0..<3).map { Double($0) < m ? (lower - 1) / 2 : (upper - 1) / 2 }
    }

    static func blurCoverage(_ mask: CoverageMask, sigma: Double) {
        let radii = boxRadii(sigma: sigma)
        let line = UnsafeMutablePointer<UInt8>.allocate(capacity: max(mask.width, mask.height))
        defer { line.deallocate() }
        for r in radii where r > 0 {
            for y in 0..<mask.height { boxPass(mask.bytes + y * mask.stride, step: 1, count: mask.width, radius: r, scratch: line) }
            for x in 0..<mask.width { boxPass(mask.bytes + x, step: mask.stride, count: mask.height, radius: r, scratch: line) }
        }
    }

    /// Blurs `rect` of premultiplied ARGB pixels in place, reading only inside `rect` (edges extend).
    /// A premultiplied pixel's four bytes blur as four independent 8-bit channels.
    static func blurARGB(_ pixels: UnsafeMutablePointer<UInt32>, stride: Int, rect: PixelRect, sigma: Double) {
        guard !rect.isEmpty else { return }
        let radii = boxRadii(sigma: sigma)
        let bytes = UnsafeMutableRawPointer(pixels).assumingMemoryBound(to: UInt8.self)
        let line = UnsafeMutablePointer<UInt8>.allocate(capacity: max(rect.width, rect.height))
        defer { line.deallocate() }
        for r in radii where r > 0 {
            for y in rect.y..<rect.maxY {
                let row = bytes + 4 * (y * stride + rect.x)
                for c in 0..<4 { boxPass(row + c, step: 4, count: rect.width, radius: r, scratch: line) }
            }
            for x in rect.x..<rect.maxX {
                let column = bytes + 4 * (rect.y * stride + x)
                for c in 0..<4 { boxPass(column + c, step: 4 * stride, count: rect.height, radius: r, scratch: line) }
            }
        }
    }

    /// One box pass over `count` bytes `step` apart, in place, edges clamped, rounded to nearest.
    @inline(__always)
    private static func boxPass(_ data: UnsafeMutablePointer<UInt8>, step: Int, count: Int, radius: Int,
                                scratch: UnsafeMutablePointer<UInt8>) {
        for i in 0..<count { scratch[i] = data[i * step] }
        let window = Int32(2 * radius + 1), last = count - 1
        var sum: Int32 = 0
        for k in -radius...radius { sum += Int32(scratch[min(max(k, 0), last)]) }
        for i in 0..<count {
            data[i * step] = UInt8((sum + window / 2) / window)
            sum += Int32(scratch[min(i + radius + 1, last)]) - Int32(scratch[max(i - radius, 0)])
        }
    }
}
