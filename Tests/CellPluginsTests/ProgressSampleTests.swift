import CCellHostABI
import CellIO
import CellRuntime
import CellKit
import CellPlugins
import CellTestSupport
import Testing

/// The C sample (Plugins/ProgressMeter) through the whole bridge: metadata, every property type
/// through libffi, actions with arguments, state updates, value semantics, views and drawing.
@Suite struct ProgressSampleTests {
    static let registry = PluginRegistry()

    func progressType() throws -> PluginConfigurationType {
        let plugin = try Self.registry.load(BuiltProducts.samplePlugin("ProgressMeter"))
        return try #require(plugin.type("com.cellhost.samples.progress"))
    }

    func fresh() throws -> PluginConfiguration { try #require(try progressType().makeDefault()) }

    let context = LayoutContext(traits: .default, textMeasurer: FixedAdvanceTextMeasurer())

    @Test func metadataAndDeclarations() throws {
        let plugin = try Self.registry.load(BuiltProducts.samplePlugin("ProgressMeter"))
        #expect(plugin.pluginID == "com.cellhost.samples.meters")
        #expect(plugin.name == "Progress meters")
        #expect(plugin.version == "1.0.0")
        #expect(plugin.vendor == "cellhost samples")
        #expect(plugin.abiVersion == "\(CELLHOST_ABI_MAJOR).\(CELLHOST_ABI_MINOR)", "built with the SDK's header")
        let type = try progressType()
        #expect(type.properties.map(\.name) == ["progress", "tint", "title", "style", "showsPercentage",
                                                "minimumSize", "contentInsets", "tintTransformer"])
        #expect(type.properties.map(\.encoding) == [.double, .color, .string, .int64, .bool, .size, .insets, .transformer])
        #expect(type.actions.map(\.signature) == ["advance(by: double, animated: bool)", "reset()"])
    }

    @Test func everyPropertyTypeRoundTripsThroughLibffi() throws {
        var config = try fresh()
        let values: [(String, PropertyValue)] = [
            ("progress", .double(0.25)),
            ("tint", .color(Color(red: 0.5, green: 0.25, blue: 1, alpha: 0.75))),
            ("title", .string("Uploading — ünïcödé")),
            ("style", .int(1)),
            ("showsPercentage", .bool(false)),
            ("minimumSize", .size(Size(width: 120, height: 60))),
            ("contentInsets", .insets(DirectionalEdgeInsets(top: 1, leading: 2, bottom: 3, trailing: 4))),
            ("tintTransformer", .transformer(.grayscale)),
        ]
        for (name, value) in values {
            try config.set(name, to: value)
            #expect(try config.value(of: name) == value, "\(name)")
        }
        let inspected = config.inspectableProperties
        #expect(inspected.map(\.value) == values.map(\.1))
        #expect(inspected.allSatisfy { $0.isCustomized })
        #expect(try fresh().inspectableProperties.allSatisfy { !$0.isCustomized })

        // A composed transformer crosses as one closure and comes back as itself.
        let composed = ColorTransformer.grayscale.then(.preferredTint)
        try config.set("tintTransformer", to: .transformer(composed))
        #expect(try config.value(of: "tintTransformer") == .transformer(composed))
        try config.set("tintTransformer", to: .none)
        #expect(try config.value(of: "tintTransformer") == .none)
        // Friendly forms from event streams: names and ints where doubles go.
        // A system colour by name crosses as its light appearance and keeps its name.
        try config.set("tint", to: .string("systemRed"))
        #expect(try config.value(of: "tint") == .color(Color.systemRed.resolved(with: .default)))
        try config.set("progress", to: .int(1))
        #expect(try config.value(of: "progress") == .double(1))
    }

    @Test func badValuesAreRefusedWithTheirNames() throws {
        let config = try fresh()
        #expect(throws: ConfigurationPropertyError.typeMismatch(property: "style", expected: "int", got: "string")) {
            try config.setting("style", to: .string("ring"))
        }
        #expect(throws: ConfigurationPropertyError.unknownProperty("colour", typeIdentifier: "com.cellhost.samples.progress")) {
            try config.setting("colour", to: .int(1))
        }
        #expect(throws: ConfigurationPropertyError.self) { try config.setting("tintTransformer", to: .string("sepia")) }
    }

    @Test func actionsTakeArgumentsThroughLibffi() throws {
        let config = try fresh()
        let advanced = try config.performing("advance", arguments: [.double(0.3), .bool(true)])
            .performing("advance", arguments: [.double(0.2), .bool(false)])
        #expect(try advanced.value(of: "progress") == .double(0.5))
        #expect(try config.value(of: "progress") == .double(0), "the original is untouched")
        let reset = try advanced.performing("reset", arguments: [])
        #expect(try reset.value(of: "progress") == .double(0))

        #expect(throws: ConfigurationPropertyError.actionFailed(
            action: "advance", reason: "takes 2 argument(s) (advance(by: double, animated: bool)), got 1")) {
            try config.performing("advance", arguments: [.double(1)])
        }
        #expect(throws: ConfigurationPropertyError.actionFailed(
            action: "advance", reason: "the plugin refused the arguments (see its log)")) {
            try config.performing("advance", arguments: [.double(.nan), .bool(false)])
        }
        #expect(throws: ConfigurationPropertyError.unknownAction("explode", typeIdentifier: "com.cellhost.samples.progress")) {
            try config.performing("explode", arguments: [])
        }
    }

    @Test func copiesAreIndependentValues() throws {
        let original = try fresh().setting("title", to: .string("A"))
        var copy = original
        #expect(copy == original)
        try copy.set("title", to: .string("B"))
        #expect(try original.value(of: "title") == .string("A"))
        #expect(try copy.value(of: "title") == .string("B"))
        #expect(copy != original)
        #expect(!copy.isEqual(to: original))
        #expect(try copy.setting("title", to: .string("A")).isEqual(to: original),
                "separate handles with equal contents are equal through the plugin's equal")
    }

    @Test func updatedForStateRestylesUnlockedPropertiesOnly() throws {
        let base = try fresh()
        let tint = { (c: PluginConfiguration) throws -> PropertyValue in try c.value(of: "tint") }
        let highlighted = base.updated(for: CellConfigurationState(isHighlighted: true))
        guard case .color(let h) = try tint(highlighted) else { Issue.record("tint is not a colour"); return }
        #expect(h.alpha == 0.6)
        let selected = base.updated(for: CellConfigurationState(isSelected: true))
        #expect(try tint(selected) == .color(Color.systemGreen.resolved(with: .default).withoutName))
        let paused = base.updated(for: CellConfigurationState(customStates: ["paused": .bool(true)]))
        #expect(try tint(paused) == .color(Color.systemOrange.resolved(with: .default).withoutName))
        let dark = base.updated(for: CellConfigurationState(traitCollection: TraitCollection(userInterfaceStyle: .dark)))
        #expect(try tint(dark) == .color(Color.systemBlue.resolved(with: TraitCollection(userInterfaceStyle: .dark)).withoutName))
        let disabled = base.updated(for: CellConfigurationState(isDisabled: true))
        #expect(try disabled.value(of: "tintTransformer") == .transformer(.grayscale))
        #expect(try tint(base) == .color(Color.systemBlue.resolved(with: .default).withoutName), "original untouched")

        // A customised tint is locked: state changes leave it alone.
        let red = Color(red: 1, green: 0, blue: 0)
        let locked = try base.setting("tint", to: .color(red)).updated(for: CellConfigurationState(isSelected: true))
        #expect(try tint(locked) == .color(red))
        #expect(locked.inspectableProperties.first { $0.name == "tint" }?.isCustomized == true)
    }

    @Test func cellLevelHookRunsOnlyWhenThePluginWantsAChange() throws {
        let base = try fresh()
        #expect(try progressType().hasUpdateConfigurationHook)
        #expect(base.cellUpdateHookResult(for: CellConfigurationState()) == nil, "NULL from the hook: keep the configuration")
        let editing = try #require(base.cellUpdateHookResult(for: CellConfigurationState(isEditing: true)))
        #expect(try editing.value(of: "showsPercentage") == .bool(false))
        #expect(try base.value(of: "showsPercentage") == .bool(true), "the hook never changes its input")
        let locked = try base.setting("showsPercentage", to: .bool(true))
        #expect(locked.cellUpdateHookResult(for: CellConfigurationState(isEditing: true)) == nil)
    }

    @Test func contentViewDrawsReusesAndFollowsItsSupportsRule() throws {
        let config = try fresh().setting("title", to: .string("Upload")).setting("progress", to: .double(0.5))
        let view = config.makeContentView()
        let size = view.sizeThatFits(Size(width: 300, height: 0), context: context)
        // 11 + text line (17pt × 1.2 → 21) + 6 + 6 bar + 11 = 55
        #expect(size == Size(width: 300, height: 55))

        var list = DisplayList()
        view.draw(in: Rect(x: 0, y: 0, width: 300, height: 55), context: context, into: &list)
        let texts = list.commands.compactMap { if case .text(let run) = $0 { run.text } else { nil } }
        #expect(texts == ["Upload", "50%"])
        let bars = list.commands.compactMap { if case .roundedRect(let r, _, let c) = $0 { (r, c) } else { nil } }
        #expect(bars.count == 2)
        #expect(bars.last?.0 == Rect(x: 16, y: 38, width: 134, height: 6), "half of the 268 pt track")

        // Same style: the view is reused and draws the new value at once.
        let more = try config.setting("progress", to: .double(1))
        #expect(view.supports(more))
        view.configuration = more
        var list2 = DisplayList()
        view.draw(in: Rect(x: 0, y: 0, width: 300, height: 55), context: context, into: &list2)
        #expect(list2.commands.contains { if case .text(let run) = $0 { run.text == "100%" } else { false } })
        // Another style needs another view.
        #expect(!view.supports(try config.setting("style", to: .int(1))))
        #expect(!view.supports(try fresh().updated(for: CellConfigurationState()).setting("style", to: .int(1))))
    }

    @Test func disabledStateDrawsThroughTheHostTransformerClosure() throws {
        let config = try fresh().updated(for: CellConfigurationState(isDisabled: true)).setting("progress", to: .double(1))
        let view = config.makeContentView()
        var list = DisplayList()
        view.draw(in: Rect(x: 0, y: 0, width: 200, height: 44), context: context, into: &list)
        let fills = list.commands.compactMap { if case .roundedRect(_, _, let c) = $0 { c } else { nil } }
        #expect(fills.count == 2)
        // The plugin called the grayscale closure: every drawn tint is grey.
        for c in fills { #expect(abs(c.red - c.green) < 1e-9 && abs(c.green - c.blue) < 1e-9) }
        #expect(fills.last.map { $0.red > 0 && $0.red < 1 } == true)
    }

    @Test func pluginBuiltWithPlainCCLoadsAndRuns() throws {
        let source = try #require(readTextFile("\(BuiltProducts.packageRoot)/Plugins/ProgressMeter/progress_meter.c"))
        let path = try PluginCompiler.compile(source: source, name: "progress")
        let plugin = try PluginRegistry().load(path)
        let type = try #require(plugin.types.first)
        let config = try #require(type.makeDefault()).performing("advance", arguments: [.double(0.75), .bool(false)])
        #expect(try config.value(of: "progress") == .double(0.75))
        var list = DisplayList()
        config.makeContentView().draw(in: Rect(x: 0, y: 0, width: 100, height: 28), context: context, into: &list)
        #expect(!list.isEmpty)
    }
}
