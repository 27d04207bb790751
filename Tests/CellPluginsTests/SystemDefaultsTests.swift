import CellKit
import Testing
@testable import CellPlugins

/// The layout margins plugins ask for are the default list cell's for the traits they pass,
/// whether answered from the kept ones or styled anew.
@Suite struct SystemDefaultsTests {
    @Test func keptLayoutMarginsAreTheStyledOnes() {
        var traitSets: [TraitCollection] = [.default, TraitCollection(userInterfaceStyle: .dark)]
        var t = TraitCollection.default
        t.preferredContentSizeCategory = .accessibilityExtraLarge
        traitSets.append(t)
        t.listEnvironment = .sidebar
        traitSets.append(t)
        t.layoutDirection = .rightToLeft
        traitSets.append(t)
        for _ in 0..<2 {
            for traits in traitSets {
                #expect(SystemDefaults.layoutMargins(for: traits) == SystemDefaults.defaultCellLayoutMargins(for: traits))
            }
        }
        #expect(SystemDefaults.layoutMargins(for: .default)
            == ListContentConfiguration.cell().updated(for: CellConfigurationState()).directionalLayoutMargins)
    }
}

/// An embedded list view given the same content under a state that configures alike keeps its
/// configuration; what it shows is always what a view given only the last content shows.
@Suite struct EmbeddedListContentTests {
    @Test func contentSetAlikeIsKeptAndEqualsContentSetAnew() {
        var highlighted = CellConfigurationState()
        highlighted.isHighlighted = true
        var selected = CellConfigurationState()
        selected.isSelected = true
        var large = CellConfigurationState()
        large.traitCollection.preferredContentSizeCategory = .accessibilityLarge
        let steps: [(String?, String?, String?, (any ConfigurationState)?)] = [
            ("Inbox", nil, nil, CellConfigurationState()), ("Inbox", nil, nil, highlighted), ("Inbox", nil, nil, nil),
            ("Inbox", nil, nil, selected), ("Inbox", nil, nil, highlighted), ("Inbox", "3", "tray", highlighted),
            ("Inbox", "3", "tray", large), ("Inbox", "3", "tray", ViewConfigurationState()), ("Drafts", "3", "tray", large),
        ]
        for style in ["cell", "subtitleCell", "sidebarCell", "groupedHeader"] {
            let view = EmbeddedListView(style: style)
            for (text, secondary, symbol, state) in steps {
                view.setContent(text: text, secondaryText: secondary, symbolName: symbol, state: state)
                let fresh = EmbeddedListView(style: style)
                fresh.setContent(text: text, secondaryText: secondary, symbolName: symbol, state: state)
                #expect(view.configuration.map { "\($0.inspectableProperties)" }
                    == fresh.configuration.map { "\($0.inspectableProperties)" }, "\(style) \(String(describing: text))")
            }
        }
        let embedding = ListContentEmbedding()
        #expect(embedding.configuresAlike(style: "cell", CellConfigurationState(), highlighted))
        #expect(embedding.configuresAlike(style: "cell", nil, highlighted))
        #expect(!embedding.configuresAlike(style: "sidebarCell", highlighted, selected))
        #expect(!embedding.configuresAlike(style: "no such style", nil, nil))
    }
}
