import CCellHostABI
import CellIO
import CellKit
import CellPlugins
import CellTestSupport
import Glibc
import Testing

/// ABI 1.2 appends `extra_traits` (level, legibility weight, idiom) to `cellhost_state` and
/// `cellhost_context`: a plugin built against the 1.1 layout loads and reads every 1.1 field where
/// it was (custom states after the embedded traits included), and a 1.2 plugin reads the new
/// traits of the cell it restyles and lays out.
@Suite struct ExtraTraitsABITests {
    /// The traits every new field differs in from the defaults.
    static let everyExtraTrait = TraitCollection(userInterfaceLevel: .elevated, legibilityWeight: .bold,
                                                 userInterfaceIdiom: .pad)

    /// plugin.h as ABI 1.1 declared it: the current header without the appended fields and with
    /// minor version 1, written to a fresh folder as `abi-1.1/plugin.h`; returns the -I flag.
    func abi1_1Header() throws -> String {
        let current = try #require(readTextFile("\(BuiltProducts.packageRoot)/SDK/include/cellhost/plugin.h"))
        var lines = current.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let before = lines.count
        lines.removeAll { $0.contains("cellhost_extra_traits extra_traits;") }
        #expect(before - lines.count == 2, "the state's and the context's extra_traits are the only 1.2 fields")
        let minorLine = try #require(lines.firstIndex(of: "#define CELLHOST_ABI_MINOR 2"))
        lines[minorLine] = "#define CELLHOST_ABI_MINOR 1"
        let directory = BuiltProducts.temporaryDirectory(prefix: "abi-1.1-")
        mkdir("\(directory)/abi-1.1", 0o755)
        let file = try #require(fopen("\(directory)/abi-1.1/plugin.h", "w"))
        fputs(lines.joined(separator: "\n"), file)
        fclose(file)
        return "-I '\(directory)'"
    }

    func load(_ source: TestPluginSource, _ name: String, extraFlags: String = "") throws -> PluginConfigurationType {
        let path = try PluginCompiler.compile(source: source.text, name: name, extraFlags: extraFlags)
        return try #require(try PluginRegistry().load(path).types.first)
    }

    /// A cell showing `type`'s default configuration, with `traits`, selected, and the custom
    /// state "step" = 3; returns the restyled value and the content's height.
    func show(_ type: PluginConfigurationType, traits: TraitCollection) throws -> (value: PropertyValue?, height: Double) {
        let cell = Cell(appearance: .plain)
        cell.traitCollection = traits
        cell.isSelected = true
        cell[customState: ConfigurationStateCustomKey("step")] = .int(3)
        let configuration: PluginConfiguration = try #require(type.makeDefault())
        cell.contentConfiguration = configuration
        cell.updateConfigurationIfNeeded()
        let value = try (cell.contentConfiguration as? PluginConfiguration)?.value(of: "value")
        return (value, cell.preferredHeight(forWidth: 320, measurer: FixedAdvanceTextMeasurer()))
    }

    @Test func aPluginBuiltAgainstABI1_1LoadsAndReadsEveryFieldItKnows() throws {
        var old = TestPluginSource(typeID: "com.test.minimal.abi11")
        old.header = "abi-1.1/plugin.h"
        old.prelude = """
            _Static_assert(CELLHOST_ABI_MINOR == 1 && sizeof(cellhost_state) == 88 && sizeof(cellhost_context) == 64,
                           "built against the 1.1 layout");
            """
        // selected 1, dark 2, four times the custom state "step": read past the embedded traits.
        old.restyledValue = """
            ((s->flags & CELLHOST_STATE_SELECTED) ? 1 : 0) + (s->traits.user_interface_style == CELLHOST_STYLE_DARK ? 2 : 0) \
            + ((s->custom_state_count == 1 && s->custom_states[0].kind == CELLHOST_VALUE_INT) ? 4 * s->custom_states[0].value.i : 0)
            """
        old.fittingHeight = "10.0 + (double)v->shown + (x->traits.user_interface_style == CELLHOST_STYLE_DARK ? 100.0 : 0.0)"
        let type = try load(old, "abi11", extraFlags: try abi1_1Header())
        var traits = Self.everyExtraTrait
        traits.userInterfaceStyle = .dark
        let shown = try show(type, traits: traits)
        #expect(shown.value == .int(15), "selected, dark and step 3 all read where 1.1 put them")
        #expect(shown.height == 125)
    }

    /// A 1.2 plugin whose restyle and layout encode the extra traits they were handed:
    /// 8 + level + 2 × weight + 4 × idiom when present, 0 when the struct ends before them.
    static var readsExtraTraits: TestPluginSource {
        var source = TestPluginSource(typeID: "com.test.minimal.abi12")
        source.restyledValue = """
            CELLHOST_HAS_FIELD(s, cellhost_state, extra_traits) ? 8 + s->extra_traits.user_interface_level \
            + 2 * s->extra_traits.legibility_weight + 4 * s->extra_traits.user_interface_idiom : 0
            """
        source.fittingHeight = """
            10.0 + (double)v->shown + (CELLHOST_HAS_FIELD(x, cellhost_context, extra_traits) ? 100.0 * (1 + \
            x->extra_traits.user_interface_level + 2 * x->extra_traits.legibility_weight \
            + 4 * x->extra_traits.user_interface_idiom) : 0.0)
            """
        return source
    }

    @Test func aPluginBuiltAgainstABI1_2ReadsTheLevelBoldTextAndIdiom() throws {
        let type = try load(Self.readsExtraTraits, "abi12")
        let plain = try show(type, traits: .default)
        #expect(plain.value == .int(8), "present, base level, regular weight, phone")
        #expect(plain.height == 10 + 8 + 100)
        let every = try show(type, traits: Self.everyExtraTrait)
        #expect(every.value == .int(15), "elevated 1, bold 2, pad 4")
        #expect(every.height == 10 + 15 + 800)
        for (traits, expected) in [(TraitCollection(userInterfaceLevel: .elevated), 9),
                                   (TraitCollection(legibilityWeight: .bold), 10),
                                   (TraitCollection(userInterfaceIdiom: .pad), 12)] {
            #expect(try show(type, traits: traits).value == .int(Int64(expected)), "each trait in its own field")
        }
    }
}
