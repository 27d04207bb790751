import Glibc
import CellKit
import CellRender

/// Runs an event stream through a list the way UIKit's update cycle would (UIKIT.md §6): each
/// event's actions change state (`apply`), requests coalesce into one update pass per cell, then
/// the frame loop's passes run (FrameLoop.swift: update → layout → draw → present → trace). Only
/// visible cells own content views; views of cells that scroll away go to a reuse pool for the
/// cells that scroll in. Every event yields one `TraceEvent`.
/// Event-path stored properties are `@exclusivity(unchecked)`: one thread owns it, their accesses never overlap.
public final class Engine {
    public struct Options {
        public var textMeasurer: any TextMeasuring
        /// nil = damage is computed without pixels (`DamageTracker`).
        public var renderer: (any FrameRenderer)?
        /// Where `frame-0001.png` … go; nil = no PNGs.
        public var framesDirectory: String?
        /// Numbered frames are written only for events that capture (named or not): a run that
        /// needs the captured pictures, not every frame, writes no other files.
        public var framesOnlyForCaptures = false
        /// Where named captures go as `<name><captureSuffix>.png`; nil = not written.
        public var capturesDirectory: String?
        /// Appended to every capture name: `.dark-AX3` for a run of a trait matrix combination.
        public var captureSuffix = ""
        public var tintColor: Color
        /// Whether each cell update's trace lists its property changes (old → new, why). Finding
        /// them reads every property of every configuration stage and diffs them, most of an
        /// update pass's cost; a run whose records nobody reads per property turns it off. Off,
        /// updates carry no `changes` and no `repaint` explanation; everything else is the same.
        public var recordsPropertyChanges: Bool
        /// Off: every redrawn row is recorded afresh and compared with its last recording, never
        /// patched in place (tests compare both ways).
        var patchesBackgrounds = true
        /// Called with (item id, property, stream line) before the scene check sets a property
        /// of a plugin's configuration: that runs the plugin's setter, and a worker announces it
        /// so a crash there is reported with the item and property. Not called after the check.
        public var willSetPluginProperty: ((String, String, Int) -> Void)?

        public init(textMeasurer: any TextMeasuring, renderer: (any FrameRenderer)? = nil, framesDirectory: String? = nil,
                    tintColor: Color = .tintColor, recordsPropertyChanges: Bool = true) {
            self.textMeasurer = textMeasurer
            self.renderer = renderer
            self.framesDirectory = framesDirectory
            self.tintColor = tintColor
            self.recordsPropertyChanges = recordsPropertyChanges
        }
    }

    /// A section keeps its items as the scene describes them (the scene's own list until an
    /// insert or delete changes it: a series stays templates plus a count) and makes an item's
    /// row only when the row is first shown or an event targets it, as a data source gives cells
    /// only for the rows on screen: a list of a million items holds no per-item row or slot.
    struct Section {
        var id: String
        var header: EngineRow?
        var items: ItemList {
            didSet { idIndex = nil }
        }
        /// The written items by id, made at the first lookup after the items last changed.
        var idIndex: ItemIDIndex?
        /// The rows made so far, by item index: only rows shown or targeted are here, so a million
        /// items whose first screen was shown cost a screenful of entries, not a million slots.
        var rows: [Int: EngineRow]
        var footer: EngineRow?
        /// What is kept of the rows released from `rows`.
        var released = ReleasedRows()
    }

    /// Items inserted (`delta` > 0) or removed (`delta` < 0) at `at` in section `section`: how
    /// a rebuilt layout moves the heights of the items after them.
    struct ItemShift {
        var section: Int
        var at: Int
        var delta: Int
    }

    public let scene: SceneDescription
    public let appearance: ListAppearance
    @exclusivity(unchecked) public private(set) var traits: TraitCollection
    @exclusivity(unchecked) public private(set) var contentOffset: Double = 0
    public var contentHeight: Double { listLayout.contentHeight }
    public internal(set) var frameCount = 0
    public internal(set) var totals = PhaseTimings()

    private let catalog: ConfigurationCatalog
    let options: Options
    let renderer: any FrameRenderer
    @exclusivity(unchecked) var sections: [Section] = []
    @exclusivity(unchecked) var rowsByName: [String: EngineRow] = [:] {
        didSet { lastTargetFound = nil }
    }
    /// The row the last event's target named: events in a row mostly target the same cell
    /// (highlighted, then not, then selected), so a matching target skips hashing its name.
    /// Invalid once any row is made or removed (`rowsByName` changes).
    @exclusivity(unchecked) private var lastTargetFound: (target: CellTarget, row: EngineRow)?
    /// Item rows made or whose views went back to the pool, oldest first: beyond
    /// `detachedRowsKept` of them, rows are far off screen and are released (`releaseFarRows`,
    /// once twice as many have gathered), so the rows alive are bounded by the viewport and
    /// this count, not by the rows ever shown or named by events.
    @exclusivity(unchecked) var detachedRows: [EngineRow] = []
    /// How many rows that left the viewport stay made: rows scrolling back soon keep theirs.
    @exclusivity(unchecked) var detachedRowsKept = 64
    /// The traits released rows were last traced under.
    @exclusivity(unchecked) var releasedRowTraits = ReleasedRowTraits()
    /// CellKit's list layout: slots, self-sized heights over estimates, the visible range.
    @exclusivity(unchecked) var listLayout: ListLayout
    /// The rows in the viewport as `visibleRows()` last found them (frames, clips and views
    /// current), reused while the layout and the scroll offset stay the same: an event that
    /// restyles a row without resizing it does not walk the layout again. `isAttached`: the
    /// attached views are exactly these rows' (a pass attached them after finding them).
    /// `isDrawn`: an event's draw walk went over these rows, so each one's layer shows its
    /// recording at its frame, and only rows an update pass touched since can need drawing.
    @exclusivity(unchecked) var visibleCache: (rows: [EngineRow], contentOffset: Double, isAttached: Bool, isDrawn: Bool)?
    /// Off: every pass walks the layout for its visible rows (tests compare both ways).
    @exclusivity(unchecked) var reusesVisibleRows = true
    /// Off: a state change to an item without a row makes its row (tests compare both ways).
    @exclusivity(unchecked) var appliesStateToUnmadeRows = true
    /// Rows that own a view now (the visible ones after a pass).
    @exclusivity(unchecked) var attached: [ObjectIdentifier: EngineRow] = [:]
    @exclusivity(unchecked) var pool = ViewPool()
    private let styleCache = PristineStyleCache()
    /// The cell background every item of the scene starts from, made once under the scene's
    /// traits (rows made later start from it too, as they would have at the start).
    @exclusivity(unchecked) private var sceneCellBackground: BackgroundConfiguration
    @exclusivity(unchecked) private var nextLayerID = 1
    /// Layer ids of released rows, handed out again before new ones: renderers keep layers in
    /// slots indexed by id (`LayerSlots`), so the ids in use must stay as few as the rows alive,
    /// not grow with every row a long scroll ever made. A released row has no layer (it has no
    /// view), so no renderer holds anything under a freed id.
    @exclusivity(unchecked) private var freeLayerIDs: [Int] = []
    let listBackgroundLayer = 0
    @exclusivity(unchecked) var listBackgroundColor: Color?
    /// The traits `listBackgroundColor` was resolved under: the colour changes only with them.
    @exclusivity(unchecked) var listBackgroundTraits: TraitCollection?
    let startTime = Engine.now()
    /// The storage of a pass's working lists, kept between events (emptied) so an event does not
    /// allocate them afresh.
    @exclusivity(unchecked) var updatedRowsStorage: [EngineRow] = []
    @exclusivity(unchecked) var redrawnRowsStorage: [RedrawnRow] = []
    /// The last trace record's lists, shared with it: once whoever got the record dropped it, the
    /// next event refills this storage (`takeForRefill`) instead of allocating its own.
    @exclusivity(unchecked) var lastUpdates: [CellUpdateTrace] = []
    @exclusivity(unchecked) var lastFrames: [FrameTrace] = []
    /// The last frame written to the frames directory: a frame that shows the same pixels
    /// points at its file instead of writing another.
    @exclusivity(unchecked) var lastWrittenFrame: (index: Int, file: String)?
    /// Whether the event being applied captures (named or not).
    @exclusivity(unchecked) var eventCaptures = false
    /// Named captures the event being applied asked for, written once its frame is rendered.
    @exclusivity(unchecked) var pendingCaptures: [(name: String, cell: String?)] = []
    /// The first named capture that could not be written: the run's outputs are incomplete.
    var captureWriteFailure: String?
    /// The list's outline (items with children); nil for a list without one.
    @exclusivity(unchecked) var outline: EngineOutline?
    /// What this event's outline changes did, for its trace record.
    @exclusivity(unchecked) var outlineTraces: [OutlineTrace] = []
    /// Whether section headers stick to the top (plain lists with headers); read once.
    @exclusivity(unchecked) var pinsHeaders = false
    /// The header stuck to the top now, if any.
    @exclusivity(unchecked) var pinnedHeader: EngineRow?

    public convenience init(scene: SceneDescription, catalog: ConfigurationCatalog, options: Options) throws(EngineError) {
        try self.init(scene: scene, catalog: catalog, options: options, itemIndexes: nil)
    }

    /// `itemIndexes`: the parser's index of each section's written items
    /// (`EventStreamParser.sceneItemIndexes`), taken instead of indexing a long list again.
    init(scene: SceneDescription, catalog: ConfigurationCatalog, options: Options, itemIndexes: [ItemIDIndex]?) throws(EngineError) {
        self.scene = scene
        self.appearance = ListAppearance(scene.appearance) ?? .insetGrouped
        self.catalog = catalog
        self.options = options
        self.renderer = options.renderer ?? DamageTracker(viewport: scene.viewport, scale: scene.scale)
        var traits = scene.traits
        traits.listEnvironment = appearance.listEnvironment
        self.traits = traits
        listLayout = ListLayout(appearance: appearance, width: scene.viewport.width, sections: [],
                                rowInset: appearance.rowInset(for: traits, listWidth: scene.viewport.width))
        rowWidth = listLayout.rowWidth
        sceneCellBackground = BackgroundConfiguration(style: appearance.defaultBackgroundStyle(for: .cell))
            .updated(for: CellConfigurationState(traitCollection: traits))
        isCheckingScene = true
        defer { isCheckingScene = false; checkedListPristines = [:] }
        for s in scene.sections {
            var section = Section(id: s.id, items: Engine.visibleItems(s.items, outline: &outline), rows: [:])
            if let h = s.header { section.header = try makeHeaderFooter(section: s.id, text: h, kind: .header, content: s.headerContent) }
            // Every item is checked now (bad input fails before the first event), its row made later.
            // A series' items differ only in their ids: the first item of each template stands for all.
            for run in s.items.runs {
                switch run {
                case .items(let items):
                    for item in items {
                        _ = try rowContent(item, pristineBackground: sceneCellBackground)
                        guard !item.children.isEmpty else { continue }
                        for d in item.outlineDescendants { _ = try rowContent(d, pristineBackground: sceneCellBackground) }
                    }
                case .columns(let columns):
                    try checkItems(columns, pristineBackground: sceneCellBackground)
                case .series(let series):
                    for k in 0..<min(series.count, series.templates.count) {
                        _ = try rowContent(series.item(at: k), pristineBackground: sceneCellBackground)
                    }
                }
            }
            if let f = s.footer { section.footer = try makeHeaderFooter(section: s.id, text: f, kind: .footer, content: s.footerContent) }
            // Made with the list, so no event pays for indexing a long written list. The parser's
            // index of the section serves when the rows are the items as written (no outline) and
            // it holds every written item.
            if section.items.hasWrittenItems {
                if let given = itemIndexes?[sections.count], !Engine.hasChildren(s.items), given.count == section.items.writtenCount {
                    section.idIndex = given
                } else {
                    section.idIndex = ItemIDIndex(section.items)
                }
            }
            sections.append(section)
        }
        pinsHeaders = appearance == .plain && sections.contains { $0.header != nil }
        rebuildLayout()
    }

    // MARK: Geometry (UIKit's list metrics, from the list appearance)

    /// The width rows are laid out at: fixed by the viewport and the appearance, read once (a
    /// property of the layout, a struct, is read from a copy of the whole layout).
    @exclusivity(unchecked) private(set) var rowWidth: Double

    // MARK: Building rows

    /// Whether the list made a configuration of a plugin's type or was given an item of one
    /// (`pluginCodeMayRun(during:)`): until then, only built-in content runs. Never unset: a
    /// row of a plugin's type may be made, shown or released by any later event.
    @exclusivity(unchecked) private var holdsPluginContent = false

    /// Whether plugin code may run while `event` runs: always once the list holds an item of a
    /// plugin's type, or `event` inserts one. Otherwise every configuration, view and drawing
    /// the event touches is built in (plugins' threads aside, which run when they like).
    public func pluginCodeMayRun(during event: Event) -> Bool {
        if !holdsPluginContent, event.actions.contains(where: Engine.insertsPluginContent) { holdsPluginContent = true }
        return holdsPluginContent
    }

    private static func insertsPluginContent(_ action: EventAction) -> Bool {
        guard case .insert(let item, _, _) = action else { return false }
        return !item.isListContent || item.outlineDescendants.contains { !$0.isListContent }
    }

    /// True while `init` checks every item; only then are plugin setters announced.
    private var isCheckingScene = false
    /// While `init` checks, list content as each style's factory makes it: the same for every
    /// item of the style, so a million items alike make it once.
    private var checkedListPristines: [String?: ListContentConfiguration] = [:]

    private func willSet(_ item: ItemDescription, _ property: String) {
        if isCheckingScene, !item.isListContent, let announce = options.willSetPluginProperty {
            announce(item.id, property, item.line)
        }
    }

    func makeRow(_ item: ItemDescription, pristineBackground: BackgroundConfiguration) throws(EngineError) -> EngineRow {
        let (pristine, content, background) = try rowContent(item, pristineBackground: pristineBackground)
        let row = EngineRow(name: item.id, kind: .cell, layerID: takeLayerID(), item: item, pristine: pristine,
                            configuration: content, pristineBackground: pristineBackground, background: background,
                            estimatedHeight: 44, width: rowWidth,
                            pristineKey: "\(item.type)/\(item.style ?? "")", styleCache: styleCache,
                            recordsPropertyChanges: options.recordsPropertyChanges)
        if !item.decorations.isEmpty { row.decorationState = RowDecorations(item.decorations) }
        rowsByName[item.id] = row
        if outline != nil { takeOutlinePlace(of: row) }
        if let separators = item.separators ?? scene.separators { row.separators = separators }
        return row
    }

    /// The row of item `index` of section `section`, made now if it was not needed before.
    /// A row released earlier is made again from its item and takes back what was kept of it
    /// (`ReleasedRows`): its traced state, and its measured height from the layout.
    func row(section: Int, item index: Int) throws(EngineError) -> EngineRow {
        if let r = sections[section].rows[index] { return r }
        let r = try makeRow(sections[section].items[index], pristineBackground: sceneCellBackground)
        if let slot = listLayout.slot(of: .item(ListIndexPath(section: section, item: index))) {
            r.slot = slot
            if listLayout.isMeasured(slot: slot) {
                r.isMeasured = true
                r.size = Size(width: rowWidth, height: listLayout.frame(ofSlot: slot).height)
            }
        }
        let mark = sections[section].released.mark(at: index)
        if mark != 0 {
            var traced = r.flags
            traced.traitCollection = releasedRowTraits.traits(numbered: mark)
            r.restoreTraced(traced)
            sections[section].released.setMark(0, at: index, itemCount: sections[section].items.count)
        } else if let kept = sections[section].released.takeState(at: index) {
            r.restore(kept)
        }
        sections[section].rows[index] = r
        detachedRows.append(r)
        return r
    }

    /// The flags a row of item `id` starts with: an outline parent shown expanded is expanded.
    func freshFlags(ofItem id: String) -> CellConfigurationState {
        var flags = CellConfigurationState()
        if outline?.nodes[id]?.isExpanded == true { flags.isExpanded = true }
        return flags
    }

    /// Releases the rows made or detached longest ago beyond `detachedRowsKept`, when their
    /// item makes them again exactly as they are (`EngineRow.release`); others stay. Rows on
    /// screen now, some perhaps still without a view, are never released.
    func releaseFarRows() throws(EngineError) {
        let excess = detachedRows.count - detachedRowsKept
        guard excess > 0 else { return }
        let visible = Set(try visibleRows().map(ObjectIdentifier.init))
        for r in detachedRows[..<excess] where !visible.contains(ObjectIdentifier(r)) { release(r) }
        detachedRows.removeFirst(excess)
    }

    private func release(_ r: EngineRow) {
        guard r.view == nil, r.layerFrame == nil, rowsByName[r.name] === r, case .item(let p)? = listLayout.row(atSlot: r.slot),
              sections[p.section].rows[p.item] === r,
              let how = r.release(freshFlags: freshFlags(ofItem: r.name)) else { return }
        switch how {
        case .fresh:
            break
        case .traced(let traits):
            if let k = releasedRowTraits.number(of: traits) {
                sections[p.section].released.setMark(k, at: p.item, itemCount: sections[p.section].items.count)
            } else {
                var traced = r.flags
                traced.traitCollection = traits
                sections[p.section].released.keep(ReleasedRowState(flags: r.flags, traced: traced, causes: []), at: p.item)
            }
        case .state(let state):
            sections[p.section].released.keep(state, at: p.item)
        }
        sections[p.section].rows[p.item] = nil
        rowsByName[r.name] = nil
        freeLayerIDs.append(r.layerID)
    }

    /// An item's configurations as its description sets them up, with every property its update
    /// handler sets checked (the handler runs inside the cell, where it cannot fail).
    func rowContent(_ item: ItemDescription, pristineBackground: BackgroundConfiguration) throws(EngineError)
        -> (pristine: any ContentConfiguration, content: any ContentConfiguration, background: BackgroundConfiguration?) {
        let (pristine, content) = try initialContent(item)
        var background: BackgroundConfiguration?
        if let b = item.background {
            do {
                var config = try b.style.map { s throws(ConfigurationProviderError) in try ListContentProvider.background(style: s) }
                    ?? pristineBackground
                for a in b.properties { config = try config.setting(a.name, to: a.value) }
                background = config
            } catch let error as ConfigurationPropertyError {
                throw EngineError("item \"\(item.id)\" background: \(error)", line: item.line)
            } catch {
                throw EngineError("item \"\(item.id)\" background: \(error)", line: item.line)
            }
        }
        for rule in item.handlers {
            for a in rule.set {
                willSet(item, a.name)
                do { _ = try content.setting(a.name, to: a.value) }
                catch { throw EngineError("item \"\(item.id)\" handler: \(error)", line: item.line) }
            }
            for a in rule.background {
                do { _ = try (background ?? pristineBackground).setting(a.name, to: a.value) }
                catch { throw EngineError("item \"\(item.id)\" handler: \(error)", line: item.line) }
            }
        }
        return (pristine, content, background)
    }

    func defaultBackground(for role: ConfigurableViewRole) -> BackgroundConfiguration {
        BackgroundConfiguration(style: appearance.defaultBackgroundStyle(for: role))
            .updated(for: CellConfigurationState(traitCollection: traits))
    }

    /// The item's configuration as its factory makes it, and as its description sets it up.
    private func initialContent(_ item: ItemDescription) throws(EngineError)
        -> (pristine: any ContentConfiguration, content: any ContentConfiguration) {
        let pristine: any ContentConfiguration
        if isCheckingScene, item.isListContent, let made = checkedListPristines[item.style] {
            pristine = made
        } else {
            do { pristine = try catalog.makeConfiguration(type: item.type, style: item.style, appearance: scene.appearance) }
            catch { throw EngineError("item \"\(item.id)\": \(error)", line: item.line) }
            if isCheckingScene, item.isListContent, let list = pristine as? ListContentConfiguration {
                checkedListPristines[item.style] = list
            }
        }
        if !item.isListContent { holdsPluginContent = true }
        var content = pristine
        for a in item.properties {
            willSet(item, a.name)
            do { content = try content.setting(a.name, to: a.value) }
            catch { throw EngineError("item \"\(item.id)\": \(error)", line: item.line) }
        }
        return (pristine, content)
    }

    private func makeHeaderFooter(section: String, text: String, kind: EngineRow.Kind,
                                  content described: ItemDescription?) throws(EngineError) -> EngineRow {
        let role: ConfigurableViewRole = kind == .header ? .header : .footer
        let name = (kind == .header ? "header:" : "footer:") + section
        var pristine: any ContentConfiguration, content: any ContentConfiguration
        var background: BackgroundConfiguration?
        if let described {
            (pristine, content, background) = try headerFooterContent(described, role: role)
        } else {
            var plain = ListContentConfiguration(style: appearance.defaultContentStyle(for: role))
                .updated(for: CellConfigurationState(traitCollection: traits))
            plain.text = text
            pristine = plain
            content = plain
        }
        let row = EngineRow(name: name, kind: kind, layerID: takeLayerID(), item: nil, pristine: pristine,
                            configuration: content, pristineBackground: defaultBackground(for: role), background: background,
                            estimatedHeight: 28, width: rowWidth, pristineKey: name, styleCache: styleCache,
                            recordsPropertyChanges: options.recordsPropertyChanges)
        rowsByName[name] = row
        return row
    }

    private func takeLayerID() -> Int {
        if let id = freeLayerIDs.popLast() { return id }
        defer { nextLayerID += 1 }
        return nextLayerID
    }

    /// How many layer ids were ever handed out, each reused one counted once: the slots a
    /// renderer's layers take (tests bound it).
    var layerIDCount: Int { nextLayerID - 1 }

    /// How many rows exist (headers and footers included): the rows shown or targeted so far.
    var madeRowCount: Int { rowsByName.count }

    // MARK: Running

    /// The header record of this run's trace.
    public func traceHeader(source: String, plugins: [String]) -> TraceHeader {
        let t = traits
        var words = [t.userInterfaceStyle.rawValue, t.preferredContentSizeCategory.shortName,
                     t.layoutDirection == .leftToRight ? "ltr" : "rtl"]
        if t.accessibilityContrast == .high { words.append("high contrast") }
        if t.userInterfaceLevel == .elevated { words.append("elevated") }
        if t.legibilityWeight == .bold { words.append("bold text") }
        if t.userInterfaceIdiom == .pad { words.append("pad") }
        return TraceHeader(source: source, appearance: scene.appearance.rawValue, viewport: scene.viewport,
                           scale: scene.scale, traits: words, itemCount: scene.itemCount, plugins: plugins)
    }

    /// Displays the list for the first time (event 0): every visible cell's first update runs
    /// before its first frame.
    public func start() throws(EngineError) -> TraceEvent {
        try process(Event(number: 0, line: 0, actions: []), summary: EventSummary("first display"), forceFrame: true)
    }

    public func run(_ event: Event) throws(EngineError) -> TraceEvent {
        var forceFrame = false
        // Read in place: actions taken out of the array one by one are copied.
        try event.actions.withUnsafeBufferPointer { (actions) throws(EngineError) in
            for i in actions.indices {
                do throws(EngineError) { try apply(actions[i], forceFrame: &forceFrame) }
                catch { throw EngineError(error.message, line: event.line) }
            }
        }
        let record = try process(event, summary: EventSummary(describing: event.actions), forceFrame: forceFrame)
        if !pendingCaptures.isEmpty { try writePendingCaptures(line: event.line) }
        if eventCaptures { eventCaptures = false }
        return record
    }

    /// Waits for frame files; returns a message when one (or a named capture) could not be written.
    public func finish() -> String? { renderer.finish() ?? captureWriteFailure }

    func row(for target: CellTarget) throws(EngineError) -> EngineRow {
        if let last = lastTargetFound, last.target == target { return last.row }
        if let r = rowsByName[target.description] {
            lastTargetFound = (target, r)
            return r
        }
        if case .cell(let id) = target {
            // An item whose row was not needed yet: found by its description, made now.
            for si in sections.indices {
                if let i = itemIndex(ofID: id, inSection: si) { return try row(section: si, item: i) }
            }
        }
        if case .cell(let id) = target, let hidden = hiddenReason(id) { throw EngineError(hidden) }
        throw EngineError("no \(target) in the list")
    }

    /// The index of item `id` in section `si`: series by arithmetic, written items through the
    /// section's id index (made now if the items changed since it was last made).
    func itemIndex(ofID id: String, inSection si: Int) -> Int? {
        if let i = sections[si].items.seriesIndex(ofID: id) { return i }
        guard sections[si].items.hasWrittenItems else { return nil }
        if sections[si].idIndex == nil { sections[si].idIndex = ItemIDIndex(sections[si].items) }
        return sections[si].idIndex?.index(of: id, in: sections[si].items)
    }

    // MARK: Apply pass

    /// The apply pass, once per action of an event: the action changes the rows' data, their
    /// views' state and the list's traits, scroll offset or items. Nothing is updated, laid out
    /// or drawn here; requests coalesce until the frame loop (`process`). `forceFrame`: the
    /// action asks for a frame even if nothing is damaged (a capture; a delete, whose layer goes).
    private func apply(_ action: EventAction, forceFrame: inout Bool) throws(EngineError) {
        switch action {
        case .cells(let e):
            let cause = Engine.cause(of: e)
            let onlyState = cause == "state"
            for target in e.targets {
                if onlyState, appliesStateToUnmadeRows, applyToUnmadeRow(e.state, target: target) { continue }
                try apply(e, to: try row(for: target), cause: cause)
            }
        case .traits(let change):
            applyTraits(change, cause: EventSummary.text(of: [action]))
        case .scroll(let s):
            switch s {
            case .to(let y): contentOffset = y
            case .by(let dy): contentOffset += dy
            }
        case .insert(let item, let sectionID, let index):
            if item.children.isEmpty { try insert(item, inSection: sectionID, at: index) }
            else { try insertOutlineItem(item, inSection: sectionID, at: index) }
        case .delete(let id):
            var wasHidden = false
            if outline != nil { wasHidden = try deleteFromOutline(id) }
            if !wasHidden { try delete(id) }
            forceFrame = true
        case .outline(let change):
            try applyOutline(change, forceFrame: &forceFrame)
        case .reload(let id):
            try reload(id)
        case .capture(let name, let cell):
            forceFrame = true
            eventCaptures = true
            if let name, options.capturesDirectory != nil { pendingCaptures.append((name, cell)) }
        }
    }

    /// A cell event on one row: its state, then properties set, background properties set and
    /// actions performed, in that order, each also on the row's view while it has one.
    @inline(__always)
    private func apply(_ e: CellEvent, to r: EngineRow, cause: String) throws(EngineError) {
        r.noteCause(cause)
        if r.decorationState?.isSwipeOpen == true { r.applyState(r.tapClosingSwipe(e.state)) } else { r.applyState(e.state) }
        for a in e.set {
            do { try r.changeContent { c throws(ConfigurationPropertyError) in try c.setting(a.name, to: a.value) } }
            catch { throw EngineError("\(r.name): \(error)") }
            if r.recordsPropertyChanges { r.setByEvent.insert(a.name) }
        }
        for a in e.background {
            do { try r.changeBackground(a.name, to: a.value) }
            catch { throw EngineError("\(r.name) background: \(error)") }
            if r.recordsPropertyChanges { r.backgroundSetByEvent.insert(a.name) }
        }
        for call in e.perform {
            let before = r.recordsPropertyChanges ? r.configuration.inspectableProperties : []
            do {
                try r.changeContent { c throws(ConfigurationPropertyError) in
                    try c.performing(call.name, arguments: call.arguments)
                }
            } catch { throw EngineError("\(r.name): \(error)") }
            // What an action changed counts as set by the event (only the trace asks).
            guard r.recordsPropertyChanges else { continue }
            let oldByName = Dictionary(before.map { ($0.name, $0.value) }, uniquingKeysWith: { a, _ in a })
            for p in r.configuration.inspectableProperties where oldByName[p.name] != p.value {
                r.setByEvent.insert(p.name)
            }
        }
        if e.setNeedsUpdateConfiguration || !e.perform.isEmpty { r.setNeedsUpdateConfiguration() }
        if e.accessories != nil || e.swipe != nil {
            try r.applyDecorationChanges(accessories: e.accessories, swipe: e.swipe, fullSwipe: e.fullSwipe)
        }
    }

    /// A state change to an item whose row is not made (never needed, or released): it is kept
    /// with what was kept of the released row, exactly as making the row, changing it and
    /// releasing it again would keep it (a row a state change was noted on is released with its
    /// state), without making it. The row is made when it shows, or when an event needs more
    /// than its state. False, and nothing changed, for items whose rows need more than their
    /// flags to take a state (outlines, accessories or swipe actions).
    private func applyToUnmadeRow(_ change: StateChange, target: CellTarget) -> Bool {
        guard outline == nil, case .cell(let id) = target, rowsByName[id] == nil else { return false }
        for si in sections.indices {
            guard let i = itemIndex(ofID: id, inSection: si) else { continue }
            guard sections[si].rows[i] == nil, sections[si].items[i].decorations.isEmpty else { return false }
            let fresh = freshFlags(ofItem: id)
            var kept: ReleasedRowState
            let mark = sections[si].released.mark(at: i)
            if mark != 0 {
                var traced = fresh
                traced.traitCollection = releasedRowTraits.traits(numbered: mark)
                kept = ReleasedRowState(flags: fresh, traced: traced, causes: [])
                sections[si].released.setMark(0, at: i, itemCount: sections[si].items.count)
            } else {
                kept = sections[si].released.takeState(at: i) ?? ReleasedRowState(flags: fresh, traced: nil, causes: [])
            }
            if !kept.causes.contains("state") { kept.causes.append("state") }
            change.apply(to: &kept.flags)
            sections[si].released.keep(kept, at: i)
            return true
        }
        return false
    }

    /// New traits reach every view on screen; every row sizes itself again under them, its old
    /// height kept as an estimate.
    private func applyTraits(_ change: TraitChange, cause: String) {
        change.apply(to: &traits)
        for r in attached.values {
            r.noteCause(cause)
            r.setTraits(traits)
        }
        for r in rowsByName.values { r.isMeasured = false }
        listLayout.invalidateMeasurements()
        visibleCache = nil
        // The idiom and the width class move an inset-grouped list's rows (a pad's readable width).
        if appearance.rowInset(for: traits, listWidth: scene.viewport.width) != listLayout.rowInset {
            rebuildLayout()
            rowWidth = listLayout.rowWidth
        }
    }

    func insert(_ item: ItemDescription, inSection sectionID: String, at index: Int?) throws(EngineError) {
        guard let si = sections.firstIndex(where: { $0.id == sectionID }) else { throw EngineError("no section \"\(sectionID)\"") }
        let r = try makeRow(item, pristineBackground: defaultBackground(for: .cell))
        let at = min(max(0, index ?? sections[si].items.count), sections[si].items.count)
        sections[si].items.insert(item, at: at)
        sections[si].released.insert(count: 1, at: at)
        sections[si].rows = Engine.shifting(sections[si].rows, from: at, by: 1)
        sections[si].rows[at] = r
        r.noteCause("inserted")
        rebuildLayout(shift: ItemShift(section: si, at: at, delta: 1))
    }

    /// The row goes from its section, its view to the pool and its layer from the renderer.
    func delete(_ id: String) throws(EngineError) {
        let r = try row(for: .cell(id))
        var shift: ItemShift?
        for si in sections.indices {
            if let i = sections[si].rows.first(where: { $0.value === r })?.key {
                sections[si].items.remove(at: i)
                sections[si].released.remove(count: 1, at: i)
                sections[si].rows[i] = nil
                sections[si].rows = Engine.shifting(sections[si].rows, from: i + 1, by: -1)
                shift = ItemShift(section: si, at: i, delta: -1)
            }
        }
        rowsByName[id] = nil
        attached[ObjectIdentifier(r)] = nil
        r.detachView(to: &pool)
        rebuildLayout(shift: shift)
        renderer.removeLayer(r.layerID)
        r.layerFrame = nil
    }

    /// The row's configuration as its description makes it afresh, as a data source reloading
    /// an item does; the row updates in the next pass.
    private func reload(_ id: String) throws(EngineError) {
        let r = try row(for: .cell(id))
        guard let item = r.item else { return }
        r.noteCause("reload")
        let (pristine, content) = try initialContent(item)
        r.pristineContent = pristine
        try? r.changeContent { _ in content }
        r.setNeedsUpdateConfiguration()
    }

    /// Called after every frame the engine renders: a worker tells its supervisor it is alive,
    /// so an event with many frames waiting for the PNG encoder is not mistaken for a hang.
    @exclusivity(unchecked) public var onFrame: (() -> Void)?

    public static func frameFileName(_ index: Int) -> String {
        let digits = String(index)
        return "frame-" + String(repeating: "0", count: max(0, 4 - digits.count)) + digits + ".png"
    }

    // MARK: Layout

    /// A new layout for the current sections (after inserts and deletes), keeping the heights
    /// rows have measured; the others start from estimates, as UIKit's estimated sizes. Items'
    /// measured heights come from the old layout, moved by `shift` (a released row has no object
    /// to carry its height); made rows then place theirs, as they measured them.
    func rebuildLayout(shift: ItemShift? = nil) {
        let shapes = sections.map { ListSectionShape(itemCount: $0.items.count, hasHeader: $0.header != nil, hasFooter: $0.footer != nil) }
        var layout = ListLayout(appearance: appearance, width: scene.viewport.width, sections: shapes,
                                rowInset: appearance.rowInset(for: traits, listWidth: scene.viewport.width))
        let old = listLayout
        old.forEachMeasuredSlot { slot, height in
            guard case .item(var p)? = old.row(atSlot: slot) else { return }
            if let shift, p.section == shift.section, p.item >= shift.at {
                if shift.delta < 0 && p.item < shift.at - shift.delta { return }
                p.item += shift.delta
            }
            if let newSlot = layout.slot(of: .item(p)) { layout.setMeasuredHeight(height, forSlot: newSlot) }
        }
        func place(_ row: EngineRow, at listRow: ListRow) {
            guard let slot = layout.slot(of: listRow) else { return }
            row.slot = slot
            if row.isMeasured { layout.setMeasuredHeight(row.size.height, forSlot: slot) }
        }
        for (si, section) in sections.enumerated() {
            // In item order, as the heights' running sums were built before (the same rounding every run).
            for (i, row) in section.rows.sorted(by: { $0.key < $1.key }) {
                place(row, at: .item(ListIndexPath(section: si, item: i)))
            }
            if let h = section.header { place(h, at: .header(section: si)) }
            if let f = section.footer { place(f, at: .footer(section: si)) }
        }
        listLayout = layout
        visibleCache = nil
    }

    /// Made rows keyed by item index, with the indices at or after `start` moved by `delta`
    /// (after an insert or delete).
    static func shifting(_ rows: [Int: EngineRow], from start: Int, by delta: Int) -> [Int: EngineRow] {
        var shifted: [Int: EngineRow] = [:]
        shifted.reserveCapacity(rows.count)
        for (i, row) in rows { shifted[i >= start ? i + delta : i] = row }
        return shifted
    }

    /// Clamps the scroll offset to the content (as a scroll view does).
    func layout() {
        contentOffset = min(max(0, contentOffset), max(0, listLayout.contentHeight - scene.viewport.height))
    }

    /// Each visible row's last recording by row name (tests compare them).
    func visibleDrawings() throws(EngineError) -> [String: DisplayList] {
        var drawings: [String: DisplayList] = [:]
        for r in try visibleRows() { drawings[r.name] = r.drawing }
        return drawings
    }

    /// The rows in the viewport, with their frames and section clips brought up to date.
    func visibleRows() throws(EngineError) -> [EngineRow] {
        if reusesVisibleRows, let visibleCache, visibleCache.contentOffset == contentOffset { return visibleCache.rows }
        let listLayout = self.listLayout
        var visible: [EngineRow] = []
        for listRow in listLayout.visibleRows(viewportHeight: scene.viewport.height, contentOffset: contentOffset) {
            let row: EngineRow?
            switch listRow {
            case .header(let s): row = sections[s].header
            case .footer(let s): row = sections[s].footer
            case .item(let p): row = try self.row(section: p.section, item: p.item)
            }
            guard let row else { continue }
            if case .item(let p) = listRow { row.isLastInSection = p.item == sections[p.section].items.count - 1 }
            row.frame = listLayout.frame(ofSlot: row.slot)
            row.size = row.frame.size
            row.clip = row.kind == .cell ? listLayout.sectionClip(forSlot: row.slot) : nil
            visible.append(row)
        }
        if pinsHeaders { pinHeaders(&visible) }
        visibleCache = (visible, contentOffset, false, false)
        return visible
    }

    // MARK: Words

    static func cause(of e: CellEvent) -> String {
        // A plain state change, the common event, names its cause without building it.
        if e.set.isEmpty, e.background.isEmpty, e.perform.isEmpty, !e.setNeedsUpdateConfiguration, e.accessories == nil,
           e.swipe == nil {
            return e.state.isEmpty ? "" : "state"
        }
        var text = ""
        func part(_ word: String) {
            if !text.isEmpty { text += "+" }
            text += word
        }
        if !e.state.isEmpty { part("state") }
        if !e.set.isEmpty || !e.background.isEmpty { part("set") }
        if !e.perform.isEmpty { part("perform") }
        if e.setNeedsUpdateConfiguration { part("setNeedsUpdateConfiguration") }
        if e.accessories != nil { part("accessories") }
        if e.swipe != nil { part("swipe") }
        return text
    }

    static func now() -> Double {
        var ts = timespec()
        clock_gettime(CLOCK_MONOTONIC, &ts)
        return Double(ts.tv_sec) + Double(ts.tv_nsec) / 1e9
    }

    static func micros(since start: Double) -> Double { (now() - start) * 1e6 }
}
