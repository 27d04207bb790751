/// How the image of a list content configuration looks and takes space (UIKit's
/// `UIListContentConfiguration.ImageProperties`). Every property follows the locked rule.
public struct ImageProperties: Hashable, Sendable, PropertyInspectable {
    /// A sentinel for `reservedLayoutSize` (and `maximumSize`) dimensions: "the standard size for
    /// symbols", which scales with the content size category. Negative, so no real size collides.
    public static let standardDimension: Double = -1

    /// nil = the view's tint colour (template images and symbols only).
    @Customizable public var tintColor: Color? = nil
    @Customizable public var tintColorTransformer: ColorTransformer? = nil
    @Customizable public var cornerRadius: Double = 0
    /// 0 in a dimension = no limit; the image is scaled down to fit, keeping its aspect ratio.
    @Customizable public var maximumSize: Size = .zero
    /// Space the layout reserves for the image: the image is centred in it and not scaled, text
    /// aligns to it. 0 = the image's own size; `standardDimension` = the standard symbol size.
    /// A symbol whose reservation was never set gets the standard size, as in UIKit; set to 0
    /// it reserves only its own size.
    @Customizable public var reservedLayoutSize: Size = .zero
    /// Size and weight of symbol images; nil = the text style of the primary text.
    @Customizable public var preferredSymbolConfiguration: SymbolConfiguration? = nil
    @Customizable public var accessibilityIgnoresInvertColors: Bool = false

    public init() {}

    public var typeIdentifier: String { "com.cellhost.image-properties" }

    /// The tint shown: `tintColor` (nil = `tintColor` argument) through the transformer.
    public func resolvedTintColor(for tintColor: Color) -> Color {
        let base = self.tintColor ?? tintColor
        return tintColorTransformer.map { $0(base) } ?? base
    }

    public static let propertyTable = PropertyTable<ImageProperties>([
        .init("tintColor", \._tintColor),
        .init("tintColorTransformer", \._tintColorTransformer),
        .init("cornerRadius", \._cornerRadius, validate: nonNegative),
        .init("maximumSize", \._maximumSize, validate: { $0.width >= 0 && $0.height >= 0 ? nil : "must not be negative" }),
        .init("reservedLayoutSize", \._reservedLayoutSize, validate: { size in
            let valid = { (d: Double) in d >= 0 || d == ImageProperties.standardDimension }
            return valid(size.width) && valid(size.height) ? nil : "must be 0 or more, or standardDimension (-1)"
        }),
        .init("preferredSymbolConfiguration", \._preferredSymbolConfiguration),
        .init("accessibilityIgnoresInvertColors", \._accessibilityIgnoresInvertColors),
    ])
}

extension SymbolConfiguration: PropertyValueConvertible {
    /// Travels as a point size (0 = follow the text style) or a text style name.
    public var propertyValue: PropertyValue {
        if let pointSize { return .double(pointSize) }
        if let textStyle { return .symbolic(textStyle.rawValue) }
        return .symbolic("default")
    }
    public static var propertyKindName: String { "symbol point size (double) or text style name" }
    public static func converting(_ value: PropertyValue, property: String) throws(ConfigurationPropertyError) -> SymbolConfiguration? {
        switch value {
        case .double, .int:
            let size = value.number!
            guard size > 0 else { throw .invalidValue(property: property, reason: "a symbol point size must be positive") }
            if let problem = ValueBounds.pointSizeProblem(size) { throw .invalidValue(property: property, reason: "point size " + problem) }
            return SymbolConfiguration(pointSize: size)
        case .string(let s), .symbolic(let s):
            guard let style = TextStyle(rawValue: s) else {
                throw .invalidValue(property: property, reason: "'\(s)' is not a text style")
            }
            return SymbolConfiguration(textStyle: style)
        default: return nil
        }
    }
}
