#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import CellKit

/// Runs an event stream through a list the way UIKit's update cycle would (UIKIT.md §6): each
/// event changes state, requests coalesce into one update pass per cell, then `updated(for:)` →
/// hooks → reuse-or-replace → self-sizing → layout → draw (DisplayList) → damage → composite →
/// frame out. Only visible cells own content views; views of cells that scroll away go to a reuse
/// pool for the cells that scroll in. Every event yields one `TraceEvent`.
public final class Engine {
    public struct Options {
        public var textMeasurer: any TextMeasuring
        /// nil = damage is computed without pixels (`DamageTracker`).
        public var renderer: (any FrameRenderer)?
        /// Where `frame-0001.png` … go; nil = no PNGs.
        public var framesDirectory: String?
        public var tintColor: Color

        public init(textMeasurer: any TextMeasuring, renderer: (any FrameRenderer)? = nil, framesDirectory: String? = nil,
                    tintColor: Color = .tintColor) {
            self.textMeasurer = textMeasurer
            self.renderer = renderer
            self.framesDirectory = framesDirectory
            self.tintColor = tintColor
        }
    }

    struct Section {
        var id: String
        var header: EngineCell?
        var items: [EngineCell]
        var footer: EngineCell?
        var rows: [EngineCell] { (header.map { [$0] } ?? []) + items + (footer.map { [$0] } ?? []) }
    }

    public let scene: SceneDescription
    public private(set) var traits: TraitCollection
    public private(set) var contentOffset: Double = 0
    public private(set) var contentHeight: Double = 0
    public private(set) var frameCount = 0
    public private(set) var totals = PhaseTimings()

    private let catalog: ConfigurationCatalog
    private let options: Options
    private let renderer: any FrameRenderer
    private var sections: [Section] = []
    private var cellsByID: [String: EngineCell] = [:]
    private var pool: [any ContentView] = []
    private var nextLayerID = 1
    private let listBackgroundLayer = 0
    private var listBackgroundColor: Color?
    private let startTime = Engine.now()

    public init(scene: SceneDescription, catalog: ConfigurationCatalog, options: Options) throws(EngineError) {
        self.scene = scene
        self.catalog = catalog
        self.options = options
        self.renderer = options.renderer ?? DamageTracker(viewport: scene.viewport, scale: scene.scale)
        var traits = scene.traits
        traits.listEnvironment = scene.appearance
        self.traits = traits
        for s in scene.sections {
            var section = Section(id: s.id, items: [])
            if let h = s.header { section.header = try makeHeaderFooter(section: s.id, text: h, isHeader: true) }
            for item in s.items { section.items.append(try makeCell(item)) }
            if let f = s.footer { section.footer = try makeHeaderFooter(section: s.id, text: f, isHeader: false) }
            sections.append(section)
        }
    }

    // MARK: Geometry constants (UIKit's list metrics)

    /// Horizontal inset of rows from the viewport edges: inset-grouped and sidebar lists float
    /// their sections as cards.
    var rowInset: Double {
        switch scene.appearance {
        case .insetGrouped: scene.viewport.width >= 400 ? 20 : 16
        case .sidebar: 10
        default: 0
        }
    }
    var rowWidth: Double { max(1, scene.viewport.width - 2 * rowInset) }
    /// Space above a section without a header, and below the last row of each section.
    var sectionSpacing: Double { scene.appearance == .plain ? 0 : 17.5 }

    var layoutContext: LayoutContext {
        LayoutContext(traits: traits, textMeasurer: options.textMeasurer, tintColor: options.tintColor)
    }

    // MARK: Building cells

    private func makeCell(_ item: ItemDescription) throws(EngineError) -> EngineCell {
        let (pristine, content) = try initialContent(item)
        let background: BackgroundConfiguration
        do { background = try ListContentProvider.background(style: item.background?.style, isHeaderOrFooter: false, isHeader: false) }
        catch { throw EngineError("item \"\(item.id)\": \(error)", line: item.line) }
        let cell = EngineCell(name: item.id, kind: .cell, layerID: takeLayerID(), item: item, pristine: pristine, content: content,
                              background: background, estimatedHeight: 44, width: rowWidth)
        for a in item.background?.properties ?? [] {
            do { cell.background = try cell.background.setting(a.name, to: a.value) }
            catch { throw EngineError("item \"\(item.id)\" background: \(error)", line: item.line) }
        }
        cellsByID[item.id] = cell
        return cell
    }

    /// The item's configuration as its factory makes it, and as its description sets it up.
    private func initialContent(_ item: ItemDescription) throws(EngineError)
        -> (pristine: any ContentConfiguration, content: any ContentConfiguration) {
        let pristine: any ContentConfiguration
        do { pristine = try catalog.makeConfiguration(type: item.type, style: item.style, appearance: scene.appearance) }
        catch { throw EngineError("item \"\(item.id)\": \(error)", line: item.line) }
        var content = pristine
        for a in item.properties {
            do { content = try content.setting(a.name, to: a.value) }
            catch { throw EngineError("item \"\(item.id)\": \(error)", line: item.line) }
        }
        return (pristine, content)
    }

    private func makeHeaderFooter(section: String, text: String, isHeader: Bool) throws(EngineError) -> EngineCell {
        let background: BackgroundConfiguration
        do { background = try ListContentProvider.background(style: nil, isHeaderOrFooter: true, isHeader: isHeader) }
        catch { throw EngineError("section \"\(section)\": \(error)") }
        let name = (isHeader ? "header:" : "footer:") + section
        let content = ListContentProvider.headerFooter(isHeader: isHeader, text: text)
        let cell = EngineCell(name: name, kind: isHeader ? .header : .footer, layerID: takeLayerID(), item: nil,
                              pristine: content, content: content,
                              background: background, estimatedHeight: 28, width: rowWidth)
        cellsByID[name] = cell
        return cell
    }

    private func takeLayerID() -> Int {
        defer { nextLayerID += 1 }
        return nextLayerID
    }

    // MARK: Running

    /// The header record of this run's trace.
    public func traceHeader(source: String, plugins: [String]) -> TraceHeader {
        let t = traits
        var words = [t.userInterfaceStyle.rawValue, t.preferredContentSizeCategory.shortName,
                     t.layoutDirection == .leftToRight ? "ltr" : "rtl"]
        if t.accessibilityContrast == .high { words.append("high contrast") }
        return TraceHeader(source: source, appearance: scene.appearance.rawValue, viewport: scene.viewport,
                           scale: scene.scale, traits: words, itemCount: scene.itemCount, plugins: plugins)
    }

    /// Displays the list for the first time (event 0): every visible cell's first update runs
    /// before its first frame.
    public func start() throws(EngineError) -> TraceEvent {
        try process(Event(number: 0, line: 0, actions: []), summary: "first display", forceFrame: true)
    }

    public func run(_ event: Event) throws(EngineError) -> TraceEvent {
        var forceFrame = false
        for action in event.actions {
            do { try apply(action, forceFrame: &forceFrame) }
            catch let e { throw EngineError(e.message, line: event.line) }
        }
        return try process(event, summary: Engine.summary(of: event), forceFrame: forceFrame)
    }

    /// Waits for frame files; returns a message when one could not be written.
    public func finish() -> String? { renderer.finish() }

    private func cell(for target: CellTarget) throws(EngineError) -> EngineCell {
        guard let c = cellsByID[target.description] else { throw EngineError("no \(target) in the list") }
        return c
    }

    private func apply(_ action: EventAction, forceFrame: inout Bool) throws(EngineError) {
        switch action {
        case .cells(let e):
            let cause = Engine.cause(of: e)
            for target in e.targets {
                let c = try cell(for: target)
                c.requestUpdate(cause: cause)
                e.state.apply(to: &c.state)
                for a in e.set {
                    do { c.content = try c.content.setting(a.name, to: a.value) }
                    catch { throw EngineError("\(c.name): \(error)") }
                    c.setByEvent.insert(a.name)
                }
                for a in e.background {
                    do { c.background = try c.background.setting(a.name, to: a.value) }
                    catch { throw EngineError("\(c.name) background: \(error)") }
                    c.backgroundSetByEvent.insert(a.name)
                }
                for call in e.perform {
                    let before = c.content.inspectableProperties
                    do { c.content = try c.content.performing(call.name, arguments: call.arguments) }
                    catch { throw EngineError("\(c.name): \(error)") }
                    let after = c.content.inspectableProperties
                    let oldByName = Dictionary(before.map { ($0.name, $0.value) }, uniquingKeysWith: { a, _ in a })
                    for p in after where oldByName[p.name] != p.value { c.setByEvent.insert(p.name) }
                }
            }
        case .traits(let change):
            change.apply(to: &traits)
            let cause = Engine.summary(of: Event(number: 0, line: 0, actions: [action]))
            for c in cellsByID.values { c.requestUpdate(cause: cause) }
        case .scroll(let s):
            switch s {
            case .to(let y): contentOffset = y
            case .by(let dy): contentOffset += dy
            }
        case .insert(let item, let sectionID, let index):
            guard let si = sections.firstIndex(where: { $0.id == sectionID }) else { throw EngineError("no section \"\(sectionID)\"") }
            let c = try makeCell(item)
            let at = min(max(0, index ?? sections[si].items.count), sections[si].items.count)
            sections[si].items.insert(c, at: at)
            c.requestUpdate(cause: "inserted")
        case .delete(let id):
            let c = try cell(for: .cell(id))
            for si in sections.indices { sections[si].items.removeAll { $0 === c } }
            cellsByID[id] = nil
            c.releaseView(to: &pool)
            renderer.removeLayer(c.layerID)
            forceFrame = true
        case .reload(let id):
            let c = try cell(for: .cell(id))
            guard let item = c.item else { return }
            c.requestUpdate(cause: "reload")
            (c.pristineContent, c.content) = try initialContent(item)
        case .capture:
            forceFrame = true
        }
    }

    /// The rest of the cycle for every cell that needs it, then the frame(s).
    private func process(_ event: Event, summary: String, forceFrame: Bool) throws(EngineError) -> TraceEvent {
        let eventStart = Engine.now()
        var timings = PhaseTimings()
        var updates: [CellUpdateTrace] = []
        var updatedCells: [EngineCell] = []
        let context = layoutContext

        // Update and self-size until the set of visible cells is stable (sizes move rows in and out).
        for _ in 0..<4 {
            var t = Engine.now()
            layout()
            let visible = visibleCells()
            let visibleIDs = Set(visible.map(ObjectIdentifier.init))
            for c in allRows() where c.view != nil && !visibleIDs.contains(ObjectIdentifier(c)) {
                c.releaseView(to: &pool)
                renderer.removeLayer(c.layerID)
            }
            timings.layout += Engine.micros(since: t)
            var resized = false
            for c in visible where c.view == nil || c.needsUpdate {
                if !c.needsUpdate { c.requestUpdate(cause: c.lastState == nil ? "first display" : "scrolled in") }
                t = Engine.now()
                var trace = try c.runUpdatePass(traits: traits, pool: &pool)
                let updateMicros = Engine.micros(since: t)
                timings.update += updateMicros
                t = Engine.now()
                let oldHeight = c.size.height
                c.measure(width: rowWidth, context: context)
                if c.size.height != oldHeight { resized = true }
                let layoutMicros = Engine.micros(since: t)
                timings.layout += layoutMicros
                trace.micros = updateMicros + layoutMicros
                if let i = updatedCells.firstIndex(where: { $0 === c }) {
                    updates[i] = trace
                } else {
                    updates.append(trace)
                    updatedCells.append(c)
                }
            }
            if !resized { break }
        }
        var t = Engine.now()
        layout()
        timings.layout += Engine.micros(since: t)

        // Draw what was updated, move what moved; the renderer turns both into damage.
        t = Engine.now()
        let visible = visibleCells()
        var oldDrawings: [(EngineCell, DisplayList, Rect)] = []
        for c in visible {
            let wasUpdated = updatedCells.contains { $0 === c }
            let viewportFrame = c.frame.offsetBy(dx: 0, dy: -contentOffset)
            let lastFrame = layerFrames[c.layerID]
            guard wasUpdated || lastFrame != viewportFrame else { continue }
            let old = c.drawing
            if wasUpdated { c.drawing = c.draw(context: context) }
            var damage: Rect = .zero
            if let lastFrame, lastFrame != viewportFrame {
                damage = lastFrame.union(viewportFrame)
            } else {
                damage = DisplayList.damage(from: old, to: c.drawing).offsetBy(dx: viewportFrame.minX, dy: viewportFrame.minY)
                if lastFrame == nil { damage = viewportFrame }
            }
            if let i = updatedCells.firstIndex(where: { $0 === c }) {
                updates[i].size = c.size
                updates[i].frame = c.frame
                let visibleDamage = damage.intersection(Rect(origin: .zero, size: scene.viewport))
                updates[i].damage = visibleDamage.isEmpty ? nil : visibleDamage
            }
            oldDrawings.append((c, old, lastFrame ?? viewportFrame))
        }
        timings.draw += Engine.micros(since: t)

        var frames: [FrameTrace] = []
        // Animated events show the way from the old to the new look in intermediate frames.
        if let animation = event.animation, !oldDrawings.isEmpty {
            for step in 1..<max(1, animation.frames) {
                let p = animation.progress(at: Double(step) / Double(animation.frames))
                t = Engine.now()
                setListBackground()
                for (c, old, oldFrame) in oldDrawings {
                    let newFrame = c.frame.offsetBy(dx: 0, dy: -contentOffset)
                    let frame = Engine.interpolate(oldFrame, newFrame, p)
                    renderer.setLayer(c.layerID, frame: frame, content: DisplayListInterpolation.interpolate(old, c.drawing, p))
                    layerFrames[c.layerID] = frame
                }
                timings.draw += Engine.micros(since: t)
                if let f = renderAndWrite(progress: p, force: false, timings: &timings) { frames.append(f) }
            }
        }
        t = Engine.now()
        setListBackground()
        for (c, _, _) in oldDrawings {
            let frame = c.frame.offsetBy(dx: 0, dy: -contentOffset)
            renderer.setLayer(c.layerID, frame: frame, content: c.drawing)
            layerFrames[c.layerID] = frame
        }
        timings.draw += Engine.micros(since: t)
        if let f = renderAndWrite(progress: nil, force: forceFrame, timings: &timings) { frames.append(f) }

        totals += timings
        return TraceEvent(number: event.number, line: event.line, summary: summary, note: event.note,
                          start: (eventStart - startTime) * 1e6, updates: updates, frames: frames, timings: timings)
    }

    private var layerFrames: [Int: Rect] = [:]

    /// The list's own background fills the viewport behind the rows; it changes with dark mode.
    private func setListBackground() {
        let base: Color = scene.appearance == .plain || scene.appearance == .sidebarPlain ? .systemBackground : .systemGroupedBackground
        let color = base.resolved(with: traits)
        guard color != listBackgroundColor else { return }
        listBackgroundColor = color
        let bounds = Rect(origin: .zero, size: scene.viewport)
        renderer.setLayer(listBackgroundLayer, frame: bounds, content: DisplayList([.fill(bounds, color)]))
    }

    private func renderAndWrite(progress: Double?, force: Bool, timings: inout PhaseTimings) -> FrameTrace? {
        let rendered = renderer.renderFrame()
        timings.raster += rendered.rasterMicros
        timings.composite += rendered.compositeMicros
        guard rendered.damagedPixels > 0 || force else { return nil }
        frameCount += 1
        var file: String?
        if let dir = options.framesDirectory {
            let name = Engine.frameFileName(frameCount)
            timings.encode += renderer.writeFrame(to: dir + "/" + name)
            file = name
        }
        return FrameTrace(index: frameCount, file: file, damage: rendered.damage, damagedPixels: rendered.damagedPixels,
                          progress: progress)
    }

    public static func frameFileName(_ index: Int) -> String {
        let digits = String(index)
        return "frame-" + String(repeating: "0", count: max(0, 4 - digits.count)) + digits + ".png"
    }

    // MARK: Layout

    private func allRows() -> [EngineCell] { sections.flatMap(\.rows) }

    /// Places every row top to bottom: self-sized heights for cells that were displayed,
    /// estimates for the others (as UIKit's estimated sizes), then clamps the scroll offset.
    private func layout() {
        var y = 0.0
        for section in sections {
            if section.header == nil { y += sectionSpacing }
            for row in section.rows {
                row.frame = Rect(x: rowInset, y: y, width: rowWidth, height: row.size.height)
                y += row.size.height
            }
            y += sectionSpacing
        }
        contentHeight = y
        contentOffset = min(max(0, contentOffset), max(0, contentHeight - scene.viewport.height))
    }

    private func visibleCells() -> [EngineCell] {
        let top = contentOffset, bottom = contentOffset + scene.viewport.height
        return allRows().filter { $0.frame.maxY > top && $0.frame.minY < bottom }
    }

    // MARK: Words

    static func cause(of e: CellEvent) -> String {
        var parts: [String] = []
        if !e.state.isEmpty { parts.append("state") }
        if !e.set.isEmpty || !e.background.isEmpty { parts.append("set") }
        if !e.perform.isEmpty { parts.append("perform") }
        if e.setNeedsUpdateConfiguration { parts.append("setNeedsUpdateConfiguration") }
        return parts.joined(separator: "+")
    }

    /// A short description of an event for tables and slice names: "apple: selected, not highlighted".
    static func summary(of event: Event) -> String {
        event.actions.map { action -> String in
            switch action {
            case .cells(let e):
                var parts: [String] = []
                let s = e.state
                for (name, value) in [("highlighted", s.highlighted), ("selected", s.selected), ("disabled", s.disabled),
                                      ("focused", s.focused), ("pinned", s.pinned), ("editing", s.editing),
                                      ("expanded", s.expanded), ("swiped", s.swiped), ("reordering", s.reordering)] {
                    if let value { parts.append(value ? name : "not \(name)") }
                }
                if let d = s.drag { parts.append("drag=\(d.rawValue)") }
                if let d = s.drop { parts.append("drop=\(d.rawValue)") }
                for c in s.custom { parts.append("\(c.key)=\(c.value.map { "\($0)" } ?? "nil")") }
                for a in e.set { parts.append("\(a.name)=\(a.value)") }
                for a in e.background { parts.append("background.\(a.name)=\(a.value)") }
                for p in e.perform { parts.append("\(p.name)()") }
                if e.setNeedsUpdateConfiguration { parts.append("setNeedsUpdateConfiguration") }
                return e.targets.map(\.description).joined(separator: ",") + ": " + parts.joined(separator: ", ")
            case .traits(let t):
                var parts: [String] = []
                if let v = t.userInterfaceStyle { parts.append(v.rawValue) }
                if let v = t.contentSizeCategory { parts.append("text size \(v.shortName)") }
                if let v = t.layoutDirection { parts.append(v == .leftToRight ? "ltr" : "rtl") }
                if let v = t.accessibilityContrast { parts.append("\(v.rawValue) contrast") }
                if let v = t.horizontalSizeClass { parts.append("\(v.rawValue) width") }
                if let v = t.verticalSizeClass { parts.append("\(v.rawValue) height") }
                return "traits: " + parts.joined(separator: ", ")
            case .scroll(.to(let y)): return "scroll to \(formatPoints(y))"
            case .scroll(.by(let dy)): return "scroll by \(formatPoints(dy))"
            case .insert(let item, let section, _): return "insert \(item.id) into \(section)"
            case .delete(let id): return "delete \(id)"
            case .reload(let id): return "reload \(id)"
            case .capture(let name): return "capture" + (name.map { " \($0)" } ?? "")
            }
        }.joined(separator: "; ")
    }

    static func interpolate(_ a: Rect, _ b: Rect, _ p: Double) -> Rect {
        func lerp(_ x: Double, _ y: Double) -> Double { x + (y - x) * p }
        return Rect(x: lerp(a.minX, b.minX), y: lerp(a.minY, b.minY), width: lerp(a.width, b.width), height: lerp(a.height, b.height))
    }

    static func now() -> Double {
        var ts = timespec()
        clock_gettime(CLOCK_MONOTONIC, &ts)
        return Double(ts.tv_sec) + Double(ts.tv_nsec) / 1e9
    }

    static func micros(since start: Double) -> Double { (now() - start) * 1e6 }
}
