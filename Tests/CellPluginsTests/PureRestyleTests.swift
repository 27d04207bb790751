import CCellHostABI
import CellKit
import CellPlugins
import Glibc
import CellTestSupport
import Testing

/// `CELLHOST_CONFIG_PURE_RESTYLE` (ABI 1.1): a cell calls a pure plugin's `updated_for_state`
/// once per state it meets, a plugin without the promise on every pass, and a plugin built for
/// ABI 1.0, whose configuration type ends before the flags, loads as making no promise.
@Suite struct PureRestyleTests {
    /// The test plugin built with `flags`, loaded, with its counter of `updated_for_state` calls.
    func load(_ source: TestPluginSource, _ name: String) throws -> (PluginConfigurationType, UnsafeMutablePointer<Int64>) {
        let path = try PluginCompiler.compile(source: source.text, name: name)
        let plugin = try PluginRegistry().load(path)
        let image = try #require(dlopen(path, RTLD_NOW | RTLD_NOLOAD))
        let counter = try #require(dlsym(image, "minimal_updated_calls"))
        return (try #require(plugin.types.first), counter.assumingMemoryBound(to: Int64.self))
    }

    /// Sets the plugin's default configuration on a cell, then toggles selection `toggles` times
    /// with a pass after each; returns the `updated_for_state` calls and the content view's heights
    /// (10 + the value the restyle set: 1 selected, 0 not).
    func toggleSelection(_ type: PluginConfigurationType, counter: UnsafeMutablePointer<Int64>,
                         toggles: Int) throws -> (calls: Int64, heights: [Double]) {
        let cell = Cell(appearance: .plain)
        counter.pointee = 0
        let configuration: PluginConfiguration = try #require(type.makeDefault())
        cell.contentConfiguration = configuration
        var heights: [Double] = []
        for _ in 0...toggles {
            cell.updateConfigurationIfNeeded()
            heights.append(cell.preferredHeight(forWidth: 320, measurer: FixedAdvanceTextMeasurer()))
            cell.isSelected.toggle()
        }
        return (counter.pointee, heights)
    }

    @Test func aPureRestyleIsCalledOncePerStateAndShowsTheSame() throws {
        var pure = TestPluginSource()
        pure.configFlags = "CELLHOST_CONFIG_PURE_RESTYLE"
        let (pureType, pureCalls) = try load(pure, "pure")
        #expect(pureType.restyleIsPure)
        let (plainType, plainCalls) = try load(TestPluginSource(typeID: "com.test.minimal.plain"), "impure")
        #expect(!plainType.restyleIsPure)

        let kept = try toggleSelection(pureType, counter: pureCalls, toggles: 10)
        let every = try toggleSelection(plainType, counter: plainCalls, toggles: 10)
        #expect(kept.calls == 2, "one restyle when set (not selected), one for the first selection; the rest taken back")
        #expect(every.calls == 12, "without the promise: when set, then every one of the 11 passes")
        #expect(kept.heights == every.heights)
        #expect(kept.heights == (0...10).map { $0 % 2 == 0 ? 10 : 11 }, "each pass shows its own state's restyle")
    }

    @Test func aNewValueIsRestyledAfresh() throws {
        var pure = TestPluginSource()
        pure.configFlags = "CELLHOST_CONFIG_PURE_RESTYLE"
        let (type, calls) = try load(pure, "pure-set")
        let cell = Cell(appearance: .plain)
        let configuration: PluginConfiguration = try #require(type.makeDefault())
        cell.contentConfiguration = configuration
        cell.isSelected = true
        cell.updateConfigurationIfNeeded()
        cell.isSelected = false
        cell.updateConfigurationIfNeeded()
        calls.pointee = 0
        // A customised value: restyles keep it, and none of the old value's restyles come back.
        cell.contentConfiguration = try cell.contentConfiguration!.setting("value", to: .int(5))
        for selected in [true, false, true] {
            cell.isSelected = selected
            cell.updateConfigurationIfNeeded()
            #expect(try (cell.contentConfiguration as? PluginConfiguration)?.value(of: "value") == .int(5))
            #expect(cell.preferredHeight(forWidth: 320, measurer: FixedAdvanceTextMeasurer()) == 15)
        }
        #expect(calls.pointee == 2, "the set value restyled when set and for the first selection, then taken back")
    }

    @Test func aPluginBuiltForABI1_0LoadsAsMakingNoPromise() throws {
        var old = TestPluginSource(typeID: "com.test.minimal.old")
        old.minor = "0"
        old.configHeader = "{ (uint32_t)offsetof(cellhost_config_type, flags), CELLHOST_ABI_MAJOR, 0 }"
        // Bytes past a 1.0 struct_size are not the plugin's flags, whatever they hold.
        old.configFlags = "CELLHOST_CONFIG_PURE_RESTYLE"
        let (type, calls) = try load(old, "abi10")
        #expect(!type.restyleIsPure)
        #expect(try toggleSelection(type, counter: calls, toggles: 4).calls == 6)
    }

    @Test func aShortTypeOrAnUnknownFlagIsRefused() throws {
        var short = TestPluginSource(typeID: "com.test.minimal.short")
        short.configHeader = "{ (uint32_t)offsetof(cellhost_config_type, flags), CELLHOST_ABI_MAJOR, CELLHOST_ABI_MINOR }"
        let shortPath = try PluginCompiler.compile(source: short.text, name: "short11")
        let size = MemoryLayout<cellhost_config_type>.size, oldSize = MemoryLayout<cellhost_config_type>.offset(of: \.flags)!
        #expect(PluginFixtures.refusal(shortPath) == "\(shortPath): has an invalid descriptor: types[0] has struct_size \(oldSize); ABI \(CELLHOST_ABI_MAJOR).\(CELLHOST_ABI_MINOR) needs \(size)")

        var unknown = TestPluginSource(typeID: "com.test.minimal.unknown")
        unknown.configFlags = "0x6u"
        let unknownPath = try PluginCompiler.compile(source: unknown.text, name: "unknownflags")
        #expect(PluginFixtures.refusal(unknownPath) == "\(unknownPath): has an invalid descriptor: type com.test.minimal.unknown's flags 0x6 set bits ABI \(CELLHOST_ABI_MAJOR).\(CELLHOST_ABI_MINOR) does not define (0x6)")
    }
}
