import CellKit
import CellPlugins

/// The ABI 1.2 traits (elevated level, Bold Text, idiom) travel at the end of `cellhost_state`
/// and `cellhost_context`. A plugin that restyles by them must also tell the restyles apart in
/// `equal`: the host skips applying a configuration equal to the one shown, so a restyle that
/// draws differently but compares equal is never seen when only that trait changes (a plugin
/// that keeps a state snapshot and compares the 1.1 traits alone does exactly this).
enum ExtraTraitChecks {
    /// Each extra trait alone, against the defaults, in light and in dark (the level only shows
    /// in dark).
    static let variants: [(name: String, traits: TraitCollection)] = [UserInterfaceStyle.light, .dark].flatMap { style in
        let base = TraitCollection(userInterfaceStyle: style)
        return [("the elevated level", base.with(\.userInterfaceLevel, .elevated)),
                ("Bold Text", base.with(\.legibilityWeight, .bold)),
                ("the pad idiom", base.with(\.userInterfaceIdiom, .pad))].map { ("\($0.0) (\(style.rawValue))", $0.1) }
    }

    static func restylesForExtraTraits(_ r: CheckRecorder) {
        guard let plugin = r.plugin() else { return }
        for type in plugin.types {
            guard let base = type.makeDefault() else {
                r.fail("\(type.typeIdentifier): make_default returned NULL")
                continue
            }
            for (name, traits) in variants {
                r.step("\(type.typeIdentifier): restyled for \(name) and without it")
                var plainTraits = traits
                plainTraits.userInterfaceLevel = .base
                plainTraits.legibilityWeight = .regular
                plainTraits.userInterfaceIdiom = .phone
                let plain = base.updated(for: CellConfigurationState(traitCollection: plainTraits))
                let restyled = base.updated(for: CellConfigurationState(traitCollection: traits))
                guard r.checkSize(of: plain, "\(type.typeIdentifier) restyled without \(name)"),
                      r.checkSize(of: restyled, "\(type.typeIdentifier) restyled for \(name)") else { continue }
                // Both are drawn in the same context, so only the restyle can make them differ.
                let drawnPlain = ViewChecks.drawing(PluginContentView(configuration: plain), traits: traits)
                let drawnRestyled = ViewChecks.drawing(PluginContentView(configuration: restyled), traits: traits)
                // Drawing that differs between two identical calls is deterministic-drawing's to report.
                guard drawnPlain == ViewChecks.drawing(PluginContentView(configuration: plain), traits: traits) else { continue }
                if drawnPlain != drawnRestyled && plain == restyled {
                    r.fail("\(type.typeIdentifier): updated_for_state for \(name) draws differently from the restyle "
                           + "without it, but equal() calls the two configurations equal, so the host keeps the old "
                           + "drawing when only that trait changes; compare the state's extra_traits too")
                    break
                }
            }
        }
    }
}
