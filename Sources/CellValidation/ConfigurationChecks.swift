import CellKit
import CellPlugins

/// Checks of the value rules of UIKit's configurations: copies are independent, `updated(for:)`
/// returns a new value and keeps what the user set, and every property survives libffi both ways.
enum ConfigurationChecks {
    /// Every property's value, read through the getters.
    static func snapshot(_ c: PluginConfiguration) -> [(String, PropertyValue)] {
        c.type.properties.map { ($0.name, $0.value(of: c.handle)) }
    }

    static func describe(_ v: PropertyValue) -> String {
        let text = v.description
        return text.count > 60 ? String(text.prefix(60)) + "…" : text
    }

    /// Compares a snapshot with the configuration now; returns the first difference.
    static func firstChange(_ before: [(String, PropertyValue)], _ c: PluginConfiguration) -> String? {
        for ((name, old), (_, new)) in zip(before, snapshot(c)) where !SampleValues.same(old, new) {
            return "\(name) from \(describe(old)) to \(describe(new))"
        }
        return nil
    }

    /// A settable property set to an ordinary value that differs from what it holds now.
    static func customize(_ c: PluginConfiguration, _ p: PluginProperty) -> PluginConfiguration? {
        let current = p.value(of: c.handle)
        for sample in SampleValues.ordinary(p.encoding) where !SampleValues.same(sample, current) {
            if let changed = try? c.setting(p.name, to: sample),
               !SampleValues.same(p.value(of: changed.handle), current) { return changed }
        }
        return nil
    }

    static func valueSemantics(_ r: CheckRecorder) {
        guard let plugin = r.plugin() else { return }
        for type in plugin.types {
            r.step("\(type.typeIdentifier): make_default")
            guard let original = type.makeDefault() else { r.fail("\(type.typeIdentifier): make_default returned NULL"); continue }
            let before = snapshot(original)
            for p in type.properties where !p.isReadOnly {
                r.step("\(type.typeIdentifier): setting \(p.name) on a copy")
                guard let changed = customize(original, p) else { continue }
                r.checkSize(of: changed, "\(type.typeIdentifier) with \(p.name) = \(describe(p.value(of: changed.handle)))")
                if let change = firstChange(before, original) {
                    r.fail("\(type.typeIdentifier): setting \(p.name) on a copy changed the original's \(change)")
                    return
                }
                r.step("\(type.typeIdentifier): equal after setting \(p.name)")
                if changed == original {
                    r.fail("\(type.typeIdentifier): equal() says a copy with \(p.name) changed equals the original")
                }
            }
        }
    }

    static func updatedLeavesOriginal(_ r: CheckRecorder) {
        guard let plugin = r.plugin() else { return }
        let states = SampleValues.ordinaryStates
        for type in plugin.types {
            guard let original = type.makeDefault() else { r.fail("\(type.typeIdentifier): make_default returned NULL"); continue }
            let before = snapshot(original)
            for (i, state) in states.enumerated() {
                r.step("\(type.typeIdentifier): updated_for_state with state #\(i) (\(stateSummary(state)))")
                let updated = original.updated(for: state)
                r.checkSize(of: updated, "\(type.typeIdentifier) updated for state #\(i) (\(stateSummary(state)))")
                if let change = firstChange(before, original) {
                    r.fail("\(type.typeIdentifier): updated_for_state changed the original configuration's \(change) "
                           + "(state #\(i): \(stateSummary(state))); it must return a new configuration")
                    return
                }
            }
        }
    }

    static func updatedKeepsCustomized(_ r: CheckRecorder) {
        guard let plugin = r.plugin() else { return }
        var checked = 0
        for type in plugin.types {
            guard let base = type.makeDefault() else { r.fail("\(type.typeIdentifier): make_default returned NULL"); continue }
            for p in type.properties where !p.isReadOnly {
                r.step("\(type.typeIdentifier): customising \(p.name)")
                guard let custom = customize(base, p) else { continue }
                let value = p.value(of: custom.handle)
                guard isCustomized(custom, p.name) else {
                    r.fail("\(type.typeIdentifier): setting \(p.name) does not mark it customised (is_customized is false)")
                    continue
                }
                checked += 1
                for (i, state) in SampleValues.ordinaryStates.enumerated() {
                    r.step("\(type.typeIdentifier): updated_for_state #\(i) (\(stateSummary(state))) with \(p.name) customised")
                    let updated = custom.updated(for: state)
                    r.checkSize(of: updated, "\(type.typeIdentifier) with \(p.name) = \(describe(value)) updated for state #\(i) "
                                + "(\(stateSummary(state)))")
                    let after = p.value(of: updated.handle)
                    if !SampleValues.same(after, value) {
                        r.fail("\(type.typeIdentifier): \(p.name) was set to \(describe(value)) but updated_for_state "
                               + "(\(stateSummary(state))) changed it to \(describe(after)); customised properties are locked")
                        break
                    }
                    if !isCustomized(updated, p.name) {
                        r.fail("\(type.typeIdentifier): updated_for_state (\(stateSummary(state))) forgot that \(p.name) is customised")
                        break
                    }
                }
            }
        }
        if checked == 0 { r.skip("no settable property to customise") }
    }

    /// `CELLHOST_CONFIG_PURE_RESTYLE` holds: restyling for one state and then another gives what
    /// restyling for the second alone gives, and restyling twice for one state gives equal
    /// results, from the defaults and from each customised property. A cell that trusts the flag
    /// hands back earlier restyles, so a broken promise would show a stale look.
    static func pureRestyle(_ r: CheckRecorder) {
        guard let plugin = r.plugin() else { return }
        let pure = plugin.types.filter(\.restyleIsPure)
        guard !pure.isEmpty else { r.skip("no type declares CELLHOST_CONFIG_PURE_RESTYLE"); return }
        let states = SampleValues.ordinaryStates
        for type in pure {
            r.step("\(type.typeIdentifier): make_default, and each property customised")
            guard let base = type.makeDefault() else { r.fail("\(type.typeIdentifier): make_default returned NULL"); continue }
            let starts = [("the defaults", base)]
                + type.properties.filter { !$0.isReadOnly }.compactMap { p in customize(base, p).map { ("\(p.name) customised", $0) } }
            r.note("\(type.typeIdentifier): \(starts.count) starting values × \(states.count * states.count) pairs of states")
        each: for (start, configuration) in starts {
                for (j, second) in states.enumerated() {
                    r.step("\(type.typeIdentifier): updated_for_state twice for state #\(j) from \(start)")
                    let alone = configuration.updated(for: second)
                    r.checkSize(of: alone, "\(type.typeIdentifier) from \(start) updated for state #\(j) (\(stateSummary(second)))")
                    if let d = firstDifference(alone, configuration.updated(for: second)) {
                        r.fail("\(type.typeIdentifier) declares CELLHOST_CONFIG_PURE_RESTYLE, but two restyles of \(start) "
                               + "for one state (\(stateSummary(second))) differ: \(d.what) \(d.a), then \(d.b)")
                        break each
                    }
                    for (i, first) in states.enumerated() where i != j {
                        r.step("\(type.typeIdentifier): updated_for_state #\(i) then #\(j) from \(start)")
                        let both = configuration.updated(for: first).updated(for: second)
                        r.checkSize(of: both, "\(type.typeIdentifier) from \(start) updated for state #\(i) "
                                    + "(\(stateSummary(first))) then #\(j) (\(stateSummary(second)))")
                        if let d = firstDifference(both, alone) {
                            r.fail("\(type.typeIdentifier) declares CELLHOST_CONFIG_PURE_RESTYLE, but restyling \(start) for "
                                   + "(\(stateSummary(first))) and then for (\(stateSummary(second))) gives \(d.what) \(d.a), "
                                   + "where restyling for the second alone gives \(d.b); a pure restyle sets what it restyles "
                                   + "from the state and the set values only, never from an earlier restyle")
                            break each
                        }
                    }
                }
            }
        }
    }

    /// How `a` differs from `b`: the first property that reads differently, or, when every
    /// property reads the same, what equal() says; nil when they agree.
    static func firstDifference(_ a: PluginConfiguration, _ b: PluginConfiguration) -> (what: String, a: String, b: String)? {
        for ((name, x), (_, y)) in zip(snapshot(a), snapshot(b)) where !SampleValues.same(x, y) {
            return (name, describe(x), describe(y))
        }
        return a == b ? nil : ("a configuration", "that equal() calls different", "one whose every property reads the same")
    }

    static func propertyRoundTrip(_ r: CheckRecorder) {
        guard let plugin = r.plugin() else { return }
        for type in plugin.types {
            guard let base = type.makeDefault() else { r.fail("\(type.typeIdentifier): make_default returned NULL"); continue }
            r.step("\(type.typeIdentifier): sizing the default")
            r.checkSize(of: base, "\(type.typeIdentifier)'s default")
            for p in type.properties {
                r.step("\(type.typeIdentifier): reading \(p.name)")
                let initial = p.value(of: base.handle)
                if !SampleValues.same(initial, p.value(of: base.handle)) {
                    r.fail("\(type.typeIdentifier): \(p.name) reads differently on two calls in a row")
                }
                compareReadPaths(r, type, p, on: base, after: "make_default")
                if p.isReadOnly { continue }
                var changed = false
                for sample in SampleValues.ordinary(p.encoding) {
                    r.step("\(type.typeIdentifier): \(p.name) = \(describe(sample))")
                    let set: PluginConfiguration
                    do throws(ConfigurationPropertyError) { set = try base.setting(p.name, to: sample) } catch {
                        r.fail("\(type.typeIdentifier): setting \(p.name) to \(describe(sample)) failed: \(error)")
                        continue
                    }
                    let read = p.value(of: set.handle)
                    r.checkSize(of: set, "\(type.typeIdentifier) with \(p.name) = \(describe(sample))")
                    if !SampleValues.same(read, initial) { changed = true }
                    compareSetPaths(r, type, p, sample: sample, typedRead: read)
                    if !SampleValues.same(read, sample) {
                        r.note("\(p.name): \(describe(sample)) reads back as \(describe(read)) (the plugin adjusts or refuses it)")
                    }
                    guard let again = try? set.setting(p.name, to: read) else {
                        r.fail("\(type.typeIdentifier): \(p.name) cannot be set to the value its getter returned (\(describe(read)))")
                        continue
                    }
                    let reread = p.value(of: again.handle)
                    if !SampleValues.same(reread, read) {
                        r.fail("\(type.typeIdentifier): \(p.name) does not round-trip: set \(describe(read)), read back \(describe(reread))")
                    }
                }
                if !changed {
                    r.fail("\(type.typeIdentifier): no value changed \(p.name) (tried \(SampleValues.ordinary(p.encoding).map(describe).joined(separator: ", "))): its setter has no effect on what its getter reads")
                }
            }
        }
    }

    /// The host calls getters and setters as typed C function pointers; libffi makes the same
    /// calls from the encoding alone. Both must read the same value: the typed call's C
    /// signature for each encoding is checked against libffi's on every plugin validated.
    static func compareReadPaths(_ r: CheckRecorder, _ type: PluginConfigurationType, _ p: PluginProperty,
                                 on c: PluginConfiguration, after what: String) {
        let typed = p.value(of: c.handle), throughFFI = p.valueThroughFFI(of: c.handle)
        if !SampleValues.same(typed, throughFFI) {
            r.fail("\(type.typeIdentifier): after \(what), \(p.name) reads \(describe(typed)) through a typed C call but \(describe(throughFFI)) through libffi (the host's two calls of encoding \"\(p.encoding)\" disagree)")
        }
    }

    /// Sets `sample` through libffi on a fresh default configuration and checks it reads what
    /// the typed set read (`typedRead`), through both call paths.
    static func compareSetPaths(_ r: CheckRecorder, _ type: PluginConfigurationType, _ p: PluginProperty,
                                sample: PropertyValue, typedRead: PropertyValue) {
        guard let viaFFI = type.makeDefault() else { return }
        do throws(ConfigurationPropertyError) { try p.setThroughFFI(sample, on: viaFFI.handle) } catch {
            r.fail("\(type.typeIdentifier): setting \(p.name) to \(describe(sample)) through libffi failed: \(error)")
            return
        }
        let read = p.value(of: viaFFI.handle)
        if !SampleValues.same(read, typedRead) {
            r.fail("\(type.typeIdentifier): \(p.name) = \(describe(sample)) reads back \(describe(typedRead)) when set through a typed C call but \(describe(read)) when set through libffi (the host's two calls of encoding \"\(p.encoding)\" disagree)")
        }
        compareReadPaths(r, type, p, on: viaFFI, after: "setting \(describe(sample)) through libffi")
    }

    static func isCustomized(_ c: PluginConfiguration, _ name: String) -> Bool {
        c.inspectableProperties.first { $0.name == name }?.isCustomized ?? false
    }

    static func stateSummary(_ s: CellConfigurationState) -> String {
        var parts = s.activeFlagNames
        let t = s.traitCollection
        if t != .default {
            parts.append("\(t.userInterfaceStyle.rawValue), \(t.preferredContentSizeCategory.rawValue), \(t.layoutDirection.rawValue), @\(Int(t.displayScale))x")
        }
        for (key, value) in s.customStates.sorted(by: { $0.key < $1.key }) {
            let v = value.description
            parts.append("\(key.rawValue.prefix(20))=\(v.count > 20 ? String(v.prefix(20)) + "…" : v)")
        }
        return parts.isEmpty ? "normal" : parts.joined(separator: ", ")
    }
}
