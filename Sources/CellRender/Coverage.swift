import CPixman
import CellKit
import Glibc

/// Antialiased coverage of rounded rectangles, computed from the signed distance to the shape
/// at each pixel centre (a one-pixel ramp), and cached: cells repeat the same few shapes.
struct RoundedShape: Hashable {
    /// Size and radius in quarter pixels (cache keys must be exact).
    var width4: Int, height4: Int, radius4: Int
    init(width: Double, height: Double, radius: Double) {
        width4 = Int((width * 4).rounded())
        height4 = Int((height * 4).rounded())
        radius4 = Int((max(0, min(radius, min(width, height) / 2)) * 4).rounded())
    }
    var width: Double { Double(width4) / 4 }
    var height: Double { Double(height4) / 4 }
    var radius: Double { Double(radius4) / 4 }

    /// Coverage 0…1 of the pixel whose centre is (px, py), shape placed at (x0, y0).
    @inline(__always)
    func coverage(px: Double, py: Double, x0: Double = 0, y0: Double = 0) -> Double {
        let hx = width / 2, hy = height / 2, r = radius
        let qx = abs(px - x0 - hx) - (hx - r), qy = abs(py - y0 - hy) - (hy - r)
        let outside = (max(qx, 0) * max(qx, 0) + max(qy, 0) * max(qy, 0)).squareRoot()
        let distance = outside + min(max(qx, qy), 0) - r
        return min(1, max(0, 0.5 - distance))
    }
}

enum Corner: Int, CaseIterable { case topLeft, topRight, bottomLeft, bottomRight }

final class CoverageCache {
    private var corners: [Int: [CoverageMask]] = [:]
    private var shapes: [ShapeKey: CoverageMask] = [:]
    private let limit = 1024

    private struct ShapeKey: Hashable { var outer: RoundedShape; var strokeWidth4: Int; var blur4: Int }

    /// The four corner masks (n×n, n = ⌈r⌉) of a circle of radius `radius4`/4 pixels.
    func corners(radius4: Int) -> [CoverageMask] {
        if let cached = corners[radius4] { return cached }
        let r = Double(radius4) / 4
        let n = Int(r.rounded(.up))
        let shape = RoundedShape(width: Double(2 * n), height: Double(2 * n), radius: r)
        // The corner squares of a 2n×2n rounded rect whose circle touches each square's outer edges.
        let masks = Corner.allCases.map { corner -> CoverageMask in
            let mask = CoverageMask(width: n, height: n)
            let ox = (corner == .topRight || corner == .bottomRight) ? n : 0
            let oy = (corner == .bottomLeft || corner == .bottomRight) ? n : 0
            for y in 0..<n {
                for x in 0..<n {
                    let c = shape.coverage(px: Double(ox + x) + 0.5, py: Double(oy + y) + 0.5)
                    mask[x, y] = UInt8((c * 255).rounded())
                }
            }
            return mask
        }
        if corners.count >= limit { corners.removeAll() }
        corners[radius4] = masks
        return masks
    }

    /// A whole-shape mask: a rounded rect, or a stroke of it (outer minus inner) when
    /// `strokeWidth` > 0, optionally blurred (σ = `blur` px) with room for the blur's reach.
    /// The mask's origin is the shape's origin minus `padding(blur:)`.
    func mask(_ shape: RoundedShape, strokeWidth: Double = 0, blur: Double = 0) -> CoverageMask {
        let key = ShapeKey(outer: shape, strokeWidth4: Int((strokeWidth * 4).rounded()), blur4: Int((blur * 4).rounded()))
        if let cached = shapes[key] { return cached }
        let pad = CoverageCache.padding(blur: blur)
        let w = Int(shape.width.rounded(.up)) + 2 * pad, h = Int(shape.height.rounded(.up)) + 2 * pad
        let mask = CoverageMask(width: w, height: h)
        let sw = Double(key.strokeWidth4) / 4
        let inner = RoundedShape(width: shape.width - 2 * sw, height: shape.height - 2 * sw, radius: max(0, shape.radius - sw))
        let hasInner = sw > 0 && inner.width4 > 0 && inner.height4 > 0
        for y in 0..<h {
            for x in 0..<w {
                let px = Double(x - pad) + 0.5, py = Double(y - pad) + 0.5
                var c = shape.coverage(px: px, py: py)
                if hasInner && c > 0 { c *= 1 - inner.coverage(px: px, py: py, x0: sw, y0: sw) }
                mask[x, y] = UInt8((c * 255).rounded())
            }
        }
        if blur > 0 { Blur.blurCoverage(mask, sigma: blur) }
        if shapes.count >= limit { shapes.removeAll() }
        shapes[key] = mask
        return mask
    }

    /// Pixels a blur of σ reaches beyond the shape (3σ, as `DisplayCommand.bounds` assumes).
    static func padding(blur: Double) -> Int { blur > 0 ? Int((3 * blur).rounded(.up)) : 0 }
}

/// How a rounded rect's coverage is applied: as a plain rectangle (no radius), through one
/// whole-shape mask (too small to split), or as straight parts plus four n×n corner masks.
enum RoundedSplit {
    case plain
    case whole(RoundedShape)
    case corners(n: Int, radius4: Int)

    init(_ r: PixelRect, radius: Double) {
        let shape = RoundedShape(width: Double(r.width), height: Double(r.height), radius: radius)
        if shape.radius4 == 0 { self = .plain; return }
        let n = Int(shape.radius.rounded(.up))
        self = 2 * n <= r.width && 2 * n <= r.height ? .corners(n: n, radius4: shape.radius4) : .whole(shape)
    }

    /// The corner squares of `r`, in `Corner` order.
    static func cornerBoxes(of r: PixelRect, n: Int) -> [PixelRect] {
        [PixelRect(x: r.x, y: r.y, width: n, height: n), PixelRect(x: r.maxX - n, y: r.y, width: n, height: n),
         PixelRect(x: r.x, y: r.maxY - n, width: n, height: n), PixelRect(x: r.maxX - n, y: r.maxY - n, width: n, height: n)]
    }

    /// Whether the rounding of `r` leaves every pixel of `clip` fully covered, so clipping to the
    /// rounded rect inside `clip` is clipping to the plain rect.
    static func roundingMisses(_ clip: PixelRect, rect r: PixelRect, radius: Double) -> Bool {
        switch RoundedSplit(r, radius: radius) {
        case .plain: return true
        case .whole: return r.intersection(clip).isEmpty
        case .corners(let n, _): return cornerBoxes(of: r, n: n).allSatisfy { $0.intersection(clip).isEmpty }
        }
    }
}

extension CoverageCache {
    /// Composites `source` into `target` through the coverage of a rounded rect at `rect`:
    /// the straight parts as plain rectangles, the four corners through cached corner masks, so
    /// the cost does not grow with the shape (a section-sized clip costs four small masks).
    /// Shapes too small to split go through one cached whole-shape mask. Source pixel = target
    /// pixel + `sourceOffset`; the target's clip region applies.
    func composite(_ op: pixman_op_t, source: OpaquePointer, sourceOffset: (x: Int, y: Int) = (0, 0),
                   into target: OpaquePointer, rect r: PixelRect, radius: Double) {
        guard !r.isEmpty else { return }
        func plain(_ box: PixelRect, mask: OpaquePointer? = nil) {
            guard !box.isEmpty else { return }
            pixman_image_composite32(op, source, mask, target, Int32(box.x + sourceOffset.x), Int32(box.y + sourceOffset.y),
                                     0, 0, Int32(box.x), Int32(box.y), Int32(box.width), Int32(box.height))
        }
        switch RoundedSplit(r, radius: radius) {
        case .plain:
            plain(r)
        case .whole(let shape):
            plain(r, mask: mask(shape).image)
        case .corners(let n, let radius4):
            plain(PixelRect(x: r.x + n, y: r.y, width: r.width - 2 * n, height: r.height))
            plain(PixelRect(x: r.x, y: r.y + n, width: n, height: r.height - 2 * n))
            plain(PixelRect(x: r.maxX - n, y: r.y + n, width: n, height: r.height - 2 * n))
            let masks = corners(radius4: radius4)
            for (box, mask) in zip(RoundedSplit.cornerBoxes(of: r, n: n), masks) { plain(box, mask: mask.image) }
        }
    }

    /// Multiplies `target` by the coverage of a rounded rect at `rect` where that coverage is
    /// below one (corners, or the whole of a shape too small to split): what drawing into a
    /// blank group and compositing it through `composite` would leave, done in place. `opaque`
    /// is a solid opaque source; the target's clip region applies.
    func maskRounding(of target: OpaquePointer, opaque: OpaquePointer, rect r: PixelRect, radius: Double) {
        guard !r.isEmpty else { return }
        func multiply(_ box: PixelRect, by mask: OpaquePointer) {
            pixman_image_composite32(PIXMAN_OP_IN_REVERSE, opaque, mask, target, 0, 0, 0, 0,
                                     Int32(box.x), Int32(box.y), Int32(box.width), Int32(box.height))
        }
        switch RoundedSplit(r, radius: radius) {
        case .plain: return
        case .whole(let shape): multiply(r, by: mask(shape).image)
        case .corners(let n, let radius4):
            for (box, mask) in zip(RoundedSplit.cornerBoxes(of: r, n: n), corners(radius4: radius4)) { multiply(box, by: mask.image) }
        }
    }
}
