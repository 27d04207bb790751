import CellKit
import CellRender

/// The engine's frame loop: after an event's actions are applied, the rows it touched go
/// through a few named passes, each reading what the one before left in a `FramePass`:
///
/// 1. update: every visible row with a pending update runs `updated(for:)` and its hooks and
///    self-sizes, until the set of visible rows is stable;
/// 2. layout: the scroll offset is clamped to the content;
/// 3. draw: rows updated, moved or appeared are recorded again, and each update record gets its
///    geometry and the damage its row caused;
/// 4. present: an animated event's intermediate frames, then the final one; the renderer turns
///    layer changes into the frame's `Damage` and pixels;
/// 5. trace: the event's record.
///
/// The passes that run on every event are `@inline(__always)`: they are separate for the
/// reader, while the event path stays one function, with no pass state handed through calls.
extension Engine {
    // MARK: The frame loop

    /// One event's frame loop, after its actions were applied: update and self-size the rows
    /// that need it, lay the list out, draw what changed, present the frame(s), and record the
    /// trace. Each pass reads what the one before left in `pass`.
    func process(_ event: Event, summary: EventSummary, forceFrame: Bool) throws(EngineError) -> TraceEvent {
        let showsIntermediateFrames = (event.animation?.frames ?? 0) > 1
        var pass = beginPass()
        defer { endPass(&pass) }
        try update(&pass)
        layout()
        pass.timings.layout += pass.clock.lap()
        try draw(&pass, showsIntermediateFrames: showsIntermediateFrames)
        if let animation = event.animation { presentIntermediateFrames(animation, &pass) }
        present(&pass, showedIntermediateFrames: showsIntermediateFrames, force: forceFrame)
        return trace(of: event, summary: summary, pass)
    }

    /// What one event's passes hand on: the clock and its phase times, the update records and
    /// their rows (same order, one record per row), the rows redrawn, and the frames presented.
    struct FramePass {
        let start: Double
        var clock: PhaseClock
        var timings = PhaseTimings()
        var updates: [CellUpdateTrace]
        var updatedRows: [EngineRow]
        var redrawn: [RedrawnRow]
        var frames: [FrameTrace]
        var problems: [LayerProblem] = []
    }

    /// A pass's working lists in the storage the last event left (emptied), not allocated afresh.
    @inline(__always)
    private func beginPass() -> FramePass {
        let start = Engine.now()
        let pass = FramePass(start: start, clock: PhaseClock(last: start), updates: lastUpdates.takeForRefill(),
                             updatedRows: updatedRowsStorage, redrawn: redrawnRowsStorage,
                             frames: lastFrames.takeForRefill())
        (updatedRowsStorage, redrawnRowsStorage) = ([], [])
        return pass
    }

    @inline(__always)
    private func endPass(_ pass: inout FramePass) {
        pass.updatedRows.removeAllKeepingStorage()
        pass.redrawn.removeAllKeepingStorage()
        (updatedRowsStorage, redrawnRowsStorage) = (pass.updatedRows, pass.redrawn)
    }

    // MARK: Update pass

    /// Runs the pending update pass of every visible row that needs one, and self-sizes it, until
    /// the set of visible rows is stable: a new height moves rows in and out of the viewport.
    /// Bounded: rows scrolled in by one round's sizes are estimates the next round replaces.
    @inline(__always)
    private func update(_ pass: inout FramePass) throws(EngineError) {
        let measurer = options.textMeasurer
        for _ in 0..<4 {
            layout()
            let reusesVisible = reusesVisibleRows && visibleCache?.contentOffset == contentOffset
                && visibleCache?.isAttached == true
            let visible = try visibleRows()
            // The same visible rows as after the last pass own exactly the attached views.
            if !reusesVisible { detachRows(notIn: visible) }
            pass.timings.layout += pass.clock.lap()
            var resized = false
            for r in visible where r.view == nil || r.needsUpdate {
                if updateAndMeasure(r, measurer: measurer, &pass) { resized = true }
            }
            visibleCache?.isAttached = true
            if !resized { break }
        }
        if detachedRows.count >= 2 * detachedRowsKept { try releaseFarRows() }
    }

    /// Gives rows that left the viewport's views back to the pool and removes their layers.
    private func detachRows(notIn visible: [EngineRow]) {
        let visibleIDs = Set(visible.map(ObjectIdentifier.init))
        // In list order, so which pooled view a row scrolling in gets — and so whether the trace
        // says reused or replaced — is the same on every run.
        let leaving = attached.filter { !visibleIDs.contains($0.key) }.sorted { $0.value.slot < $1.value.slot }
        for (id, r) in leaving {
            r.detachView(to: &pool)
            attached[id] = nil
            renderer.removeLayer(r.layerID)
            r.layerFrame = nil
            if r.kind == .cell { detachedRows.append(r) }
        }
    }

    /// Attaches a view to a row that has none, runs its pending update and self-sizes it; keeps
    /// its record, one per row however many rounds update it. Returns whether its height changed.
    @inline(__always)
    private func updateAndMeasure(_ r: EngineRow, measurer: any TextMeasuring, _ pass: inout FramePass) -> Bool {
        var firstDisplay = false
        if r.view == nil {
            firstDisplay = r.lastState == nil
            r.noteCause(firstDisplay ? "first display" : "scrolled in")
            r.attachView(pool: &pool, appearance: appearance, traits: traits)
            attached[ObjectIdentifier(r)] = r
        }
        guard var trace = r.runUpdatePass(traits: traits) else { return false }
        let updateMicros = pass.clock.lap()
        pass.timings.update += updateMicros
        let oldHeight = r.size.height
        r.measure(width: rowWidth, measurer: measurer)
        let resized = listLayout.setMeasuredHeight(r.size.height, forSlot: r.slot) || r.size.height != oldHeight
        if resized { visibleCache = nil }
        let layoutMicros = pass.clock.lap()
        pass.timings.layout += layoutMicros
        trace.micros = updateMicros + layoutMicros
        trace.size = r.size
        // Moved, not copied (the record holds strings and arrays).
        if let i = pass.updatedRows.firstIndex(where: { $0 === r }) {
            pass.updates[i] = consume trace
        } else {
            pass.updates.append(consume trace)
            pass.updatedRows.append(r)
        }
        if r.separatorsToTrace, let i = pass.updatedRows.lastIndex(where: { $0 === r }) {
            pass.updates[i].separators = r.takeSeparatorTrace()
        }
        if firstDisplay, let i = pass.updatedRows.lastIndex(where: { $0 === r }) {
            pass.updates[i].image = r.imageTrace(traits: traits, measurer: measurer)
        }
        return resized
    }

    // MARK: Draw pass

    /// Records every visible row that was updated, moved, appeared or lost its recording, and
    /// completes its update record with its geometry and the damage it caused (inside the
    /// viewport). Rows drawn before at the same frames and clips and not updated since are as
    /// they were and are skipped.
    @inline(__always)
    private func draw(_ pass: inout FramePass, showsIntermediateFrames: Bool) throws(EngineError) {
        let viewportRect = Rect(origin: .zero, size: scene.viewport)
        let measurer = options.textMeasurer
        let visible = try visibleRows()
        let onlyUpdatedRowsChanged = reusesVisibleRows && visibleCache?.isDrawn == true
        let patches = options.patchesBackgrounds && !showsIntermediateFrames
        for r in visible {
            let updateIndex = pass.updatedRows.firstIndex { $0 === r }
            if onlyUpdatedRowsChanged && updateIndex == nil { continue }
            let viewportFrame = r.frame.offsetBy(dx: 0, dy: -contentOffset)
            let clipChanged = r.drawing.isEmpty || r.needsRedraw
            guard updateIndex != nil || r.layerFrame != viewportFrame || clipChanged else { continue }
            let redrawn = redraw(r, at: viewportFrame, patches: patches, measurer: measurer)
            if let i = updateIndex {
                pass.updates[i].size = r.size
                pass.updates[i].frame = r.frame
                // Traits explain a repaint only when the drawing did change.
                if pass.updates[i].repaint != nil, !(redrawn.drawingChanged ?? (redrawn.old != r.drawing)) {
                    pass.updates[i].repaint = nil
                }
                let visibleDamage = redrawn.damage.intersection(viewportRect)
                pass.updates[i].damage = visibleDamage.isEmpty ? nil : visibleDamage
            }
            pass.redrawn.append(redrawn)
        }
        visibleCache?.isDrawn = true
        pass.timings.draw += pass.clock.lap()
    }

    /// Brings a row's recording up to date for its layer at `frame` (viewport points). A row that
    /// stays put and whose only change is its background has that background re-recorded in
    /// place (`patches`: never when intermediate frames need the old recording); any other row is
    /// recorded afresh, its old recording kept for the frames in between.
    @inline(__always)
    private func redraw(_ r: EngineRow, at frame: Rect, patches: Bool, measurer: any TextMeasuring) -> RedrawnRow {
        let lastFrame = r.layerFrame
        let oldBounds = r.drawing.bounds
        // A patch has the renderer let go of the recording first, so it is not copied; the layer
        // is set again, with `contentChanged`, when the frame is presented.
        if patches, lastFrame == frame,
           let differs = r.redrawBackground(measurer: measurer, willChange: { renderer.releaseContent(ofLayer: r.layerID) }) {
            return RedrawnRow(row: r, old: DisplayList(), oldFrame: frame, drawingChanged: differs,
                              damage: Engine.damage(from: lastFrame, to: frame, oldBounds: oldBounds,
                                                    newBounds: r.drawing.bounds, drawingChanged: differs))
        }
        let old = r.drawing
        r.drawing = r.draw(measurer: measurer)
        r.needsRedraw = false
        // Compared only where the row stayed put: one that moved or appeared damages its frames whole.
        let drawingChanged = lastFrame == frame ? old != r.drawing : nil
        return RedrawnRow(row: r, old: old, oldFrame: lastFrame ?? frame, drawingChanged: drawingChanged,
                          damage: Engine.damage(from: lastFrame, to: frame, oldBounds: oldBounds,
                                                newBounds: r.drawing.bounds, drawingChanged: drawingChanged))
    }

    /// What a row's redraw damages, in viewport points, as its update record reports it: a row
    /// that appeared damages its frame; one that moved, the rect holding its old and new frames;
    /// one that stayed put, the union of its old and new recordings' bounds when they differ
    /// (`drawingChanged`, nil only where the row appeared or moved), else nothing. The frame's
    /// pixel damage is the renderer's `Damage`; this is the part one cell is answerable for.
    static func damage(from lastFrame: Rect?, to frame: Rect, oldBounds: Rect, newBounds: Rect,
                       drawingChanged: Bool?) -> Rect {
        guard let lastFrame else { return frame }
        guard lastFrame == frame else { return lastFrame.union(frame) }
        return DisplayList.damage(fromBounds: oldBounds, toBounds: newBounds, differ: drawingChanged ?? true)
            .offsetBy(dx: frame.minX, dy: frame.minY)
    }

    // MARK: Present pass

    /// An animated event shows the way from the old look to the new in the frames before its
    /// last: each redrawn row's layer at the interpolated frame and recording.
    private func presentIntermediateFrames(_ animation: Animation, _ pass: inout FramePass) {
        if !pass.redrawn.isEmpty {
            for step in 1..<max(1, animation.frames) {
                let p = animation.progress(at: Double(step) / Double(animation.frames))
                _ = pass.clock.lap()
                setListBackground()
                for redrawn in pass.redrawn {
                    let (r, old, oldFrame) = (redrawn.row, redrawn.old, redrawn.oldFrame)
                    let newFrame = r.frame.offsetBy(dx: 0, dy: -contentOffset)
                    let frame = DisplayListInterpolation.rect(oldFrame, newFrame, p)
                    renderer.setLayer(r.layerID, frame: frame, content: DisplayListInterpolation.interpolate(old, r.drawing, p))
                    r.layerFrame = frame
                }
                pass.timings.draw += pass.clock.lap()
                renderAndWrite(progress: p, force: false, &pass)
            }
        }
        _ = pass.clock.lap()
    }

    /// Sets every redrawn row's layer to its new frame and recording and renders the event's
    /// last frame (written when anything was damaged, or when `force`d).
    @inline(__always)
    private func present(_ pass: inout FramePass, showedIntermediateFrames: Bool, force: Bool) {
        setListBackground()
        for i in pass.redrawn.indices {
            let r = pass.redrawn[i].row
            let frame = r.frame.offsetBy(dx: 0, dy: -contentOffset)
            // Where the layer still shows the old recording (no intermediate frames set it), the
            // comparison the draw pass made tells the renderer whether the recording changed.
            if let drawingChanged = pass.redrawn[i].drawingChanged, !showedIntermediateFrames {
                renderer.setLayer(r.layerID, frame: frame, content: r.drawing, contentChanged: drawingChanged)
            } else {
                renderer.setLayer(r.layerID, frame: frame, content: r.drawing)
            }
            r.layerFrame = frame
            // The renderer has let go of the replaced recording: its storage records the row's next drawing.
            swap(&r.spareDrawing, &pass.redrawn[i].old)
        }
        pass.timings.draw += pass.clock.lap()
        renderAndWrite(progress: nil, force: force, &pass)
    }

    /// Renders a frame; keeps it in the trace, and writes it when frames are written, if anything
    /// was damaged or `force` asks for it.
    @inline(__always)
    private func renderAndWrite(progress: Double?, force: Bool, _ pass: inout FramePass) {
        defer { onFrame?() }
        let rendered = renderer.renderFrame()
        pass.problems += rendered.problems
        pass.timings.raster += rendered.rasterMicros
        pass.timings.composite += rendered.compositeMicros
        guard rendered.damagedPixels > 0 || force else { return }
        frameCount += 1
        var file: String?
        var sameAs: Int?
        if let dir = options.framesDirectory, !options.framesOnlyForCaptures || (eventCaptures && progress == nil) {
            if let last = lastWrittenFrame, renderer.repeatsLastWrittenFrame() {
                (file, sameAs) = (last.file, last.index)
            } else {
                let name = Engine.frameFileName(frameCount)
                pass.timings.encode += renderer.writeFrame(to: dir + "/" + name)
                file = name
                lastWrittenFrame = (frameCount, name)
            }
        }
        var frame = FrameTrace(index: frameCount, file: file, damage: rendered.damage,
                               damagedPixels: rendered.damagedPixels, progress: progress)
        frame.sameAs = sameAs
        pass.frames.append(frame)
    }

    // MARK: Trace

    /// The event's trace record. Its lists stay shared with the engine, which refills their
    /// storage for the next event once whoever got the record has dropped it.
    @inline(__always)
    private func trace(of event: Event, summary: EventSummary, _ pass: FramePass) -> TraceEvent {
        totals += pass.timings
        (lastUpdates, lastFrames) = (pass.updates, pass.frames)
        return TraceEvent(number: event.number, line: event.line, summaryText: summary, note: event.note,
                          start: (pass.start - startTime) * 1e6, updates: pass.updates, frames: pass.frames,
                          problems: problemTexts(pass), timings: pass.timings,
                          outline: outlineTraces.isEmpty ? [] : takeOutlineTraces())
    }

    /// The layers' problems named by the cells they belong to (the compositor knows only layer
    /// ids), each told once: an animated event rasters a layer once per frame.
    @inline(__always)
    private func problemTexts(_ pass: FramePass) -> [String] {
        guard !pass.problems.isEmpty else { return [] }
        var told = Set<String>()
        return pass.problems.compactMap { problem -> String? in
            let row = pass.redrawn.first { $0.row.layerID == problem.layer }?.row
            let text = (row.map { "\($0.name): " } ?? "layer \(problem.layer): ") + problem.message
            return told.insert(text).inserted ? text : nil
        }
    }

    /// The list's own background fills the viewport behind the rows; it changes with dark mode.
    private func setListBackground() {
        guard traits != listBackgroundTraits else { return }
        listBackgroundTraits = traits
        let base: Color = scene.appearance == .plain || scene.appearance == .sidebarPlain ? .systemBackground : .systemGroupedBackground
        let color = base.resolved(with: traits)
        guard color != listBackgroundColor else { return }
        listBackgroundColor = color
        let bounds = Rect(origin: .zero, size: scene.viewport)
        renderer.setLayer(listBackgroundLayer, frame: bounds, content: DisplayList([.fill(bounds, color)]))
    }

    /// A row drawn in this pass, with its old recording (kept only where intermediate frames read
    /// it), its old frame, and whether its recording changed (nil where it was not compared: a row
    /// that moved or appeared damages its whole frame).
    /// A struct, not a tuple: a list of tuples with references in them is copied and emptied
    /// through the runtime's generic tuple witnesses.
    struct RedrawnRow {
        var row: EngineRow
        var old: DisplayList
        var oldFrame: Rect
        var drawingChanged: Bool?
        /// What the redraw damaged, in viewport points (`Engine.damage`).
        var damage: Rect
    }
}

/// Phase times of one event from one clock read per phase boundary: each lap ends the phase
/// that ran since the previous one and starts the next.
struct PhaseClock {
    var last: Double

    /// Microseconds since the previous lap (or the start).
    mutating func lap() -> Double {
        let now = Engine.now()
        defer { last = now }
        return (now - last) * 1e6
    }
}
