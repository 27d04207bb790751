import CellKit

/// How a row's update record puts state into words: the flags that are on, what moved between
/// two states (the cause a restyle is attributed to), and why a view whose properties all stayed
/// the same may still draw differently. Pure functions of the states, so every run words the
/// same change the same way.
extension EngineRow {
    /// The flags that are on, as words for traces.
    static func words(_ s: CellConfigurationState) -> [String] {
        var w = s.activeFlagNames
        // Sorting, even an empty dictionary, costs more than all the flags.
        if !s.customStates.isEmpty {
            for (k, v) in s.customStates.sorted(by: { $0.key < $1.key }) { w.append("\(k)=\(v)") }
        }
        return w
    }

    /// Why a view whose properties all stayed the same may draw differently: new traits, or a
    /// content view that styles itself from the state (plugin views may read the state directly).
    /// Nil on first display. The engine drops it when the drawing turns out unchanged.
    static func repaintReason(from old: CellConfigurationState?, to new: CellConfigurationState, cause: String) -> String? {
        guard old != nil else { return nil }
        return traitEffects(from: old, to: new) ?? "the content view styles itself for \(cause) (no property changed)"
    }

    /// What new traits do to the drawing of unchanged property values, in words: dynamic colours
    /// resolve anew, text sizes re-lay out, layouts mirror. Nil when no such trait changed.
    static func traitEffects(from old: CellConfigurationState?, to new: CellConfigurationState) -> String? {
        guard let old else { return nil }
        let a = old.traitCollection, b = new.traitCollection
        var parts: [String] = []
        var colourCauses: [String] = []
        if a.userInterfaceStyle != b.userInterfaceStyle { colourCauses.append(b.userInterfaceStyle.rawValue) }
        if a.accessibilityContrast != b.accessibilityContrast { colourCauses.append("\(b.accessibilityContrast.rawValue) contrast") }
        if a.userInterfaceLevel != b.userInterfaceLevel { colourCauses.append("\(b.userInterfaceLevel.rawValue) level") }
        if !colourCauses.isEmpty { parts.append("colours re-resolved for " + colourCauses.joined(separator: ", ")) }
        if a.preferredContentSizeCategory != b.preferredContentSizeCategory {
            parts.append("laid out for text size " + b.preferredContentSizeCategory.shortName)
        }
        if a.layoutDirection != b.layoutDirection { parts.append(b.layoutDirection == .rightToLeft ? "mirrored for rtl" : "laid out ltr") }
        if a.displayScale != b.displayScale { parts.append("drawn at @\(formatPoints(b.displayScale))x") }
        return parts.isEmpty ? nil : parts.joined(separator: "; ")
    }

    /// What moved between two states, in words: the cause a restyle is attributed to.
    static func delta(from old: CellConfigurationState?, to new: CellConfigurationState) -> String {
        guard let old else { return "first display" }
        // A dozen words at most: searched in place, not hashed into sets.
        let before = words(old), after = words(new)
        var parts = after.filter { !before.contains($0) }
        for word in before where !after.contains(word) { parts.append("not " + word) }
        let a = old.traitCollection, b = new.traitCollection
        if a.userInterfaceStyle != b.userInterfaceStyle { parts.append(b.userInterfaceStyle.rawValue) }
        if a.preferredContentSizeCategory != b.preferredContentSizeCategory { parts.append(b.preferredContentSizeCategory.shortName) }
        if a.layoutDirection != b.layoutDirection { parts.append(b.layoutDirection == .rightToLeft ? "rtl" : "ltr") }
        if a.accessibilityContrast != b.accessibilityContrast { parts.append("\(b.accessibilityContrast.rawValue) contrast") }
        if a.horizontalSizeClass != b.horizontalSizeClass { parts.append("\(b.horizontalSizeClass.rawValue) width") }
        if a.verticalSizeClass != b.verticalSizeClass { parts.append("\(b.verticalSizeClass.rawValue) height") }
        if a.userInterfaceLevel != b.userInterfaceLevel { parts.append("\(b.userInterfaceLevel.rawValue) level") }
        if a.legibilityWeight != b.legibilityWeight { parts.append("\(b.legibilityWeight.rawValue) text") }
        if a.userInterfaceIdiom != b.userInterfaceIdiom { parts.append(b.userInterfaceIdiom.rawValue) }
        return parts.isEmpty ? "no state change" : parts.joined(separator: ", ")
    }
}
