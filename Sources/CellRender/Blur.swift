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
        let longest = max(mask.width, mask.height)
        var line = [Int32](repeating: 0, count: longest), out = [Int32](repeating: 0, count: longest)
        for r in radii where r > 0 {
            for y in 0..<mask.height {
                for x in 0..<mask.width { line[x] = Int32(mask[x, y]) }
                boxLine(&line, &out, count: mask.width, radius: r)
                for x in 0..<mask.width { mask[x, y] = UInt8(out[x]) }
            }
            for x in 0..<mask.width {
                for y in 0..<mask.height { line[y] = Int32(mask[x, y]) }
                boxLine(&line, &out, count: mask.height, radius: r)
                for y in 0..<mask.height { mask[x, y] = UInt8(out[y]) }
            }
        }
    }

    /// Blurs `rect` of premultiplied ARGB pixels in place, reading only inside `rect` (edges extend).
    static func blurARGB(_ pixels: UnsafeMutablePointer<UInt32>, stride: Int, rect: PixelRect, sigma: Double) {
        guard !rect.isEmpty else { return }
        let radii = boxRadii(sigma: sigma)
        let longest = max(rect.width, rect.height)
        var channels = [[Int32]](repeating: [Int32](repeating: 0, count: longest), count: 4)
        var out = [Int32](repeating: 0, count: longest)
        func pass(count: Int, index: (Int) -> Int, radius: Int) {
            for i in 0..<count {
                let p = pixels[index(i)]
                channels[0][i] = Int32(p & 0xFF); channels[1][i] = Int32((p >> 8) & 0xFF)
                channels[2][i] = Int32((p >> 16) & 0xFF); channels[3][i] = Int32(p >> 24)
            }
            var results = [UInt32](repeating: 0, count: count)
            for c in 0..<4 {
                boxLine(&channels[c], &out, count: count, radius: radius)
                for i in 0..<count { results[i] |= UInt32(out[i]) << (8 * UInt32(c)) }
            }
            for i in 0..<count { pixels[index(i)] = results[i] }
        }
        for r in radii where r > 0 {
            for y in rect.y..<rect.maxY { pass(count: rect.width, index: { y * stride + rect.x + $0 }, radius: r) }
            for x in rect.x..<rect.maxX { pass(count: rect.height, index: { (rect.y + $0) * stride + x }, radius: r) }
        }
    }

    /// One box pass over `count` values with clamped edges, rounded to nearest.
    @inline(__always)
    private static func boxLine(_ input: inout [Int32], _ output: inout [Int32], count: Int, radius: Int) {
        let window = Int32(2 * radius + 1)
        var sum: Int32 = 0
        for k in -radius...radius { sum += input[min(max(k, 0), count - 1)] }
        for i in 0..<count {
            output[i] = (sum + window / 2) / window
            sum += input[min(i + radius + 1, count - 1)] - input[max(i - radius, 0)]
        }
    }
}
