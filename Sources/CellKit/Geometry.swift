/// Geometry in points (Double), the unit every layout and drawing command uses.
/// Pixels appear only in the compositor, which multiplies by the display scale.

public struct Point: Hashable, Sendable, CustomStringConvertible {
    public var x: Double
    public var y: Double
    public init(x: Double, y: Double) { self.x = x; self.y = y }
    public static let zero = Point(x: 0, y: 0)
    public var description: String { "(\(formatPoints(x)), \(formatPoints(y)))" }
}

public struct Size: Hashable, Sendable, CustomStringConvertible {
    public var width: Double
    public var height: Double
    public init(width: Double, height: Double) { self.width = width; self.height = height }
    public static let zero = Size(width: 0, height: 0)
    public var description: String { "\(formatPoints(width))×\(formatPoints(height))" }
}

public struct Rect: Hashable, Sendable, CustomStringConvertible {
    public var origin: Point
    public var size: Size

    public init(origin: Point, size: Size) { self.origin = origin; self.size = size }
    public init(x: Double, y: Double, width: Double, height: Double) {
        self.origin = Point(x: x, y: y)
        self.size = Size(width: width, height: height)
    }
    public static let zero = Rect(x: 0, y: 0, width: 0, height: 0)

    public var minX: Double { origin.x }
    public var minY: Double { origin.y }
    public var maxX: Double { origin.x + size.width }
    public var maxY: Double { origin.y + size.height }
    public var midX: Double { origin.x + size.width / 2 }
    public var midY: Double { origin.y + size.height / 2 }
    public var width: Double { size.width }
    public var height: Double { size.height }

    /// A rect with no area covers no pixels: damage and clipping treat it as nothing.
    public var isEmpty: Bool { !(size.width > 0 && size.height > 0) }

    public func union(_ other: Rect) -> Rect {
        if isEmpty { return other }
        if other.isEmpty { return self }
        let x0 = Swift.min(minX, other.minX), y0 = Swift.min(minY, other.minY)
        let x1 = Swift.max(maxX, other.maxX), y1 = Swift.max(maxY, other.maxY)
        return Rect(x: x0, y: y0, width: x1 - x0, height: y1 - y0)
    }

    public func intersection(_ other: Rect) -> Rect {
        let x0 = Swift.max(minX, other.minX), y0 = Swift.max(minY, other.minY)
        let x1 = Swift.min(maxX, other.maxX), y1 = Swift.min(maxY, other.maxY)
        guard x1 > x0, y1 > y0 else { return .zero }
        return Rect(x: x0, y: y0, width: x1 - x0, height: y1 - y0)
    }

    public func intersects(_ other: Rect) -> Bool { !intersection(other).isEmpty }

    public func contains(_ p: Point) -> Bool { p.x >= minX && p.x < maxX && p.y >= minY && p.y < maxY }

    public func contains(_ r: Rect) -> Bool {
        r.isEmpty || (r.minX >= minX && r.maxX <= maxX && r.minY >= minY && r.maxY <= maxY)
    }

    /// Positive values shrink, negative grow — as `CGRect.insetBy`.
    public func insetBy(dx: Double, dy: Double) -> Rect {
        Rect(x: minX + dx, y: minY + dy, width: Swift.max(0, width - 2 * dx), height: Swift.max(0, height - 2 * dy))
    }

    public func inset(by insets: EdgeInsets) -> Rect {
        Rect(x: minX + insets.left, y: minY + insets.top,
             width: Swift.max(0, width - insets.left - insets.right),
             height: Swift.max(0, height - insets.top - insets.bottom))
    }

    public func offsetBy(dx: Double, dy: Double) -> Rect {
        Rect(x: minX + dx, y: minY + dy, width: width, height: height)
    }

    /// Mirrors the rect horizontally inside a container of the given width (right-to-left layout).
    public func mirrored(inWidth containerWidth: Double) -> Rect {
        Rect(x: containerWidth - maxX, y: minY, width: width, height: height)
    }

    /// The smallest rect on the grid of `scale` pixels per point that contains this one.
    public func integral(scale: Double = 1) -> Rect {
        guard !isEmpty else { return .zero }
        let x0 = (minX * scale).rounded(.down) / scale, y0 = (minY * scale).rounded(.down) / scale
        let x1 = (maxX * scale).rounded(.up) / scale, y1 = (maxY * scale).rounded(.up) / scale
        return Rect(x: x0, y: y0, width: x1 - x0, height: y1 - y0)
    }

    public var description: String {
        "[\(formatPoints(minX)),\(formatPoints(minY)) \(formatPoints(width))×\(formatPoints(height))]"
    }
}

/// Absolute insets (left/right), what the compositor and frames use.
public struct EdgeInsets: Hashable, Sendable, CustomStringConvertible {
    public var top, left, bottom, right: Double
    public init(top: Double = 0, left: Double = 0, bottom: Double = 0, right: Double = 0) {
        self.top = top; self.left = left; self.bottom = bottom; self.right = right
    }
    public static let zero = EdgeInsets()
    public init(all v: Double) { self.init(top: v, left: v, bottom: v, right: v) }
    public var description: String {
        "{\(formatPoints(top)), \(formatPoints(left)), \(formatPoints(bottom)), \(formatPoints(right))}"
    }
}

/// Leading/trailing insets, as UIKit's `NSDirectionalEdgeInsets`: they flip in right-to-left layout.
public struct DirectionalEdgeInsets: Hashable, Sendable, CustomStringConvertible {
    public var top, leading, bottom, trailing: Double
    public init(top: Double = 0, leading: Double = 0, bottom: Double = 0, trailing: Double = 0) {
        self.top = top; self.leading = leading; self.bottom = bottom; self.trailing = trailing
    }
    public static let zero = DirectionalEdgeInsets()
    public init(all v: Double) { self.init(top: v, leading: v, bottom: v, trailing: v) }

    public func absolute(for direction: LayoutDirection) -> EdgeInsets {
        direction == .leftToRight
            ? EdgeInsets(top: top, left: leading, bottom: bottom, right: trailing)
            : EdgeInsets(top: top, left: trailing, bottom: bottom, right: leading)
    }
    public var description: String {
        "{\(formatPoints(top)), \(formatPoints(leading)), \(formatPoints(bottom)), \(formatPoints(trailing))}"
    }
}

/// Formats a point value the way traces show it: integers without a fraction, others with up to 2 places.
public func formatPoints(_ v: Double) -> String {
    if v.isNaN { return "nan" }
    if v.isInfinite { return v > 0 ? "inf" : "-inf" }
    let rounded = (v * 100).rounded() / 100
    if rounded == rounded.rounded() && abs(rounded) < 1e15 { return String(Int64(rounded)) }
    return String(rounded)
}
