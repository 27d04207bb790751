import CCellHostABI
import CellKit
import Synchronization
import CellTestSupport
import Testing
@testable import CellPlugins

/// What crosses into a plugin on every pass arrives whole: states read in place, Swift boxes
/// compared, restyled and asked where they store their values, embedded content kept only while
/// the provider that made it is still the one set, embedded sizes and drawings kept only for the
/// same inputs.
@Suite struct ABICrossingTests {
    func badgeType() throws -> PluginConfigurationType {
        let plugin = try BadgeSampleTests.registry.load(BuiltProducts.samplePlugin("BadgeCell"))
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

    /// What an embedded view answers from C for a size and layout context equals what a fresh
    /// view given only the last content answers, whether the size and drawing were kept from the
    /// call before or asked anew: through changes of text, state, size, traits, margins and tint
    /// (an equal tint made anew, with other bytes, included).
    @Test func sizesAndDrawingsFromCEqualAFreshViews() {
        let measurer = FixedAdvanceTextMeasurer()
        var dark = TraitCollection.default
        dark.userInterfaceStyle = .dark
        let tint = Color.tintColor
        let equalTint = Color(name: tint.name, light: tint.light, dark: tint.dark!, lightHighContrast: tint.lightHighContrast,
                              darkHighContrast: tint.darkHighContrast)
        let contexts = [
            LayoutContext(traits: .default, textMeasurer: measurer),
            LayoutContext(traits: dark, textMeasurer: measurer),
            LayoutContext(traits: .default, textMeasurer: measurer, tintColor: .systemRed),
            LayoutContext(traits: .default, textMeasurer: measurer, tintColor: equalTint),
            LayoutContext(traits: .default, textMeasurer: measurer,
                          superviewLayoutMargins: DirectionalEdgeInsets(top: 4, leading: 24, bottom: 4, trailing: 24)),
        ]
        let sizes = [Size(width: 300, height: 44), Size(width: 180, height: 44), Size(width: 300, height: 64)]
        var highlighted = CellConfigurationState()
        highlighted.isHighlighted = true
        var selected = CellConfigurationState()
        selected.isSelected = true
        let contents: [(String, String?, CellConfigurationState)] = [
            ("Inbox", "tray", CellConfigurationState()), ("Inbox", "tray", highlighted), ("Inbox", nil, highlighted),
            ("A longer title than the narrow size fits", nil, highlighted), ("Drafts", "tray", selected),
            ("Drafts", "tray", CellConfigurationState()),
        ]
        for style in ["cell", "sidebarCell"] {
            let view = EmbeddedListView(style: style)
            for size in sizes {
                for context in contexts + contexts.reversed() {
                    for (text, symbol, state) in contents + [contents[0]] {
                        setFromC(view, text, state, symbol: symbol)
                        let fresh = EmbeddedListView(style: style)
                        fresh.setContent(text: text, secondaryText: nil, symbolName: symbol, state: ABIStateRoundTrip.converted(state))
                        var layout = context
                        let (keptSize, keptDrawing) = withUnsafePointer(to: &layout) { layout in
                            (view.sizeThatFits(size, context: layout), Self.onCanvas { view.draw(size: size, context: layout, onto: $0, at: $1) })
                        }
                        let freshDrawing = Self.onCanvas { canvas, origin in
                            var recorded = DisplayList()
                            fresh.draw(in: Rect(origin: .zero, size: size), context: context, into: &recorded)
                            canvas.pointee.append(contentsOf: recorded, offsetBy: origin)
                        }
                        #expect(keptSize == fresh.sizeThatFits(size, context: context), "\(style) \(text) \(size)")
                        #expect(keptDrawing == freshDrawing, "\(style) \(text) \(size) \(context.traits) \(context.tintColor)")
                        #expect(keptDrawing.bounds == freshDrawing.bounds)
                    }
                }
            }
        }
    }

    /// A row's list with a background, `draw` on a canvas over it at a moved origin, groups closed.
    private static func onCanvas(_ draw: (UnsafeMutablePointer<HostCanvas>, Point) -> Void) -> DisplayList {
        var list = DisplayList()
        list.append(.fill(Rect(x: 0, y: 0, width: 320, height: 64), .white))
        withUnsafeMutablePointer(to: &list) { listPointer in
            var canvas = HostCanvas(list: listPointer, layoutDirection: .leftToRight)
            withUnsafeMutablePointer(to: &canvas) { draw($0, Point(x: 12, y: 5.5)) }
            canvas.closeOpenGroups()
        }
        return list
    }

    private func setFromC(_ view: EmbeddedListView, _ text: String, _ state: any ConfigurationState, symbol: String? = nil) {
        text.withCString { t in
            func set(_ symbol: UnsafePointer<CChar>?) {
                let content = cellhost_list_content(header: .host(for: cellhost_list_content.self), text: t,
                                                    secondary_text: nil, symbol_name: symbol)
                withABIState(state) { view.setContent(content, state: $0) }
            }
            if let symbol { symbol.withCString { set($0) } } else { set(nil) }
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
