import CellKit
import CellPlugins

/// One row of the list — an item's cell, a section header or footer — as the engine keeps it:
/// the row's data (its configuration as set, its state flags) lives here for the whole run, while
/// a CellKit `Cell`/`HeaderFooterView` is attached only while the row is visible and runs the
/// update cycle (UIKIT.md §6). Views of rows that scroll away go back to a pool and are
/// configured afresh for the rows that scroll in, as a collection view's cell provider does.
/// Event-path stored properties are `@exclusivity(unchecked)`: one thread owns it, their accesses never overlap.
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
    @exclusivity(unchecked) var item: ItemDescription?
    /// The content configuration the data gives the row (factory + `set` + actions), before any
    /// state restyling: what the cell provider assigns when the row gets a view.
    @exclusivity(unchecked) var configuration: any ContentConfiguration
    /// The background as the data sets it up; nil = the list's default for the row.
    @exclusivity(unchecked) var background: BackgroundConfiguration?
    /// The factory's configurations: what the state alone restyles. A customised property is
    /// reported "locked" only when the state change restyles it here — otherwise keeping its
    /// value is no news.
    @exclusivity(unchecked) var pristineContent: any ContentConfiguration
    let pristineBackground: BackgroundConfiguration
    /// Flags and custom states (traits come from the list).
    @exclusivity(unchecked) var flags = CellConfigurationState()
    @exclusivity(unchecked) var view: View?
    /// The state traced last, for "what moved" words; nil before the row was first displayed.
    var lastState: CellConfigurationState? { hasTracedState ? tracedState : nil }
    /// `lastState`, kept as a plain value and a flag: a pass compares it in place, where an
    /// optional state would be copied and assigned through generic witnesses.
    @exclusivity(unchecked) private var tracedState = CellConfigurationState()
    @exclusivity(unchecked) private var hasTracedState = false
    /// `words(lastState)`, kept: the next pass's trace starts from it.
    @exclusivity(unchecked) private var lastStateWords: [String] = []
    @exclusivity(unchecked) var pristineValues: [String: PropertyValue]?
    /// Rows whose factory configurations are alike share what a state does to them.
    @exclusivity(unchecked) var pristineKey: String
    let styleCache: PristineStyleCache
    /// Whether update traces list property changes (the engine's option): without them the row
    /// keeps no configurations from before an event and reads no properties.
    let recordsPropertyChanges: Bool

    /// Height from self-sizing; an estimate until the row has been displayed.
    @exclusivity(unchecked) var size: Size
    /// Where the row sits in the list's content (points), from the list layout.
    @exclusivity(unchecked) var frame: Rect = .zero
    /// The row's slot in the list layout (changes when rows are inserted or deleted).
    @exclusivity(unchecked) var slot = 0
    /// Whether `size` is self-sized for the current traits, or an estimate.
    @exclusivity(unchecked) var isMeasured = false
    /// Rounded corners of an inset-grouped section: set on its first and last rows.
    @exclusivity(unchecked) var clip: (rect: Rect, cornerRadius: Double)?
    /// The last recording, in row coordinates.
    @exclusivity(unchecked) var drawing = DisplayList()
    /// A replaced recording that nothing reads any more: `draw` records into its storage.
    @exclusivity(unchecked) var spareDrawing = DisplayList()
    /// Where the row's compositor layer was last placed (viewport points); nil while it has none.
    /// Kept on the row, not in a table by layer id: every pass reads it for every visible row.
    @exclusivity(unchecked) var layerFrame: Rect?
    /// The row ends its section (grouped lists draw no separator below it). A change, from rows
    /// inserted or deleted after it, repaints the row.
    @exclusivity(unchecked) var isLastInSection = false {
        didSet { if isLastInSection != oldValue { needsRedraw = true } }
    }
    /// Something drawn outside the update cycle changed (its separator).
    @exclusivity(unchecked) var needsRedraw = false
    /// Whether an event changed the row's data away from what its item makes (properties,
    /// background, actions, a reload, accessories, swipe): such a row is never released, so
    /// what the event did stays.
    @exclusivity(unchecked) var dataChanged = false
    /// Accessories and swipe actions; nil for a row that has none (no work in its passes).
    @exclusivity(unchecked) var decorationState: RowDecorations?
    /// The row's outline level: its cell's `indentationLevel`.
    @exclusivity(unchecked) var indentationLevel = 0
    /// The row's separators when the list or its item sets them; the first update record of the
    /// row says what they are.
    @exclusivity(unchecked) var separators: ListSeparatorConfiguration? {
        didSet { separatorsToTrace = separators != nil }
    }
    @exclusivity(unchecked) var separatorsToTrace = false

    /// The separators in words, once: for the row's first update record after they were set.
    func takeSeparatorTrace() -> String? {
        separatorsToTrace = false
        return separators?.description
    }

    // What the coming update pass must report, gathered from the events of one pass.
    @exclusivity(unchecked) var causes: [String] = []
    @exclusivity(unchecked) var setByEvent: Set<String> = []
    @exclusivity(unchecked) var backgroundSetByEvent: Set<String> = []
    /// The configurations before any change of this pass; their properties are read only when
    /// the pass turns them into its trace. The background's outer optional is "not noted yet".
    @exclusivity(unchecked) var contentBefore: (any ContentConfiguration)?
    /// Whether the noted "before" configurations came from the view (not the row's data): a row
    /// made again could not know them, so it is not released until its pass takes them.
    @exclusivity(unchecked) var hasBeforeFromView = false
    @exclusivity(unchecked) var backgroundBefore: BackgroundConfiguration??
    /// The traced passes' last final stages as read in full: the next pass's "before" stages,
    /// and what a toggled state restyles back to.
    let recentContentReads = RecentFullReads<any ContentConfiguration>()
    let recentBackgroundReads = RecentFullReads<BackgroundConfiguration>()
    /// A fresh-form handler's starting point in the last pass (the data's configurations restyled
    /// for the state), kept only for the property trace: what the pass restyled, before the rules.
    @exclusivity(unchecked) var freshHandlerBase: (content: any ContentConfiguration, background: BackgroundConfiguration)?

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
            if contentBefore == nil {
                contentBefore = currentContent ?? configuration
                if view != nil { hasBeforeFromView = true }
            }
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
        dataChanged = true
        switch view {
        case .cell(let c): if let current = c.contentConfiguration { c.contentConfiguration = try transform(current) }
        case .headerFooter(let h): if let current = h.contentConfiguration { h.contentConfiguration = try transform(current) }
        case nil: break
        }
    }

    func changeBackground(_ name: String, to value: PropertyValue) throws(ConfigurationPropertyError) {
        background = try (background ?? pristineBackground).setting(name, to: value)
        dataChanged = true
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
            if decorationState != nil { attachDecorations() }
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
        cell.indentationLevel = indentationLevel
        if let separators { cell.separatorConfiguration = separators }
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
        installUpdateHandler(on: cell)
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

    // MARK: Release

    /// How the row can be released and made again from its item exactly as it is: a cell
    /// without a view whose data is as made (`dataChanged` unset) and whose pending update, if
    /// any, started from that data. `freshFlags`: the flags its item starts with. nil: it stays.
    func release(freshFlags: CellConfigurationState) -> RowRelease? {
        guard kind == .cell, view == nil, !dataChanged, !hasBeforeFromView else { return nil }
        if causes.isEmpty && flags == freshFlags {
            guard hasTracedState else { return .fresh }
            var traced = flags
            traced.traitCollection = tracedState.traitCollection
            if traced == tracedState { return .traced(tracedState.traitCollection) }
        }
        return .state(ReleasedRowState(flags: flags, traced: hasTracedState ? tracedState : nil, causes: causes))
    }

    /// A row made again from its item after its release takes back what was kept of it, so its
    /// next update record reads as that of a row that stayed.
    func restore(_ kept: ReleasedRowState) {
        flags = kept.flags
        if let traced = kept.traced { restoreTraced(traced) }
        for cause in kept.causes { noteCause(cause) }
    }

    /// The last traced state (`state`), and what the row's passes derived from it.
    func restoreTraced(_ state: CellConfigurationState) {
        lastStateWords = EngineRow.words(state)
        tracedState = state
        hasTracedState = true
        separatorsToTrace = false
        if recordsPropertyChanges { pristineValues = pristineStyleValues(state: state, configState: state) }
        decorationState?.restoreTraced(state)
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
        if recordsPropertyChanges { (self.contentBefore, self.backgroundBefore, hasBeforeFromView) = (nil, nil, false) }
        if !setByEvent.isEmpty { setByEvent.removeAll(keepingCapacity: true) }
        if !backgroundSetByEvent.isEmpty { backgroundSetByEvent.removeAll(keepingCapacity: true) }
        let causeText = causes.isEmpty ? "update" : causes.count == 1 ? causes[0] : causes.joined(separator: ", ")
        causes.removeAllKeepingStorage()
        var accessoryWords: String?, swipeWords: String?
        if let decorationState { (accessoryWords, swipeWords) = decorationState.traceWords(for: tracedState) }
        // Built in place, as one expression (see `CellUpdateTrace.init`). The accessories or the
        // swipe explain a new look better than the state's words.
        return CellUpdateTrace(
            cell: name, type: typeIdentifier, cause: causeText,
            stateBefore: stateBefore, stateAfter: stateAfter,
            changes: recorded.changes, view: outcome, supports: supports, size: size, frame: frame, damage: nil, micros: 0,
            repaint: accessoryWords == nil && swipeWords == nil ? recorded.repaint : nil,
            accessories: accessoryWords, swipe: swipeWords, handler: updateHandlerForm)
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
}
