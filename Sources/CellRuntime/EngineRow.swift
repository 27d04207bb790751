import CellKit
import CellPlugins

/// One row of the list — an item's cell, a section header or footer — as the engine keeps it:
/// the row's data (its configuration as set, its state flags) lives here for the whole run, while
/// a CellKit `Cell`/`HeaderFooterView` is attached only while the row is visible and runs the
/// update cycle (UIKIT.md §6). Views of rows that scroll away go back to a pool and are
/// configured afresh for the rows that scroll in, as a collection view's cell provider does.
final class EngineRow {
    enum Kind { case cell, header, footer }

    enum View {
        case cell(Cell)
        case headerFooter(HeaderFooterView)
    }

    let name: String
    let kind: Kind
    /// Stable compositor layer id.
    let layerID: Int
    var item: ItemDescription?
    /// The content configuration the data gives the row (factory + `set` + actions), before any
    /// state restyling: what the cell provider assigns when the row gets a view.
    var configuration: any ContentConfiguration
    /// The background as the data sets it up; nil = the list's default for the row.
    var background: BackgroundConfiguration?
    /// The factory's configurations: what the state alone restyles. A customised property is
    /// reported "locked" only when the state change restyles it here — otherwise keeping its
    /// value is no news.
    var pristineContent: any ContentConfiguration
    let pristineBackground: BackgroundConfiguration
    /// Flags and custom states (traits come from the list).
    var flags = CellConfigurationState()
    var view: View?
    /// The state traced last, for "what moved" words; nil before the row was first displayed.
    var lastState: CellConfigurationState? { hasTracedState ? tracedState : nil }
    /// `lastState`, kept as a plain value and a flag: a pass compares it in place, where an
    /// optional state is copied and assigned through generic witnesses (~140 instructions each).
    private var tracedState = CellConfigurationState()
    private var hasTracedState = false
    /// `words(lastState)`, kept: the next pass's trace starts from it.
    private var lastStateWords: [String] = []
    private var pristineValues: [String: PropertyValue]?
    /// Rows whose factory configurations are alike share what a state does to them.
    var pristineKey: String
    let styleCache: PristineStyleCache
    /// Whether update traces list property changes (the engine's option): without them the row
    /// keeps no configurations from before an event and reads no properties.
    let recordsPropertyChanges: Bool

    /// Height from self-sizing; an estimate until the row has been displayed.
    var size: Size
    /// Where the row sits in the list's content (points), from the list layout.
    var frame: Rect = .zero
    /// The row's slot in the list layout (changes when rows are inserted or deleted).
    var slot = 0
    /// Whether `size` is self-sized for the current traits, or an estimate.
    var isMeasured = false
    /// Rounded corners of an inset-grouped section: set on its first and last rows.
    var clip: (rect: Rect, cornerRadius: Double)?
    /// The last recording, in row coordinates.
    var drawing = DisplayList()
    /// A replaced recording that nothing reads any more: `draw` records into its storage.
    var spareDrawing = DisplayList()
    /// Where the row's compositor layer was last placed (viewport points); nil while it has none.
    /// Kept on the row, not in a table by layer id: every pass reads it for every visible row.
    var layerFrame: Rect?
    /// The row ends its section (grouped lists draw no separator below it). A change, from rows
    /// inserted or deleted after it, repaints the row.
    var isLastInSection = false {
        didSet { if isLastInSection != oldValue { needsRedraw = true } }
    }
    /// Something drawn outside the update cycle changed (its separator).
    var needsRedraw = false

    // What the coming update pass must report, gathered from the events of one pass.
    var causes: [String] = []
    var setByEvent: Set<String> = []
    var backgroundSetByEvent: Set<String> = []
    /// The configurations before any change of this pass; their properties are read only when
    /// the pass turns them into its trace. The background's outer optional is "not noted yet".
    private var contentBefore: (any ContentConfiguration)?
    private var backgroundBefore: BackgroundConfiguration??
    /// The traced passes' last final stages as read in full: the next pass's "before" stages,
    /// and what a toggled state restyles back to.
    private let recentContentReads = RecentFullReads<any ContentConfiguration>()
    private let recentBackgroundReads = RecentFullReads<BackgroundConfiguration>()

    init(name: String, kind: Kind, layerID: Int, item: ItemDescription?, pristine: any ContentConfiguration,
         configuration: any ContentConfiguration, pristineBackground: BackgroundConfiguration,
         background: BackgroundConfiguration?, estimatedHeight: Double, width: Double,
         pristineKey: String, styleCache: PristineStyleCache, recordsPropertyChanges: Bool) {
        self.pristineKey = pristineKey
        self.styleCache = styleCache
        self.recordsPropertyChanges = recordsPropertyChanges
        self.name = name
        self.kind = kind
        self.layerID = layerID
        self.item = item
        self.pristineContent = pristine
        self.configuration = configuration
        self.pristineBackground = pristineBackground
        self.background = background
        self.size = Size(width: width, height: estimatedHeight)
    }

    var role: ConfigurableViewRole {
        switch kind {
        case .cell: .cell
        case .header: .header
        case .footer: .footer
        }
    }

    var currentContent: (any ContentConfiguration)? {
        switch view {
        case .cell(let c): c.contentConfiguration
        case .headerFooter(let h): h.contentConfiguration
        case nil: nil
        }
    }

    var currentBackground: BackgroundConfiguration? {
        switch view {
        case .cell(let c): c.backgroundConfiguration
        case .headerFooter(let h): h.backgroundConfiguration
        case nil: background ?? pristineBackground
        }
    }

    var needsUpdate: Bool {
        switch view {
        case .cell(let c): c.needsUpdateConfiguration
        case .headerFooter(let h): h.needsUpdateConfiguration
        case nil: false
        }
    }

    /// Notes why the row updates and keeps its properties as they were before any change this
    /// event makes (so the trace shows old → new across the whole pass).
    func noteCause(_ cause: String) {
        if recordsPropertyChanges {
            if contentBefore == nil { contentBefore = currentContent ?? configuration }
            if backgroundBefore == nil { backgroundBefore = .some(currentBackground) }
        }
        if !causes.contains(cause) { causes.append(cause) }
    }

    // MARK: Changing the row

    func applyState(_ change: StateChange) {
        change.apply(to: &flags)
        switch view {
        case .cell(let c): c.takeFlags(of: flags)
        case .headerFooter(let h): h.takeFlags(of: flags.viewState)
        case nil: break
        }
    }

    /// Applies `transform` to the data's configuration and to the visible view's.
    func changeContent(_ transform: (any ContentConfiguration) throws(ConfigurationPropertyError) -> any ContentConfiguration)
        throws(ConfigurationPropertyError) {
        configuration = try transform(configuration)
        switch view {
        case .cell(let c): if let current = c.contentConfiguration { c.contentConfiguration = try transform(current) }
        case .headerFooter(let h): if let current = h.contentConfiguration { h.contentConfiguration = try transform(current) }
        case nil: break
        }
    }

    func changeBackground(_ name: String, to value: PropertyValue) throws(ConfigurationPropertyError) {
        background = try (background ?? pristineBackground).setting(name, to: value)
        switch view {
        case .cell(let c): if let current = c.backgroundConfiguration { c.backgroundConfiguration = try current.setting(name, to: value) }
        case .headerFooter(let h): if let current = h.backgroundConfiguration { h.backgroundConfiguration = try current.setting(name, to: value) }
        case nil: break
        }
    }

    func setNeedsUpdateConfiguration() {
        switch view {
        case .cell(let c): c.setNeedsUpdateConfiguration()
        case .headerFooter(let h): h.setNeedsUpdateConfiguration()
        case nil: break
        }
    }

    func setTraits(_ traits: TraitCollection) {
        switch view {
        case .cell(let c): c.traitCollection = traits
        case .headerFooter(let h): h.traitCollection = traits
        case nil: break
        }
    }

    // MARK: Views

    /// Gives the row a view from the pool (or a new one) and configures it from the row's data,
    /// as a cell provider does for a row that appears.
    func attachView(pool: inout ViewPool, appearance: ListAppearance, traits: TraitCollection) {
        switch kind {
        case .cell:
            let cell = pool.cells.popLast() ?? Cell(appearance: appearance, traits: traits)
            cell.recordsConfigurationStages = recordsPropertyChanges
            cell.traitCollection = traits
            configure(cell, traits: traits)
            view = .cell(cell)
        case .header, .footer:
            let h = pool.headerFooters.popLast() ?? HeaderFooterView(role: role, appearance: appearance, traits: traits)
            h.recordsConfigurationStages = recordsPropertyChanges
            h.traitCollection = traits
            h.mutateInputs { s in
                s = flags.viewState
                s.traitCollection = traits
            }
            if let background { h.backgroundConfiguration = background } else { h.backgroundConfiguration = pristineBackground }
            h.contentConfiguration = configuration
            view = .headerFooter(h)
        }
    }

    private func configure(_ cell: Cell, traits: TraitCollection) {
        cell.mutateInputs { s in
            s = flags
            s.traitCollection = traits
        }
        cell.automaticallyUpdatesContentConfiguration = item?.automaticallyUpdatesContentConfiguration ?? true
        cell.automaticallyUpdatesBackgroundConfiguration = item?.automaticallyUpdatesBackgroundConfiguration ?? true
        cell.backgroundConfiguration = background ?? pristineBackground
        cell.contentConfiguration = configuration
        if let plugin = configuration as? PluginConfiguration, plugin.type.hasUpdateConfigurationHook {
            // The plugin's cell-level hook is its `updateConfiguration(using:)`.
            cell.updateConfigurationOverride = { cell, state in
                if let current = cell.contentConfiguration as? PluginConfiguration,
                   let hooked = current.cellUpdateHookResult(for: state) {
                    cell.contentConfiguration = hooked
                }
            }
        }
        if let rules = item?.handlers, !rules.isEmpty {
            // The stream's update handler; its properties were checked when the row was made.
            cell.configurationUpdateHandler = { cell, state in
                for rule in rules where rule.when.matches(state) {
                    for a in rule.set {
                        if let c = cell.contentConfiguration, let updated = try? c.setting(a.name, to: a.value) {
                            cell.contentConfiguration = updated
                        }
                    }
                    for a in rule.background {
                        if let b = cell.backgroundConfiguration, let updated = try? b.setting(a.name, to: a.value) {
                            cell.backgroundConfiguration = updated
                        }
                    }
                }
            }
        }
    }

    /// The row scrolled out: its view goes back to the pool, ready for another row.
    func detachView(to pool: inout ViewPool) {
        switch view {
        case .cell(let c):
            c.prepareForReuse()
            pool.cells.append(c)
        case .headerFooter(let h):
            h.prepareForReuse()
            pool.headerFooters.append(h)
        case nil: break
        }
        view = nil
        drawing = DisplayList()
    }

    // MARK: The pass

    /// Runs the view's pending update pass and turns its record into a trace (geometry is added
    /// by the engine after layout). Nil when nothing was pending.
    func runUpdatePass(traits: TraitCollection) -> CellUpdateTrace? {
        var newState = flags
        newState.traitCollection = traits
        let supports: Bool?
        let action: ConfigurationUpdate<CellConfigurationState>.ViewAction
        let typeIdentifier: String
        // Only the property trace reads the pass's stages: without it the record (every stage)
        // stays uncopied in the view's `lastUpdate`, and no stage is read out of it.
        let recorded: (changes: [PropertyChangeTrace], repaint: String?)
        switch view {
        case .cell(let c):
            guard let outcome = c.runPendingUpdate() else { return nil }
            (supports, action) = (outcome.supportsAnswer, outcome.viewAction)
            typeIdentifier = c.contentTypeIdentifier ?? configuration.typeIdentifier
            recorded = recordsPropertyChanges ? recordedChanges(of: c.lastUpdate, newState: newState) : ([], nil)
        case .headerFooter(let h):
            guard let outcome = h.runPendingUpdate() else { return nil }
            supports = outcome.supportsAnswer
            action = ConfigurationUpdate<CellConfigurationState>.ViewAction(rawValue: outcome.viewAction.rawValue) ?? .none
            typeIdentifier = h.contentTypeIdentifier ?? configuration.typeIdentifier
            recorded = recordsPropertyChanges ? recordedChanges(of: h.lastUpdate, newState: newState) : ([], nil)
        case nil:
            return nil
        }

        let outcome: ViewOutcome
        switch action {
        case .created: outcome = .created
        case .replaced: outcome = .replaced
        case .reused: outcome = .reused
        case .removed, .none: outcome = .unchanged
        }
        let stateBefore = lastStateWords
        let stateAfter = hasTracedState && tracedState == newState ? stateBefore : EngineRow.words(newState)
        tracedState = consume newState
        hasTracedState = true
        lastStateWords = stateAfter
        // Only recording keeps them (clearing an empty optional still costs a generic destroy).
        if recordsPropertyChanges { (self.contentBefore, self.backgroundBefore) = (nil, nil) }
        if !setByEvent.isEmpty { setByEvent.removeAll(keepingCapacity: true) }
        if !backgroundSetByEvent.isEmpty { backgroundSetByEvent.removeAll(keepingCapacity: true) }
        let causeText = causes.isEmpty ? "update" : causes.count == 1 ? causes[0] : causes.joined(separator: ", ")
        causes.removeAllKeepingStorage()
        return CellUpdateTrace(
            cell: name, type: typeIdentifier, cause: causeText,
            stateBefore: stateBefore, stateAfter: stateAfter,
            changes: recorded.changes, view: outcome, supports: supports, size: size, frame: frame, damage: nil, micros: 0,
            repaint: recorded.repaint)
    }

    /// What a recording pass traces from its record: the property changes with their reasons,
    /// and, when none changed, why the cell may still look different. Read before the pass's
    /// state becomes the traced one.
    private func recordedChanges<S>(of update: ConfigurationUpdate<S>?, newState: CellConfigurationState)
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
        propertyChanges(newState: newState, configState: r.state, beforeState: beforeState, cause: cause,
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
        let pristineNow = styleCache.values(key: pristineKey, state: newState, isCell: kind == .cell) {
            var values: [String: PropertyValue] = [:]
            for p in pristineContent.updated(for: configState).inspectableProperties { values["content." + p.name] = p.value }
            for p in pristineBackground.updated(for: configState).inspectableProperties { values["background." + p.name] = p.value }
            return values
        }
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
                case .setByHook: reason = .setByHook
                case .setByEvent: reason = .setByEvent
                }
                changes.append(PropertyChangeTrace(
                    configuration: configuration, property: change.name, old: change.oldValue.description,
                    new: change.newValue.description, reason: reason,
                    cause: (reason == .restyled || reason == .locked) ? cause : nil,
                    nilIsTint: (configuration == "content" ? contentTintedWhenNil : BackgroundConfiguration.propertiesTintedWhenNil)
                        .contains(change.name)))
            }
        }
        append("content", content, setByEvent: setByEvent)
        append("background", backgrounds, setByEvent: backgroundSetByEvent)
        return changes
    }

    /// Self-sizing at the row width: the content's height, never a fixed one.
    func measure(width: Double, measurer: any TextMeasuring) {
        let height: Double
        switch view {
        case .cell(let c): height = c.preferredHeight(forWidth: width, measurer: measurer)
        case .headerFooter(let h): height = h.preferredHeight(forWidth: width, measurer: measurer)
        case nil: return
        }
        size = Size(width: width, height: max(1, height.rounded(.up)))
        isMeasured = true
    }

    /// Records background then content, in row coordinates.
    func draw(measurer: any TextMeasuring) -> DisplayList {
        var list = spareDrawing
        spareDrawing = DisplayList()
        list.removeAll()
        list.reserveCapacity(drawing.commands.count)  // a redrawn row records about as much again
        switch view {
        case .cell(let c): c.draw(size: size, measurer: measurer, clip: clip, isLastInSection: isLastInSection, into: &list)
        case .headerFooter(let h): h.draw(size: size, measurer: measurer, into: &list)
        case nil: break
        }
        return list
    }

    /// Brings `drawing` up to date by re-recording only the background, when nothing else the
    /// row draws can have changed (a highlight): whether the recording changed, exactly as
    /// comparing it with a fresh one would answer; nil when the row must be recorded afresh with
    /// `draw(measurer:)`, and then `drawing` is untouched.
    func redrawBackground(measurer: any TextMeasuring, willChange: () -> Void) -> Bool? {
        guard !drawing.isEmpty, !needsRedraw else { return nil }
        switch view {
        case .cell(let c):
            return c.redrawBackground(size: size, measurer: measurer, clip: clip, isLastInSection: isLastInSection,
                                      updating: &drawing, willChange: willChange)
        case .headerFooter(let h):
            return h.redrawBackground(size: size, measurer: measurer, updating: &drawing, willChange: willChange)
        case nil: return nil
        }
    }

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
        return parts.isEmpty ? "no state change" : parts.joined(separator: ", ")
    }
}

/// Views of rows that scrolled away, waiting for rows that scroll in.
struct ViewPool {
    var cells: [Cell] = []
    var headerFooters: [HeaderFooterView] = []
}

/// A problem that stops a run: bad input the parser could not know about (a property a plugin
/// type does not have, an unknown type id), named with the stream line.
public struct EngineError: Error, CustomStringConvertible, Equatable {
    public var message: String
    public var line: Int?
    public init(_ message: String, line: Int? = nil) {
        self.message = message
        self.line = line
    }
    public var description: String { message }
}
