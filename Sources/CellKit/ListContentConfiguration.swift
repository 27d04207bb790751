/// The standard content of list cells, headers and footers (UIKit's `UIListContentConfiguration`):
/// an image, a text and a secondary text, with per-style, per-state defaults that
/// `updated(for:)` applies to every property the user has not customised.
public struct ListContentConfiguration: ContentConfigurationFastPaths, Hashable, PropertyInspectable {
    public enum Style: String, Hashable, Sendable, CaseIterable {
        case cell, subtitleCell, valueCell, sidebarCell, sidebarSubtitleCell
        case accompaniedSidebarCell, accompaniedSidebarSubtitleCell
        case plainHeader, plainFooter, groupedHeader, groupedFooter, sidebarHeader
        case prominentInsetGroupedHeader, extraProminentInsetGroupedHeader
        /// iOS 18: follow `traitCollection.listEnvironment`.
        case header, footer

        public var isHeaderOrFooter: Bool {
            switch self {
            case .plainHeader, .plainFooter, .groupedHeader, .groupedFooter, .sidebarHeader,
                 .prominentInsetGroupedHeader, .extraProminentInsetGroupedHeader, .header, .footer: true
            default: false
            }
        }

        var isSidebar: Bool { self == .sidebarCell || self == .sidebarSubtitleCell }
        var isAccompaniedSidebar: Bool { self == .accompaniedSidebarCell || self == .accompaniedSidebarSubtitleCell }
    }

    public private(set) var style: Style

    @Customizable public var image: Image? = nil
    @Customizable public var text: String? = nil
    /// Overrides `text` when set (see `AttributedText` for how attributes apply).
    @Customizable public var attributedText: AttributedText? = nil
    @Customizable public var secondaryText: String? = nil
    @Customizable public var secondaryAttributedText: AttributedText? = nil
    public var imageProperties = ImageProperties()
    public var textProperties = TextProperties()
    public var secondaryTextProperties = TextProperties()
    @Customizable public var directionalLayoutMargins: DirectionalEdgeInsets = .zero
    /// Axes on which the superview's layout margins win when larger than ours.
    @Customizable public var axesPreservingSuperviewLayoutMargins: Axes = .horizontal
    /// Secondary text next to the text when both fit on one line; stacked otherwise.
    @Customizable public var prefersSideBySideTextAndSecondaryText: Bool = false
    @Customizable public var imageToTextPadding: Double = 0
    @Customizable public var textToSecondaryTextHorizontalPadding: Double = 0
    @Customizable public var textToSecondaryTextVerticalPadding: Double = 0
    @Customizable public var alpha: Double = 1

    public init(style: Style = .cell) {
        self.style = style
    }

    public var typeIdentifier: String { "com.cellhost.list-content" }

    // MARK: Factories

    public static func cell() -> Self { .styled(.cell) }
    public static func subtitleCell() -> Self { .styled(.subtitleCell) }
    /// Secondary text trailing, on the text's line when both fit.
    public static func valueCell() -> Self { .styled(.valueCell) }
    public static func sidebarCell() -> Self { .styled(.sidebarCell) }
    public static func sidebarSubtitleCell() -> Self { .styled(.sidebarSubtitleCell) }
    public static func accompaniedSidebarCell() -> Self { .styled(.accompaniedSidebarCell) }
    public static func accompaniedSidebarSubtitleCell() -> Self { .styled(.accompaniedSidebarSubtitleCell) }
    public static func plainHeader() -> Self { .styled(.plainHeader) }
    public static func plainFooter() -> Self { .styled(.plainFooter) }
    public static func groupedHeader() -> Self { .styled(.groupedHeader) }
    public static func groupedFooter() -> Self { .styled(.groupedFooter) }
    public static func sidebarHeader() -> Self { .styled(.sidebarHeader) }
    public static func prominentInsetGroupedHeader() -> Self { .styled(.prominentInsetGroupedHeader) }
    public static func extraProminentInsetGroupedHeader() -> Self { .styled(.extraProminentInsetGroupedHeader) }
    /// Follows the list environment of the state it is updated for (iOS 18).
    public static func header() -> Self { .styled(.header) }
    public static func footer() -> Self { .styled(.footer) }


    // MARK: ContentConfiguration

    public func makeContentView() -> any ContentView { ListContentView(configuration: self) }

    /// A copy restyled for `state`; customised properties keep their values, except that fonts
    /// made from a text style keep following the content size category while
    /// `adjustsFontForContentSizeCategory` is on (UIKit scales them too).
    public func updated(for state: any ConfigurationState) -> Self {
        updated(forCellState: state.cellState)
    }

    public func updated(forCellState state: CellConfigurationState) -> Self {
        var copy = self
        copy.applyDefaults(for: state)
        return copy
    }

    /// `applyDefaults(for:)` reads the list environment, the content size category and the
    /// selected, focused and disabled flags, nothing else; each restyled value is a function of
    /// them and the style alone (fonts scale to an absolute size), so restyling twice is restyling once.
    public func restylesAlike(_ a: CellConfigurationState, _ b: CellConfigurationState) -> Bool {
        Self.statesRestyleAlike(a, b)
    }

    /// What `restylesAlike` answers for every list content configuration: it reads no value of
    /// the configuration, so asking needs none.
    public static func statesRestyleAlike(_ a: CellConfigurationState, _ b: CellConfigurationState) -> Bool {
        a.isSelected == b.isSelected && a.isFocused == b.isFocused && a.isDisabled == b.isDisabled
            && a.traitCollection.listEnvironment == b.traitCollection.listEnvironment
            && a.traitCollection.horizontalSizeClass == b.traitCollection.horizontalSizeClass
            && a.traitCollection.legibilityWeight == b.traitCollection.legibilityWeight
            && a.traitCollection.preferredContentSizeCategory == b.traitCollection.preferredContentSizeCategory
    }

    /// The concrete style in a list environment: `header()`/`footer()` resolve through it.
    /// Inset-grouped lists use the grouped header (the prominent styles are opt-in, as in UIKit).
    public static func effectiveStyle(_ style: Style, in environment: ListEnvironment) -> Style {
        switch (style, environment) {
        case (.header, .grouped), (.header, .insetGrouped): .groupedHeader
        case (.header, .sidebar), (.header, .sidebarPlain): .sidebarHeader
        case (.header, _): .plainHeader
        case (.footer, .grouped), (.footer, .insetGrouped), (.footer, .sidebar), (.footer, .sidebarPlain): .groupedFooter
        case (.footer, _): .plainFooter
        default: style
        }
    }

    /// Style defaults, then state changes. Sidebar cells show white text and image on the tint
    /// fill when selected or focused (also while pressed, and on the grey fill when disabled);
    /// accompanied sidebars keep label colours on their grey selection; every style dims text
    /// and image to tertiaryLabel when disabled and not selected. Highlight alone, editing,
    /// swiping, dragging and drop targeting change only the background.
    mutating func applyDefaults(for state: CellConfigurationState) {
        let traits = state.traitCollection
        let effective = Self.effectiveStyle(style, in: traits.listEnvironment)
        let category = traits.preferredContentSizeCategory

        var textStyle = TextStyle.body, textWeight: FontWeight? = nil, textColor = Color.label
        var secondaryStyle = TextStyle.subheadline, secondaryColor = Color.secondaryLabel
        var transform = TextProperties.Transform.none
        var margins = DirectionalEdgeInsets(top: 11, leading: 16, bottom: 11, trailing: 16)
        var imagePadding = 16.0, horizontalPadding = 16.0, verticalPadding = 3.0
        var sideBySide = false
        var imageTint: Color? = nil

        switch effective {
        case .cell, .subtitleCell:
            break
        case .valueCell:
            secondaryStyle = .body
            sideBySide = true
        case .sidebarCell, .sidebarSubtitleCell, .accompaniedSidebarCell, .accompaniedSidebarSubtitleCell:
            margins = DirectionalEdgeInsets(top: 11, leading: 20, bottom: 11, trailing: 20)
            imagePadding = 12
        case .plainHeader:
            textStyle = .headline
            margins = DirectionalEdgeInsets(top: 8, leading: 16, bottom: 8, trailing: 16)
        case .plainFooter:
            textStyle = .footnote; textColor = .secondaryLabel; secondaryStyle = .footnote
            margins = DirectionalEdgeInsets(top: 6, leading: 16, bottom: 6, trailing: 16)
        case .groupedHeader:
            textStyle = .footnote; textColor = .secondaryLabel; secondaryStyle = .footnote
            transform = .uppercase
            margins = DirectionalEdgeInsets(top: 16, leading: 16, bottom: 6, trailing: 16)
        case .groupedFooter:
            textStyle = .footnote; textColor = .secondaryLabel; secondaryStyle = .footnote
            margins = DirectionalEdgeInsets(top: 6, leading: 16, bottom: 10, trailing: 16)
        case .sidebarHeader:
            textStyle = .subheadline; textWeight = .semibold; textColor = .secondaryLabel; secondaryStyle = .footnote
            margins = DirectionalEdgeInsets(top: 12, leading: 20, bottom: 6, trailing: 20)
        case .prominentInsetGroupedHeader, .extraProminentInsetGroupedHeader:
            textStyle = effective == .prominentInsetGroupedHeader ? .title3 : .title2
            textWeight = .bold
            margins = DirectionalEdgeInsets(top: 16, leading: 20, bottom: 8, trailing: 20)
        case .header, .footer:
            preconditionFailure("effectiveStyle resolves environment styles")
        }

        let chosen = state.isSelected || state.isFocused
        if effective.isSidebar && chosen {
            textColor = .white; secondaryColor = .white; imageTint = .white
        } else if state.isDisabled {
            textColor = .tertiaryLabel; secondaryColor = .tertiaryLabel; imageTint = .tertiaryLabel
        }

        textProperties.restyle(font: textStyle, weight: textWeight, color: textColor, transform: transform,
                               category: category, legibility: traits.legibilityWeight)
        secondaryTextProperties.restyle(font: secondaryStyle, weight: nil, color: secondaryColor,
                                        transform: .none, category: category, legibility: traits.legibilityWeight)
        imageProperties.$tintColor.restyle(imageTint)
        $directionalLayoutMargins.restyle(margins.widened(for: traits.horizontalSizeClass))
        $imageToTextPadding.restyle(imagePadding)
        $textToSecondaryTextHorizontalPadding.restyle(horizontalPadding)
        $textToSecondaryTextVerticalPadding.restyle(verticalPadding)
        $prefersSideBySideTextAndSecondaryText.restyle(sideBySide)
    }

    // MARK: What is drawn

    /// The primary text as drawn (attributed text wins, transform applied), nil when empty.
    public var displayedText: String? {
        guard let raw = attributedText?.string ?? text, !raw.isEmpty else { return nil }
        return textProperties.transform.apply(raw)
    }

    public var displayedSecondaryText: String? {
        guard let raw = secondaryAttributedText?.string ?? secondaryText, !raw.isEmpty else { return nil }
        return secondaryTextProperties.transform.apply(raw)
    }

    // MARK: Properties by name

    public static let propertyTable = PropertyTable<ListContentConfiguration>(
        [
            .init("image", \._image),
            .init("text", \._text),
            .init("attributedText", \._attributedText),
            .init("secondaryText", \._secondaryText),
            .init("secondaryAttributedText", \._secondaryAttributedText),
        ]
            + ImageProperties.propertyTable.nested(under: "imageProperties", at: \.imageProperties)
            + TextProperties.propertyTable.nested(under: "textProperties", at: \.textProperties)
            + TextProperties.propertyTable.nested(under: "secondaryTextProperties", at: \.secondaryTextProperties)
            + [
                .init("directionalLayoutMargins", \._directionalLayoutMargins),
                .init("axesPreservingSuperviewLayoutMargins", \._axesPreservingSuperviewLayoutMargins),
                .init("prefersSideBySideTextAndSecondaryText", \._prefersSideBySideTextAndSecondaryText),
                .init("imageToTextPadding", \._imageToTextPadding),
                .init("textToSecondaryTextHorizontalPadding", \._textToSecondaryTextHorizontalPadding),
                .init("textToSecondaryTextVerticalPadding", \._textToSecondaryTextVerticalPadding),
                .init("alpha", \._alpha, validate: { (0...1).contains($0) ? nil : "must be between 0 and 1" }),
            ])
}

extension TextProperties {
    /// Applies a style's font, colour and transform defaults for `category`.
    mutating func restyle(font style: TextStyle, weight: FontWeight?, color: Color, transform: Transform,
                          category: ContentSizeCategory, legibility: LegibilityWeight) {
        let base = Font.preferredFont(forTextStyle: style, category: adjustsFontForContentSizeCategory ? category : .large)
        let chosen = weight ?? base.weight
        $font.restyle(base.withWeight(legibility == .bold ? chosen.withBoldText : chosen))
        followContentSize(category)
        $color.restyle(color)
        $transform.restyle(transform)
    }
}

extension ListContentConfiguration {
    /// The factory of a style by its name ("sidebarCell"), for event streams; nil for unknown names.
    public init?(styleName: String) {
        guard let style = Style(rawValue: styleName) else { return nil }
        self = .styled(style)
    }

    static func styled(_ style: Style) -> Self {
        var c = ListContentConfiguration(style: style)
        c.applyDefaults(for: CellConfigurationState())
        return c
    }
}
