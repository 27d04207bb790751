import CCellHostABI
import CellKit
import Synchronization
import Testing
@testable import CellPlugins

/// What crosses into a plugin on every pass arrives whole: states read in place, Swift boxes
/// compared, restyled and asked where they store their values, embedded content kept only while
/// the provider that made it is still the one set.
@Suite struct ABICrossingTests {
    func badgeType() throws -> PluginConfigurationType {
        let plugin = try BadgeSampleTests.registry.load(PluginFixtures.sample("BadgeCell"))
        return try #require(plugin.type("com.cellhost.samples.badge"))
    }

    /// Every flag, drag and drop state, trait and custom state of a cell state (and of a view
    /// state) reaches the plugin and comes back as it was.
    @Test func statesCrossWithEveryField() {
        var traits = TraitCollection.default
        traits.userInterfaceStyle = .dark
        traits.preferredContentSizeCategory = .accessibilityExtraLarge
        traits.layoutDirection = .rightToLeft
        traits.listEnvironment = .insetGrouped
        let custom: [ConfigurationStateCustomKey: CustomStateValue] = [
            "urgent": .bool(true), "level": .int(-3), "progress": .double(0.25), "label": .string("Ünïcode ✓"),
        ]
        var cells = [CellConfigurationState(), CellConfigurationState(traitCollection: traits, customStates: custom)]
        let flags: [WritableKeyPath<CellConfigurationState, Bool>] = [
            \.isHighlighted, \.isSelected, \.isDisabled, \.isFocused, \.isPinned, \.isEditing, \.isExpanded, \.isSwiped,
            \.isReordering,
        ]
        for flag in flags {
            var state = CellConfigurationState(traitCollection: traits)
            state[keyPath: flag] = true
            cells.append(state)
            state.customStates = custom
            cells.append(state)
        }
        for drag in CellDragState.allCases {
            for drop in CellDropState.allCases { cells.append(CellConfigurationState(cellDragState: drag, cellDropState: drop)) }
        }
        for state in cells {
            #expect(ABIStateRoundTrip.converted(state) as? CellConfigurationState == state, "\(state)")
        }
        let views = [
            ViewConfigurationState(), ViewConfigurationState(traitCollection: traits, isHighlighted: true, isPinned: true),
            ViewConfigurationState(isSelected: true, isDisabled: true, isFocused: true, customStates: custom),
        ]
        for state in views {
            #expect(ABIStateRoundTrip.converted(state) as? ViewConfigurationState == state, "\(state)")
        }
    }

    /// A Swift configuration equals itself (the same handle on both sides), its copies and the
    /// same restyling of itself, and no other restyling; its view supports its own layout only.
    @Test func swiftBoxesCompareRestyleAndSupportInPlace() throws {
        let type = try badgeType()
        let config = try #require(type.makeDefault()).setting("count", to: .int(4))
        #expect(type.equalFunction(config.handle, config.handle))
        let copy = try #require(type.copyFunction(config.handle))
        defer { type.destroyFunction(copy) }
        #expect(type.equalFunction(config.handle, copy))
        #expect(type.equalFunction(copy, config.handle))

        let highlighted = CellConfigurationState(isHighlighted: true)
        let once = config.updated(for: highlighted), again = config.updated(for: highlighted)
        #expect(type.equalFunction(once.handle, again.handle))
        #expect(!type.equalFunction(once.handle, config.handle))
        let selected = config.updated(for: CellConfigurationState(isSelected: true))
        withExtendedLifetime(selected) { #expect(!type.equalFunction(selected.handle, once.handle)) }
        #expect(try once.value(of: "count") == .int(4), "restyling keeps the value it started from")

        let view = once.makeContentView()
        #expect(view.supports(config))
        #expect(view.supports(again))
        #expect(!view.supports(try config.setting("layout", to: .int(1))))
    }

    /// Content set again alike is kept only while the provider that made it is still the one
    /// set: after a new provider is set, the same content and state are made by the new one.
    @Test func contentSetAgainAfterTheProviderChangesIsMadeAnew() {
        let probe = "provider probe \(UInt64.random(in: 0...UInt64.max))"
        var highlighted = CellConfigurationState()
        highlighted.isHighlighted = true
        let view = EmbeddedListView(style: "cell")
        let counting = CountingProvider(probe: probe)
        setFromC(view, probe, highlighted)
        setFromC(view, probe, highlighted)
        // Delegates to the default provider, so views elsewhere show what they showed.
        PluginHostEnvironment.setListContentProvider(counting)
        defer { PluginHostEnvironment.setListContentProvider(ListContentEmbedding()) }
        #expect(PluginHostEnvironment.listContentProviderGeneration
            == PluginHostEnvironment.listContentProviderAndGeneration.generation)
        setFromC(view, probe, highlighted)
        #expect(counting.probeCalls == 1, "made by the provider set now")
        setFromC(view, probe, highlighted)
        #expect(counting.probeCalls == 1, "kept: the same provider, content and state")
        #expect(view.configuration.map { "\($0.inspectableProperties)" }
            == ListContentEmbedding().configuration(style: "cell", text: probe, secondaryText: nil, symbolName: nil,
                                                    state: ABIStateRoundTrip.converted(highlighted))
                .map { "\($0.inspectableProperties)" })
    }

    private func setFromC(_ view: EmbeddedListView, _ text: String, _ state: any ConfigurationState) {
        text.withCString { t in
            let content = cellhost_list_content(header: .host(for: cellhost_list_content.self), text: t,
                                                secondary_text: nil, symbol_name: nil)
            withABIState(state) { view.setContent(content, state: $0) }
        }
    }
}

/// The default provider, counting the configurations it makes for one text.
private final class CountingProvider: EmbeddedListContentProvider {
    let probe: String
    private let calls = Atomic<Int>(0)
    init(probe: String) { self.probe = probe }

    var probeCalls: Int { calls.load(ordering: .relaxed) }

    func configuration(style: String, text: String?, secondaryText: String?, symbolName: String?,
                       state: (any ConfigurationState)?) -> (any ContentConfiguration)? {
        if text == probe { calls.add(1, ordering: .relaxed) }
        return ListContentEmbedding().configuration(style: style, text: text, secondaryText: secondaryText,
                                                    symbolName: symbolName, state: state)
    }

    func configuresAlike(style: String, _ a: (any ConfigurationState)?, _ b: (any ConfigurationState)?) -> Bool {
        ListContentEmbedding().configuresAlike(style: style, a, b)
    }
}
