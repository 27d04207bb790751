import CellKit
import CellPlugins
import CellTestSupport
import Testing

/// A colour set by name on a plugin property stays dynamic although the ABI carries one RGBA:
/// the host sets it again, resolved for the traits, before the plugin restyles, and keeps it
/// locked; a colour set as an RGBA never changes with the traits.
@Suite struct DynamicColourTests {
    static let registry = PluginRegistry()

    func fresh() throws -> PluginConfiguration {
        let plugin = try Self.registry.load(BuiltProducts.samplePlugin("ProgressMeter"))
        let type = try #require(plugin.type("com.cellhost.samples.progress"))
        return try #require(type.makeDefault())
    }

    static let light = CellConfigurationState()
    static let dark = CellConfigurationState(traitCollection: TraitCollection(userInterfaceStyle: .dark))
    static let darkHighContrast = CellConfigurationState(
        traitCollection: TraitCollection(userInterfaceStyle: .dark, accessibilityContrast: .high))

    static func rgb(_ c: PropertyValue) -> String? {
        guard case .color(let colour) = c else { return nil }
        return colour.hexString
    }

    func isCustomized(_ name: String, in c: PluginConfiguration) -> Bool {
        c.inspectableProperties.first { $0.name == name }?.isCustomized ?? false
    }

    @Test func aNamedColourFollowsTheAppearanceAndStaysLocked() throws {
        let named = try fresh().setting("tint", to: .string("systemOrange"))
        #expect(try named.value(of: "tint") == .color(Color.systemOrange.resolved(with: .default)), "light, named")

        let dark = named.updated(for: Self.dark)
        #expect(try Self.rgb(dark.value(of: "tint")) == "#FF9F0A")
        #expect(try dark.value(of: "tint") == .color(Color.systemOrange.resolved(with: TraitCollection(userInterfaceStyle: .dark))))
        #expect(isCustomized("tint", in: dark), "still locked: the state restyles no locked tint")
        // The cell pass's unboxed entry does the same.
        #expect(try Self.rgb(named.updated(forCellState: Self.dark).value(of: "tint")) == "#FF9F0A")
        // Selection restyles an unlocked tint; the locked one keeps the dark orange.
        let darkSelected = dark.updated(for: CellConfigurationState(traitCollection: Self.dark.traitCollection, isSelected: true))
        #expect(try Self.rgb(darkSelected.value(of: "tint")) == "#FF9F0A")
        #expect(try Self.rgb(dark.updated(for: Self.darkHighContrast).value(of: "tint")) == "#FFB340")
        // And back.
        #expect(try Self.rgb(dark.updated(for: Self.light).value(of: "tint")) == "#FF9500")
        #expect(try Self.rgb(named.value(of: "tint")) == "#FF9500", "the value it was restyled from is untouched")
    }

    @Test func aColourSetAsRGBANeverChangesWithTheTraits() throws {
        let orange = Color(hex: "#FF9500")!
        for value in [PropertyValue.color(orange), .string("#FF9500")] {
            let fixed = try fresh().setting("tint", to: value)
            let dark = fixed.updated(for: Self.dark)
            #expect(try dark.value(of: "tint") == .color(orange), "\(value)")
            #expect(isCustomized("tint", in: dark))
        }
        // An RGBA set over a name ends the name's re-resolution.
        let replaced = try fresh().setting("tint", to: .string("systemOrange")).setting("tint", to: .color(orange))
        #expect(try replaced.updated(for: Self.dark).value(of: "tint") == .color(orange))
    }

    /// A name set on a value already resolved for dark crosses as the dark colour at once: every
    /// named colour of one value shows one appearance.
    @Test func aNameSetInDarkModeCrossesDark() throws {
        let dark = try fresh().setting("tint", to: .string("systemOrange")).updated(for: Self.dark)
        let renamed = try dark.setting("tint", to: .string("systemRed"))
        #expect(try Self.rgb(renamed.value(of: "tint")) == Color.systemRed.dark.map { Color(red: $0.red, green: $0.green, blue: $0.blue).hexString })
        #expect(try Self.rgb(renamed.updated(for: Self.dark).value(of: "tint")) == "#FF453A")
        #expect(try Self.rgb(renamed.updated(for: Self.light).value(of: "tint")) == "#FF3B30")
    }

    /// A value the plugin changed itself (in an action, say) is the plugin's: the host does not set
    /// the name's colour back over it.
    @Test func aColourThePluginChangedIsLeftToThePlugin() throws {
        let named = try fresh().setting("tint", to: .string("systemOrange"))
        let plain = Color(red: 0.25, green: 0.5, blue: 0.75)
        // A unique copy (as an action makes), whose tint the plugin side then changes.
        let changedByPlugin = try named.performing("reset", arguments: [])
        let property = try #require(changedByPlugin.type.property(named: "tint"))
        try property.set(color: plain, on: changedByPlugin.handle)
        #expect(try changedByPlugin.value(of: "tint") == .color(plain), "no longer named")
        #expect(try changedByPlugin.updated(for: Self.dark).value(of: "tint") == .color(plain))
    }
}
