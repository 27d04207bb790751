import CellKit
import Synchronization

/// The system defaults plugins ask for ("configurations as a source of default values"): they
/// come from the same places built-in configurations take them from, so a plugin cell and a
/// built-in cell side by side agree.
enum SystemDefaults {
    static func font(for style: TextStyle, traits: TraitCollection) -> Font {
        let font = Font.preferredFont(forTextStyle: style, category: traits.preferredContentSizeCategory)
        return traits.legibilityWeight == .bold ? font.withWeight(font.weight.withBoldText) : font
    }

    /// The layout margins of a default list cell for these traits. Plugins ask for them while
    /// sizing and drawing, every pass; styling a whole configuration to read them costs more than
    /// the rest of the call, so each trait collection's answer is kept (a handful per run; bounded).
    static func layoutMargins(for traits: TraitCollection) -> DirectionalEdgeInsets {
        if let known = marginsByTraits.withLock({ $0[traits] }) { return known }
        let margins = defaultCellLayoutMargins(for: traits)
        marginsByTraits.withLock { known in
            if known.count >= 256 { known.removeAll() }
            known[traits] = margins
        }
        return margins
    }

    /// What `layoutMargins(for:)` answers, styled anew.
    static func defaultCellLayoutMargins(for traits: TraitCollection) -> DirectionalEdgeInsets {
        ListContentConfiguration.cell().updated(for: CellConfigurationState(traitCollection: traits)).directionalLayoutMargins
    }

    private static let marginsByTraits = Mutex<[TraitCollection: DirectionalEdgeInsets]>([:])
}

/// The host's own list content for plugins to embed: `ListContentConfiguration` of the named
/// style ("cell", "subtitleCell", "valueCell", … as the factories are named).
public struct ListContentEmbedding: EmbeddedListContentProvider {
    public init() {}

    public func configuration(style: String, text: String?, secondaryText: String?, symbolName: String?,
                              state: (any ConfigurationState)?) -> (any ContentConfiguration)? {
        guard let style = ListContentConfiguration.Style(rawValue: style) else { return nil }
        var configuration = ListContentConfiguration(style: style)
            .updated(for: state ?? CellConfigurationState())
        configuration.text = text
        configuration.secondaryText = secondaryText
        configuration.image = symbolName.map { Image(systemName: $0) }
        return configuration
    }

    /// The state reaches the configuration only through `updated(for:)` of a fresh one, so two
    /// states configure alike when they restyle alike (a highlight restyles no list content).
    public func configuresAlike(style: String, _ a: (any ConfigurationState)?, _ b: (any ConfigurationState)?) -> Bool {
        guard ListContentConfiguration.Style(rawValue: style) != nil else { return false }
        return ListContentConfiguration.statesRestyleAlike((a ?? CellConfigurationState()).cellState,
                                                           (b ?? CellConfigurationState()).cellState)
    }
}
