/// Dynamic Type: the point size of every text style at every content size category, Apple's
/// published iOS values (HIG "Typography" tables), so fonts scale as the user's text size changes.

extension TextStyle {
    /// Sizes from extraSmall to accessibilityExtraExtraExtraLarge (12 entries per style).
    private var pointSizes: [Double] {
        switch self {
        case .largeTitle: [31, 32, 33, 34, 36, 38, 40, 44, 48, 52, 56, 60]
        case .title1: [25, 26, 27, 28, 30, 32, 34, 38, 43, 48, 53, 58]
        case .title2: [19, 20, 21, 22, 24, 26, 28, 34, 39, 44, 50, 56]
        case .title3: [17, 18, 19, 20, 22, 24, 26, 31, 37, 43, 49, 55]
        case .headline: [14, 15, 16, 17, 19, 21, 23, 28, 33, 40, 47, 53]
        case .body: [14, 15, 16, 17, 19, 21, 23, 28, 33, 40, 47, 53]
        case .callout: [13, 14, 15, 16, 18, 20, 22, 26, 32, 38, 44, 51]
        case .subheadline: [12, 13, 14, 15, 17, 19, 21, 25, 30, 36, 42, 49]
        case .footnote: [12, 12, 12, 13, 15, 17, 19, 23, 27, 33, 38, 44]
        case .caption1: [11, 11, 11, 12, 14, 16, 18, 22, 26, 32, 37, 43]
        case .caption2: [11, 11, 11, 11, 13, 15, 17, 20, 24, 29, 34, 40]
        }
    }

    /// The style's point size at `category`.
    public func pointSize(for category: ContentSizeCategory) -> Double {
        pointSizes[category.index]
    }

    /// Headline is the semibold body; every other style is regular.
    public var defaultWeight: FontWeight { self == .headline ? .semibold : .regular }
}

extension Font {
    /// The system font for `style` at `category` (UIKit's `preferredFont(forTextStyle:compatibleWith:)`).
    public static func preferredFont(forTextStyle style: TextStyle, category: ContentSizeCategory = .large) -> Font {
        Font(pointSize: style.pointSize(for: category), weight: style.defaultWeight, textStyle: style)
    }

    /// The same font at `category`'s size, keeping family, weight and italic; a font without a
    /// text style does not scale (as a `UIFont` not made from a text style or `UIFontMetrics`).
    public func scaled(for category: ContentSizeCategory) -> Font {
        guard let textStyle else { return self }
        var copy = self
        copy.pointSize = textStyle.pointSize(for: category)
        return copy
    }

    /// The same font with another weight.
    public func withWeight(_ weight: FontWeight) -> Font {
        var copy = self
        copy.weight = weight
        return copy
    }
}
