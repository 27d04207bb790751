import CellKit

/// A frame or image in memory: premultiplied ARGB32 pixels (`PIXMAN_a8r8g8b8`, one `UInt32` per
/// pixel, alpha in the top byte), rows packed without padding. A value type, so a snapshot is an
/// independent copy that later frames cannot change.
public struct RasterImage: Hashable, Sendable {
    public let width: Int
    public let height: Int
    /// Row-major, `width × height` premultiplied ARGB values.
    public var pixels: [UInt32]

    public init(width: Int, height: Int, pixels: [UInt32]) {
        precondition(width >= 0 && height >= 0 && pixels.count == width * height, "pixel count must be width × height")
        self.width = width
        self.height = height
        self.pixels = pixels
    }

    /// An image filled with one colour.
    public init(width: Int, height: Int, fill: Color = .clear) {
        self.init(width: width, height: height, pixels: Array(repeating: fill.premultipliedARGB, count: width * height))
    }

    public subscript(x: Int, y: Int) -> UInt32 {
        get { pixels[y * width + x] }
        set { pixels[y * width + x] = newValue }
    }

    /// The straight-alpha colour of one pixel (0…255 per channel), for tests and inspection.
    public func rgba(x: Int, y: Int) -> (red: UInt8, green: UInt8, blue: UInt8, alpha: UInt8) {
        let (r, g, b, a) = unpremultiply(self[x, y])
        return (r, g, b, a)
    }

    /// The largest difference of any channel of any pixel (premultiplied values); `Int.max` when
    /// the sizes differ, so a size mismatch never passes a tolerance.
    public func maxChannelDifference(to other: RasterImage) -> Int {
        guard width == other.width, height == other.height else { return .max }
        var worst: UInt32 = 0
        for i in 0..<pixels.count where pixels[i] != other.pixels[i] {
            worst = max(worst, channelDifference(pixels[i], other.pixels[i]))
        }
        return Int(worst)
    }

    /// How many pixels differ by more than `tolerance` in some channel; `Int.max` when sizes differ.
    public func differingPixelCount(to other: RasterImage, tolerance: Int = 0) -> Int {
        guard width == other.width, height == other.height else { return .max }
        var count = 0
        for i in 0..<pixels.count where pixels[i] != other.pixels[i] {
            if Int(channelDifference(pixels[i], other.pixels[i])) > tolerance { count += 1 }
        }
        return count
    }

    /// The smallest pixel rectangle containing every differing pixel, nil when the images are equal.
    public func differenceBounds(to other: RasterImage) -> PixelRect? {
        precondition(width == other.width && height == other.height, "images must have equal sizes")
        var x0 = Int.max, y0 = Int.max, x1 = -1, y1 = -1
        for y in 0..<height {
            let row = y * width
            for x in 0..<width where pixels[row + x] != other.pixels[row + x] {
                x0 = min(x0, x); x1 = max(x1, x); y0 = min(y0, y); y1 = max(y1, y)
            }
        }
        return x1 < 0 ? nil : PixelRect(x: x0, y: y0, width: x1 - x0 + 1, height: y1 - y0 + 1)
    }
}

/// An integer rectangle in framebuffer pixels: damage and layer extents.
public struct PixelRect: Hashable, Sendable, CustomStringConvertible {
    public var x, y, width, height: Int
    public init(x: Int, y: Int, width: Int, height: Int) {
        self.x = x; self.y = y; self.width = width; self.height = height
    }
    public var maxX: Int { x + width }
    public var maxY: Int { y + height }
    public var isEmpty: Bool { width <= 0 || height <= 0 }
    public var area: Int { isEmpty ? 0 : width * height }
    public func contains(x px: Int, y py: Int) -> Bool { px >= x && px < maxX && py >= y && py < maxY }
    /// Whether every pixel of `o` lies inside this rect (an empty `o` always does).
    public func contains(_ o: PixelRect) -> Bool {
        o.isEmpty || (o.x >= x && o.y >= y && o.maxX <= maxX && o.maxY <= maxY)
    }
    public func intersection(_ o: PixelRect) -> PixelRect {
        let x0 = max(x, o.x), y0 = max(y, o.y), x1 = min(maxX, o.maxX), y1 = min(maxY, o.maxY)
        return x1 > x0 && y1 > y0 ? PixelRect(x: x0, y: y0, width: x1 - x0, height: y1 - y0) : .zero
    }
    public func union(_ o: PixelRect) -> PixelRect {
        if isEmpty { return o }
        if o.isEmpty { return self }
        let x0 = min(x, o.x), y0 = min(y, o.y)
        return PixelRect(x: x0, y: y0, width: max(maxX, o.maxX) - x0, height: max(maxY, o.maxY) - y0)
    }
    public func insetBy(_ d: Int) -> PixelRect { PixelRect(x: x + d, y: y + d, width: width - 2 * d, height: height - 2 * d) }
    public static let zero = PixelRect(x: 0, y: 0, width: 0, height: 0)
    public var description: String { "[\(x),\(y) \(width)×\(height)]" }

    /// The pixels a rect in points covers at `scale`, edges rounded outward.
    public init(covering rect: Rect, scale: Double) {
        guard !rect.isEmpty else { self = .zero; return }
        let x0 = Int((rect.minX * scale).rounded(.down)), y0 = Int((rect.minY * scale).rounded(.down))
        let x1 = Int((rect.maxX * scale).rounded(.up)), y1 = Int((rect.maxY * scale).rounded(.up))
        self.init(x: x0, y: y0, width: x1 - x0, height: y1 - y0)
    }
}

@inline(__always)
func channelDifference(_ a: UInt32, _ b: UInt32) -> UInt32 {
    var worst: UInt32 = 0
    for shift in stride(from: 0 as UInt32, through: 24, by: 8) {
        let ca = (a >> shift) & 0xFF, cb = (b >> shift) & 0xFF
        worst = max(worst, ca > cb ? ca - cb : cb - ca)
    }
    return worst
}

@inline(__always)
func unpremultiply(_ p: UInt32) -> (UInt8, UInt8, UInt8, UInt8) {
    let a = p >> 24
    if a == 0 { return (0, 0, 0, 0) }
    let r = (p >> 16) & 0xFF, g = (p >> 8) & 0xFF, b = p & 0xFF
    if a == 255 { return (UInt8(r), UInt8(g), UInt8(b), 255) }
    func un(_ c: UInt32) -> UInt8 { UInt8(min(255, (c * 255 + a / 2) / a)) }
    return (un(r), un(g), un(b), UInt8(a))
}

@inline(__always)
func premultiply(red r: UInt8, green g: UInt8, blue b: UInt8, alpha a: UInt8) -> UInt32 {
    let a32 = UInt32(a)
    func pm(_ c: UInt8) -> UInt32 { (UInt32(c) * a32 + 127) / 255 }
    return a32 << 24 | pm(r) << 16 | pm(g) << 8 | pm(b)
}

extension Color {
    /// The light (static) appearance as premultiplied ARGB32; the compositor gets resolved colours.
    public var premultipliedARGB: UInt32 {
        func byte(_ v: Double) -> UInt8 { UInt8((min(1, max(0, v.isNaN ? 0 : v)) * 255).rounded()) }
        return premultiply(red: byte(red), green: byte(green), blue: byte(blue), alpha: byte(alpha))
    }
}
