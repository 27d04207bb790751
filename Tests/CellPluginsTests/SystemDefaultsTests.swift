import CCellHostABI
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

    @Test func defaultFontsAreHeavierWithBoldText() {
        #expect(SystemDefaults.font(for: .body, traits: TraitCollection(legibilityWeight: .bold)).weight == .semibold)
        #expect(SystemDefaults.font(for: .body, traits: .default).weight == .regular)
    }

    @Test func pluginsGetTheWiderMarginsOfARegularWidth() {
        let regular = TraitCollection(horizontalSizeClass: .regular)
        let abi = cellhost_traits(regular)
        let answer = withUnsafePointer(to: abi) { TraitKeyedAnswers.shared.layoutMargins(traits: $0) }
        #expect(answer.leading == 20 && answer.trailing == 20 && answer.top == 11)
        #expect(SystemDefaults.layoutMargins(for: .default).leading == 16)
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

    /// Content set from C (`list_view_set_content`) shows what the same content set from Swift
    /// shows on a fresh view: states kept as configuring alike never hide a change of text or
    /// of a state that restyles.
    @Test func contentSetFromCEqualsContentSetAnew() {
        let normal = CellConfigurationState()
        var highlighted = CellConfigurationState()
        highlighted.isHighlighted = true
        var selected = CellConfigurationState()
        selected.isSelected = true
        var large = highlighted
        large.traitCollection.preferredContentSizeCategory = .accessibilityLarge
        var dark = highlighted
        dark.traitCollection.userInterfaceStyle = .dark
        var custom = highlighted
        custom.customStates = ["urgent": .bool(true)]
        let steps: [(String?, String?, String?, (any ConfigurationState)?)] = [
            ("Inbox", nil, nil, normal), ("Inbox", nil, nil, highlighted), ("Inbox", nil, nil, normal),
            ("Inbox", nil, nil, highlighted), ("Drafts", nil, nil, highlighted), ("Drafts", nil, nil, normal),
            ("Drafts", nil, nil, selected), ("Drafts", nil, nil, highlighted), ("Drafts", nil, nil, nil),
            ("Drafts", "3", nil, nil), ("Drafts", "3", "tray", nil), ("Drafts", "3", "tray", highlighted),
            ("Drafts", "3", "tray", large), ("Drafts", "3", "tray", highlighted), ("Drafts", "3", "tray", dark),
            ("Drafts", "3", "tray", custom), ("Drafts", "3", "tray", highlighted), ("Drafts", "", "tray", highlighted),
            ("Drafts", nil, "tray", highlighted), (nil, nil, "tray", highlighted), ("Ünïcode ✓", nil, nil, highlighted),
            ("Ünïcode ✓", nil, nil, ViewConfigurationState()), ("Ünïcode ✓", nil, nil, highlighted),
        ]
        for style in ["cell", "subtitleCell", "sidebarCell", "valueCell"] {
            let view = EmbeddedListView(style: style)
            for _ in 0..<2 {
                for (text, secondary, symbol, state) in steps {
                    setFromC(view, text, secondary, symbol, state)
                    let fresh = EmbeddedListView(style: style)
                    fresh.setContent(text: text, secondaryText: secondary, symbolName: symbol,
                                     state: state.map { ABIStateRoundTrip.converted($0) })
                    #expect(view.configuration.map { "\($0.inspectableProperties)" }
                        == fresh.configuration.map { "\($0.inspectableProperties)" },
                        "\(style) \(String(describing: text)) \(String(describing: state))")
                }
            }
        }
    }

    func setFromC(_ view: EmbeddedListView, _ text: String?, _ secondary: String?, _ symbol: String?,
                  _ state: (any ConfigurationState)?) {
        withOptionalCString(text) { t in
            withOptionalCString(secondary) { s in
                withOptionalCString(symbol) { i in
                    let content = cellhost_list_content(header: .host(for: cellhost_list_content.self),
                                                        text: t, secondary_text: s, symbol_name: i)
                    if let state { withABIState(state) { view.setContent(content, state: $0) } } else {
                        view.setContent(content, state: nil)
                    }
                }
            }
        }
    }

    func withOptionalCString<R>(_ s: String?, _ body: (UnsafePointer<CChar>?) -> R) -> R {
        guard let s else { return body(nil) }
        return s.withCString { body($0) }
    }

    @Test func stringBytesMatchCStringsExactly() {
        func check(_ s: String?, _ c: String?) -> Bool {
            guard let c else { return s.hasBytes(of: nil) }
            return c.withCString { s.hasBytes(of: $0) }
        }
        #expect(check(nil, nil))
        #expect(check("", ""))
        #expect(check("Inbox", "Inbox"))
        #expect(check("Ünïcode ✓", "Ünïcode ✓"))
        #expect(!check(nil, ""))
        #expect(!check("", nil))
        #expect(!check("Inbox", "Inbo"))
        #expect(!check("Inbo", "Inbox"))
        #expect(!check("Inbox", "inbox"))
        // Canonically equivalent but different bytes: not the same bytes (the caller then
        // compares strings, which finds them equal).
        #expect(!check("\u{E9}", "e\u{301}"))
    }
}

/// What a plugin's C state becomes on the host side: the state the Swift path is given.
enum ABIStateRoundTrip {
    static func converted(_ state: any ConfigurationState) -> any ConfigurationState {
        withABIState(state) { ABIState.configurationState(from: $0) }
    }
}
