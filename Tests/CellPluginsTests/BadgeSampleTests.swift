import CellIO
import CellRuntime
import CellKit
import CellPlugins
import CellTestSupport
import Testing

/// The Swift sample (Plugins/BadgeCell, written with CellHostSDK) through the same bridge as the
/// C one: it must behave as a value type, restyle per state, embed a host list view and draw.
@Suite struct BadgeSampleTests {
    static let registry = PluginRegistry()

    func badgeType() throws -> PluginConfigurationType {
        let plugin = try Self.registry.load(BuiltProducts.samplePlugin("BadgeCell"))
        return try #require(plugin.type("com.cellhost.samples.badge"))
    }

    func fresh() throws -> PluginConfiguration { try #require(try badgeType().makeDefault()) }

    let context = LayoutContext(traits: .default, textMeasurer: FixedAdvanceTextMeasurer())

    @Test func metadataAndDeclarations() throws {
        let plugin = try Self.registry.load(BuiltProducts.samplePlugin("BadgeCell"))
        #expect(plugin.pluginID == "com.cellhost.samples.badges")
        #expect(plugin.version == "1.0.0")
        #expect(plugin.summary == "A list row with a count badge, written in Swift with CellHostSDK.")
        let type = try badgeType()
        #expect(type.displayName == "Badge cell")
        #expect(type.properties.map { "\($0.name):\($0.encoding)" }
                == ["title:*", "count:q", "badgeColor:{Color=dddd}", "showsZero:B", "layout:q"])
        #expect(type.actions.map(\.signature) == ["increment(by: int)", "clear()"])
    }

    /// The pass's unboxed entry restyles exactly as `updated(for:)` does, for cell states of
    /// every kind: flags, a custom state, other traits.
    @Test func restylingForACellStateMatchesRestylingForAnyState() throws {
        let config = try fresh().setting("count", to: .int(3))
        var urgent = CellConfigurationState(isSelected: true)
        urgent[ConfigurationStateCustomKey("urgent")] = .bool(true)
        let states = [CellConfigurationState(), CellConfigurationState(isHighlighted: true), CellConfigurationState(isSelected: true),
                      CellConfigurationState(isDisabled: true), urgent,
                      CellConfigurationState(traitCollection: TraitCollection.default.with(\.userInterfaceStyle, .dark))]
        for state in states {
            let unboxed = config.updated(forCellState: state)
            #expect(unboxed == config.updated(for: state), "\(state)")
            #expect(unboxed.inspectableProperties == config.updated(for: state).inspectableProperties)
        }
        let list = ListContentConfiguration.cell()
        for state in states { #expect(list.updated(forCellState: state) == list.updated(for: state)) }
    }

    @Test func theSwiftPluginCarriesNoCopyOfCellKit() throws {
        let image = try #require(readTextFile(BuiltProducts.samplePlugin("BadgeCell")))
        #expect(!image.contains("7CellKit"), "CellKit symbols in the plugin would be a second, incompatible CellKit")
    }

    @Test func propertiesRoundTripAndLockThroughTheSDK() throws {
        var config = try fresh()
        #expect(config.inspectableProperties.allSatisfy { !$0.isCustomized })
        let values: [(String, PropertyValue)] = [
            ("title", .string("Drafts")), ("count", .int(7)),
            ("badgeColor", .color(Color(red: 0, green: 0.5, blue: 0.25, alpha: 1))),
            ("showsZero", .bool(true)), ("layout", .int(1)),
        ]
        for (name, value) in values {
            try config.set(name, to: value)
            #expect(try config.value(of: name) == value, "\(name)")
        }
        #expect(config.inspectableProperties.allSatisfy { $0.isCustomized })
    }

    @Test func actionsRunSwiftClosures() throws {
        let config = try fresh()
        let three = try config.performing("increment", arguments: [.int(2)]).performing("increment", arguments: [.int(1)])
        #expect(try three.value(of: "count") == .int(3))
        #expect(try config.value(of: "count") == .int(0))
        #expect(try three.performing("clear", arguments: []).value(of: "count") == .int(0))
        #expect(throws: ConfigurationPropertyError.actionFailed(action: "increment",
                                                                reason: "the plugin refused the arguments (see its log)")) {
            try config.performing("increment", arguments: [.int(-1)])
        }
    }

    @Test func statesRestyleTheBadgeUnlessItsColourIsLocked() throws {
        let base = try fresh()
        let selected = base.updated(for: CellConfigurationState(isSelected: true))
        #expect(try selected.value(of: "badgeColor") == .color(Color.tintColor.resolved(with: .default).withoutName))
        let urgent = base.updated(for: CellConfigurationState(customStates: ["urgent": .bool(true)]))
        #expect(try urgent.value(of: "badgeColor") == .color(Color.systemRed.resolved(with: .default).withoutName))
        #expect(try base.value(of: "badgeColor") == .color(Color.systemGray.resolved(with: .default).withoutName))
        #expect(!selected.isEqual(to: base))

        let green = Color(red: 0, green: 1, blue: 0)
        let locked = try base.setting("badgeColor", to: .color(green))
            .updated(for: CellConfigurationState(isSelected: true, customStates: ["urgent": .bool(true)]))
        #expect(try locked.value(of: "badgeColor") == .color(green))
    }

    @Test func viewEmbedsHostListContentAndDrawsTheBadge() throws {
        let config = try fresh().setting("count", to: .int(3)).setting("title", to: .string("Inbox"))
            .updated(for: CellConfigurationState(customStates: ["urgent": .bool(true)]))
        let view = config.makeContentView()
        let size = view.sizeThatFits(Size(width: 320, height: 0), context: context)
        #expect(size.width == 320)
        #expect(size.height == 44, "the host list cell's 44 pt minimum row (11 pt margins around a 21 pt body line need 43)")

        var list = DisplayList()
        view.draw(in: Rect(origin: .zero, size: size), context: context, into: &list)
        let texts = list.commands.compactMap { if case .text(let run) = $0 { run.text } else { nil } }
        #expect(texts == ["Inbox", "3!"], "title from the host's ListContentView, then the badge")
        let badge = list.commands.compactMap { if case .roundedRect(_, _, let c) = $0 { c } else { nil } }
        #expect(badge == [Color.systemRed.resolved(with: .default).withoutName])
        #expect(list.commands.first { if case .pushAlpha = $0 { true } else { false } } != nil)

        // Layout is the supports rule: same layout reused, the other replaced.
        #expect(view.supports(try config.setting("count", to: .int(4))))
        #expect(!view.supports(try config.setting("layout", to: .int(1))))
    }

    @Test func aTraitChangeAloneRestylesTheEmbeddedTitle() throws {
        let large = try fresh().updated(for: CellConfigurationState())
        let huge = try fresh().updated(for: CellConfigurationState(
            traitCollection: TraitCollection(preferredContentSizeCategory: .accessibilityExtraExtraExtraLarge)))
        #expect(large != huge, "same flags, different text size: not equal, so the cell applies it")
        let view = large.makeContentView()
        view.configuration = huge
        var list = DisplayList()
        view.draw(in: Rect(x: 0, y: 0, width: 320, height: 120), context: context, into: &list)
        let title = list.commands.compactMap { if case .text(let run) = $0 { run } else { nil } }.first
        #expect(title?.font.pointSize == Font.preferredFont(forTextStyle: .body, category: .accessibilityExtraExtraExtraLarge).pointSize)
    }

    @Test func disabledBadgeIsDrawnThroughTheHostGrayscaleClosure() throws {
        let config = try fresh().setting("count", to: .int(1)).updated(for: CellConfigurationState(isDisabled: true))
        var list = DisplayList()
        config.makeContentView().draw(in: Rect(x: 0, y: 0, width: 200, height: 44), context: context, into: &list)
        let badge = try #require(list.commands.compactMap { if case .roundedRect(_, _, let c) = $0 { c } else { nil } }.first)
        #expect(abs(badge.red - badge.green) < 1e-9 && abs(badge.green - badge.blue) < 1e-9)
    }

    /// A plugin configuration compares by identity only: stages that are one handle are read
    /// once, other stages each time, and either way a trace reports the same changes.
    @Test func stagesThatAreOneHandleAreReadOnce() throws {
        let base = try fresh().setting("count", to: .int(2))
        let restyled = base.updated(for: CellConfigurationState(isSelected: true))
        let copy = try base.setting("count", to: .int(2))
        #expect(base.isIdentical(to: base) && !base.isIdentical(to: copy) && !base.isIdentical(to: restyled))
        let lists = PropertyChange.reportableLists(before: base, afterUpdate: restyled, afterHooks: restyled)
        #expect(lists.afterUpdate.withUnsafeBufferPointer { $0.baseAddress }
            == lists.afterHooks.withUnsafeBufferPointer { $0.baseAddress })
        let separate = (base.inspectableProperties, restyled.inspectableProperties, restyled.inspectableProperties)
        for setByEvent: Set<String> in [[], ["count"]] {
            #expect(PropertyChange.changes(before: lists.before, afterUpdate: lists.afterUpdate, afterHooks: lists.afterHooks,
                                           setByEvent: setByEvent, includingUnchanged: false)
                == PropertyChange.changes(before: separate.0, afterUpdate: separate.1, afterHooks: separate.2,
                                          setByEvent: setByEvent, includingUnchanged: false))
        }
        #expect(!PropertyChange.changes(before: lists.before, afterUpdate: lists.afterUpdate, afterHooks: lists.afterHooks,
                                        includingUnchanged: false).isEmpty)
        // One handle at every stage: only what was customised is left to report.
        let same = PropertyChange.reportableLists(before: base, afterUpdate: base, afterHooks: base)
        #expect(same.before == base.customizedProperties && same.before.map(\.name) == ["count"])
    }

    @Test func copiesAreIndependent() throws {
        let a = try fresh().setting("count", to: .int(1))
        var b = a
        try b.set("count", to: .int(2))
        #expect(try a.value(of: "count") == .int(1))
        #expect(try b.value(of: "count") == .int(2))
        #expect(a != b)
        #expect(try b.setting("count", to: .int(1)) == a)
    }
}
