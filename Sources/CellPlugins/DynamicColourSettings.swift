import CellKit

/// The colour properties of one plugin configuration value that were set to a dynamic colour
/// (a system colour by name, or any colour with a dark variant). The ABI carries one RGBA, so
/// the host keeps each such colour and, when the traits a colour resolves under change, sets the
/// property again through the plugin's setter, resolved for the new traits, before the plugin's
/// `updated_for_state` sees them: a plugin shows `systemOrange` in dark mode as built-in cells do.
///
/// Invariant: every setting's property holds its colour resolved for `appearance`, unless the
/// plugin itself changed the value since (a re-resolution then drops the setting, as the plugin's
/// value wins).
struct DynamicColourSettings {
    struct Setting {
        let property: PluginProperty
        let colour: Color
    }

    private(set) var settings: [Setting]
    /// What the properties' values were resolved for.
    private(set) var appearance: ColourAppearance

    /// One setting, resolved for `appearance`.
    init(_ setting: Setting, appearance: ColourAppearance) {
        settings = [setting]
        self.appearance = appearance
    }

    /// The dynamic colour `value` names for a colour property: a dynamic `Color`, or a system
    /// colour's name as streams write it. nil for a static colour (`#FF9500`, an RGBA value),
    /// which crosses as it is and never changes with the traits.
    static func dynamicColour(in value: PropertyValue) -> Color? {
        switch value {
        case .color(let c): c.isDynamic ? c : nil
        case .string(let text), .symbolic(let text): Color.named[text].flatMap { $0.isDynamic ? $0 : nil }
        default: nil
        }
    }

    /// Records (or replaces) the setting of `setting.property`.
    mutating func record(_ setting: Setting) {
        settings.removeAll { $0.property === setting.property }
        settings.append(setting)
    }

    /// Forgets `property`'s setting (it was set to a static colour); answers whether any remain.
    mutating func forget(_ property: PluginProperty) -> Bool {
        settings.removeAll { $0.property === property }
        return !settings.isEmpty
    }

    /// The setting of `property`, when its value is still the colour it was set to.
    func setting(of property: PluginProperty, holding value: PropertyValue) -> Setting? {
        guard case .color(let current) = value,
              let setting = settings.first(where: { $0.property === property }),
              current.light == setting.colour.resolved(with: appearance.traits).light else { return nil }
        return setting
    }

    /// Sets every property again on `handle` (a copy the caller owns alone), resolved for
    /// `traits`; a property whose value the plugin changed since it was set is left alone and
    /// forgotten. Answers the settings that still hold, nil when none do.
    func reResolving(on handle: OpaquePointer, for traits: TraitCollection) -> DynamicColourSettings? {
        var kept = self
        kept.settings.removeAll { isStale($0.property, on: handle) }
        for s in kept.settings { try? s.property.set(color: s.colour.resolved(with: traits), on: handle) }
        kept.appearance = ColourAppearance(traits)
        return kept.settings.isEmpty ? nil : kept
    }

    private func isStale(_ property: PluginProperty, on handle: OpaquePointer) -> Bool {
        setting(of: property, holding: property.value(of: handle)) == nil
    }
}

/// The trait inputs `Color.resolved(with:)` reads: appearance, contrast and level. Two trait
/// collections with the same appearance resolve every colour alike.
struct ColourAppearance: Equatable {
    let isDark: Bool
    let isHighContrast: Bool
    let isElevated: Bool

    init(_ traits: TraitCollection) {
        isDark = traits.userInterfaceStyle == .dark
        isHighContrast = traits.accessibilityContrast == .high
        isElevated = traits.userInterfaceLevel == .elevated
    }

    /// The appearance a property set without traits at hand crosses in (the light one).
    static let light = ColourAppearance(.default)

    /// Traits with this appearance, to resolve a colour for it.
    var traits: TraitCollection {
        TraitCollection(userInterfaceStyle: isDark ? .dark : .light, accessibilityContrast: isHighContrast ? .high : .normal,
                        userInterfaceLevel: isElevated ? .elevated : .base)
    }
}
