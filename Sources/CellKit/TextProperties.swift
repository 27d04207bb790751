/// How one text of a list content configuration looks (UIKit's
/// `UIListContentConfiguration.TextProperties`). Every property follows the locked rule.
public struct TextProperties: Hashable, Sendable, PropertyInspectable {
    /// Case changes applied to the text as drawn (`UIListContentConfiguration.TextProperties.TextTransform`).
    public enum Transform: String, Hashable, Sendable, CaseIterable, SymbolicPropertyValue {
        case none, uppercase, lowercase, capitalized

        public func apply(_ text: String) -> String {
            switch self {
            case .none: text
            case .uppercase: text.uppercased()
            case .lowercase: text.lowercased()
            case .capitalized:
                String(text.split(separator: " ", omittingEmptySubsequences: false).map { word in
                    word.prefix(1).uppercased() + word.dropFirst().lowercased()
                }.joined(separator: " "))
            }
        }
    }

    @Customizable public var font: Font = .preferredFont(forTextStyle: .body)
    @Customizable public var color: Color = .label
    @Customizable public var colorTransformer: ColorTransformer? = nil
    @Customizable public var alignment: TextAlignment = .natural
    @Customizable public var lineBreakMode: LineBreakMode = .byTruncatingTail
    /// 0 = unlimited.
    @Customizable public var numberOfLines: Int = 0
    @Customizable public var adjustsFontSizeToFitWidth: Bool = false
    @Customizable public var minimumScaleFactor: Double = 0
    @Customizable public var allowsDefaultTighteningForTruncation: Bool = true
    /// When true the font follows the content size category, customised or not, as long as it
    /// was made from a text style (UIKit scales such fonts with `UIFontMetrics`).
    @Customizable public var adjustsFontForContentSizeCategory: Bool = true
    @Customizable public var showsExpansionTextWhenTruncated: Bool = false
    @Customizable public var transform: Transform = .none

    public init() {}

    public var typeIdentifier: String { "com.cellhost.text-properties" }

    /// The colour shown: `colorTransformer(color)`, or `color` without one.
    public func resolvedColor() -> Color {
        colorTransformer.map { $0(color) } ?? color
    }

    /// Rescales the font to `category` when it should follow Dynamic Type.
    mutating func followContentSize(_ category: ContentSizeCategory) {
        if adjustsFontForContentSizeCategory { $font.adjust(font.scaled(for: category)) }
    }

    public static let propertyTable = PropertyTable<TextProperties>([
        .init("font", \._font),
        .init("color", \._color),
        .init("colorTransformer", \._colorTransformer),
        .init("alignment", \._alignment),
        .init("lineBreakMode", \._lineBreakMode),
        .init("numberOfLines", \._numberOfLines, validate: { $0 >= 0 ? nil : "must be 0 (unlimited) or more" }),
        .init("adjustsFontSizeToFitWidth", \._adjustsFontSizeToFitWidth),
        .init("minimumScaleFactor", \._minimumScaleFactor,
              validate: { (0...1).contains($0) ? nil : "must be between 0 and 1" }),
        .init("allowsDefaultTighteningForTruncation", \._allowsDefaultTighteningForTruncation),
        .init("adjustsFontForContentSizeCategory", \._adjustsFontForContentSizeCategory),
        .init("showsExpansionTextWhenTruncated", \._showsExpansionTextWhenTruncated),
        .init("transform", \._transform),
    ])
}
