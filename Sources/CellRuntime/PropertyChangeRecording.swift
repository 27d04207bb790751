import CellKit

/// What a row's update record says changed, when the engine records property changes: every
/// stage of the pass (before, after `updated(for:)`, after the hooks) read and diffed, each change
/// with its reason, and locked properties kept only where the state would have restyled an
/// uncustomised configuration of the same kind. Reads the configurations the row noted before
/// the event's first change (`noteCause`); a run that does not record reads none of this.
extension EngineRow {
    /// What a recording pass traces from its record: the property changes with their reasons,
    /// and, when none changed, why the cell may still look different. Read before the pass's
    /// state becomes the traced one.
    func recordedChanges<S>(of update: ConfigurationUpdate<S>?, newState: CellConfigurationState)
        -> (changes: [PropertyChangeTrace], repaint: String?)
    {
        let beforeState = lastState
        // What moved, in words: the cause of restyles and repaints.
        let cause = EngineRow.delta(from: beforeState, to: newState)
        let changes = update.map { propertyChanges(of: $0, newState: newState, beforeState: beforeState, cause: cause) } ?? []
        return (changes, changes.isEmpty ? EngineRow.repaintReason(from: beforeState, to: newState, cause: cause) : nil)
    }

    /// The property changes of a pass's record.
    private func propertyChanges<S>(of r: ConfigurationUpdate<S>, newState: CellConfigurationState,
                                    beforeState: CellConfigurationState?, cause: String) -> [PropertyChangeTrace] {
        // A fresh-form handler restyles the data's configurations, not the stored ones: its
        // starting point is what the state restyled, and only what its rules set is the hook's.
        if let fresh = freshHandlerBase.take() {
            return propertyChanges(newState: newState, configState: r.state, beforeState: beforeState, cause: cause,
                                   contentAfterUpdate: fresh.content, contentFinal: r.contentAfterHooks,
                                   backgroundAfterUpdate: fresh.background, backgroundFinal: r.backgroundAfterHooks)
        }
        return propertyChanges(newState: newState, configState: r.state, beforeState: beforeState, cause: cause,
                               contentAfterUpdate: r.contentAfterUpdate, contentFinal: r.contentAfterHooks,
                               backgroundAfterUpdate: r.backgroundAfterUpdate, backgroundFinal: r.backgroundAfterHooks)
    }

    /// The pass's property changes with their reasons: every stage's properties read (once per
    /// distinct configuration), diffed, and locked properties kept only where the state would
    /// have restyled an uncustomised configuration of the same kind.
    private func propertyChanges(newState: CellConfigurationState, configState: any ConfigurationState,
                                 beforeState: CellConfigurationState?, cause: String,
                                 contentAfterUpdate: (any ContentConfiguration)?, contentFinal: (any ContentConfiguration)?,
                                 backgroundAfterUpdate: BackgroundConfiguration?, backgroundFinal: BackgroundConfiguration?)
        -> [PropertyChangeTrace]
    {
        let content = PropertyChange.reportableLists(before: self.contentBefore ?? configuration,
                                                     afterUpdate: contentAfterUpdate, afterHooks: contentFinal,
                                                     recent: recentContentReads)
        let backgrounds = PropertyChange.reportableLists(before: self.backgroundBefore ?? .some(background ?? pristineBackground),
                                                         afterUpdate: backgroundAfterUpdate, afterHooks: backgroundFinal,
                                                         recent: recentBackgroundReads)

        // What the state change restyles on an uncustomised configuration of the same kind.
        let pristineNow = pristineStyleValues(state: newState, configState: configState)
        let pristineBefore = beforeState == nil ? nil : pristineValues
        pristineValues = pristineNow

        var changes: [PropertyChangeTrace] = []
        let contentTintedWhenNil: Set<String> = (contentFinal ?? contentAfterUpdate) is ListContentConfiguration
            ? ListContentConfiguration.propertiesTintedWhenNil : []
        // One configuration's changes; called for each (an array of the two lists' tuples is
        // built, copied and destroyed through the runtime's generic tuple witnesses).
        func append(_ configuration: String, _ lists: PropertyChange.PropertyLists, setByEvent: Set<String>) {
            for change in PropertyChange.changes(before: lists.before, afterUpdate: lists.afterUpdate,
                                                 afterHooks: lists.afterHooks, setByEvent: setByEvent,
                                                 includingUnchanged: false) {
                let reason: PropertyChangeReason
                switch change.reason {
                case .unchanged: continue
                case .lockedKept:
                    // Locked properties matter when the state would have restyled them: they are
                    // why a cell did not change its look.
                    let key = configuration + "." + change.name
                    guard let pristineBefore, pristineBefore[key] != pristineNow[key] else { continue }
                    reason = .locked
                case .restyledByState: reason = .restyled
                case .reResolved: reason = .reResolved
                case .setByHook: reason = .setByHook
                case .setByEvent: reason = .setByEvent
                }
                changes.append(PropertyChangeTrace(
                    configuration: configuration, property: change.name, old: change.oldValue.description,
                    new: change.newValue.description, reason: reason,
                    cause: reason == .reResolved ? EngineRow.appearanceWords(of: newState.traitCollection)
                        : (reason == .restyled || reason == .locked) ? cause : nil,
                    nilIsTint: (configuration == "content" ? contentTintedWhenNil : BackgroundConfiguration.propertiesTintedWhenNil)
                        .contains(change.name)))
            }
        }
        append("content", content, setByEvent: setByEvent)
        append("background", backgrounds, setByEvent: backgroundSetByEvent)
        return changes
    }

    /// What `state` restyles on the row's factory configurations, by property (shared by rows
    /// alike through the style cache): a pass's "pristine now", and a rebuilt row's last one.
    func pristineStyleValues(state: CellConfigurationState, configState: any ConfigurationState) -> [String: PropertyValue] {
        styleCache.values(key: pristineKey, state: state, isCell: kind == .cell) {
            var values: [String: PropertyValue] = [:]
            for p in pristineContent.updated(for: configState).inspectableProperties { values["content." + p.name] = p.value }
            for p in pristineBackground.updated(for: configState).inspectableProperties { values["background." + p.name] = p.value }
            return values
        }
    }

    /// The appearance a colour was re-resolved for, in trace words: "dark", "light", and
    /// "high contrast" and "elevated" after it when those are on (what `Color.resolved(with:)` reads).
    static func appearanceWords(of traits: TraitCollection) -> String {
        (traits.userInterfaceStyle == .dark ? "dark" : "light") + (traits.accessibilityContrast == .high ? " high contrast" : "")
            + (traits.userInterfaceLevel == .elevated ? " elevated" : "")
    }
}
