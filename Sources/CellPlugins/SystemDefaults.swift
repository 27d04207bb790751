import CellKit

/// The system defaults plugins ask for ("configurations as a source of default values"):
/// Dynamic Type fonts and list layout margins for a trait collection.
enum SystemDefaults {
    /// iOS body sizes at the Large category, and each step's change (UIKit's type ramp).
    private static let largeSizes: [TextStyle: (size: Double, weight: FontWeight)] = [
        .largeTitle: (34, .regular), .title1: (28, .regular), .title2: (22, .regular), .title3: (20, .regular),
        .headline: (17, .semibold), .body: (17, .regular), .callout: (16, .regular), .subheadline: (15, .regular),
        .footnote: (13, .regular), .caption1: (12, .regular), .caption2: (11, .regular),
    ]
    /// Point-size offsets from Large, per content size category (XS … AX5), for body text.
    private static let categoryOffsets: [Double] = [-3, -2, -1, 0, 2, 4, 6, 11, 16, 23, 30, 36]

    static func font(for style: TextStyle, traits: TraitCollection) -> Font {
        let base = largeSizes[style] ?? (17, .regular)
        let offset = categoryOffsets[traits.preferredContentSizeCategory.index]
        // Non-body styles scale proportionally to their size; body follows the table exactly.
        let size = max(base.size + offset * base.size / 17, base.size * 0.7).rounded()
        return Font(pointSize: size, weight: base.weight, textStyle: style)
    }

    /// List cell layout margins: 16 pt at the sides (20 in regular width), 11 pt top and bottom.
    static func layoutMargins(for traits: TraitCollection) -> DirectionalEdgeInsets {
        let side: Double = traits.horizontalSizeClass == .regular ? 20 : 16
        return DirectionalEdgeInsets(top: 11, leading: side, bottom: 11, trailing: side)
    }
}
