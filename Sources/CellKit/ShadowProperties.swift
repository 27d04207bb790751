/// The shadow a background casts (UIKit's `UIShadowProperties`, iOS 18). No colour or zero
/// opacity draws no shadow, which is the default.
public struct ShadowProperties: Hashable, Sendable, PropertyInspectable {
    @Customizable public var color: Color? = nil
    @Customizable public var opacity: Double = 0
    /// Blur radius in points.
    @Customizable public var radius: Double = 0
    @Customizable public var offset: Point = .zero

    public init() {}

    public var typeIdentifier: String { "com.cellhost.shadow-properties" }

    /// Applies a style's or state's defaults in place; customised values are kept.
    mutating func restyle(color: Color?, opacity: Double, radius: Double, offset: Point) {
        _color.restyle(color)
        _opacity.restyle(opacity)
        _radius.restyle(radius)
        _offset.restyle(offset)
    }

    /// Whether anything would be drawn.
    public var isVisible: Bool { (color?.alpha ?? 0) > 0 && opacity > 0 }

    public static let propertyTable = PropertyTable<ShadowProperties>([
        .init("color", \._color),
        .init("opacity", \._opacity, validate: { (0...1).contains($0) ? nil : "opacity must be between 0 and 1" }),
        .init("radius", \._radius, validate: { $0 >= 0 ? nil : "a shadow radius cannot be negative" }),
        .init("offset", \._offset),
    ])
}
