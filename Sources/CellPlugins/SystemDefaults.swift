import CellKit

/// The system defaults plugins ask for ("configurations as a source of default values"): they
/// come from the same places built-in configurations take them from, so a plugin cell and a
/// built-in cell side by side agree.
enum SystemDefaults {
    static func font(for style: TextStyle, traits: TraitCollection) -> Font {
        Font.preferredFont(forTextStyle: style, category: traits.preferredContentSizeCategory)
    }

    /// The layout margins of a default list cell for these traits.
    static func layoutMargins(for traits: TraitCollection) -> DirectionalEdgeInsets {
        ListContentConfiguration.cell().updated(for: CellConfigurationState(traitCollection: traits)).directionalLayoutMargins
    }
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
}
