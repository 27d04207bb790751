import CellIO
import CellKit
import CellRender
import Testing
@testable import CellRuntime

@Suite struct EngineTests {
    static let stream = """
        {"scene": {"appearance": "insetGrouped", "viewport": {"width": 390, "height": 300}, "scale": 2}}
        {"section": {"id": "fruits", "header": "Fruits"}}
        {"item": {"id": "apple", "set": {"text": "Apple"}}}
        {"item": {"id": "pear", "style": "subtitleCell", "set": {"text": "Pear", "secondaryText": "Green", "secondaryTextProperties.color": "systemGreen"}}}
        {"item": {"id": "plum", "set": {"text": "Plum"}}}
        {"section": {"id": "more"}}
        {"item": {"id": "fig", "set": {"text": "Fig"}}}
        {"item": {"id": "kiwi", "set": {"text": "Kiwi"}}}
        {"item": {"id": "lime", "set": {"text": "Lime"}}}
        {"item": {"id": "date", "set": {"text": "Date"}}}
        """

    func engine(_ extra: String = "") throws -> (Engine, [Event]) {
        let (scene, events) = try EventStreamParser.parse(Self.stream + "\n" + extra, source: "test.jsonl")
        let engine = try Engine(scene: scene, catalog: ConfigurationCatalog(),
                                options: .init(textMeasurer: FixedAdvanceTextMeasurer()))
        return (engine, events)
    }

    func table(_ records: [TraceEvent]) -> String {
        var out = ""
        let t = TraceTableWriter(colors: false) { out += $0 }
        for r in records { t.write(.event(r)) }
        return out
    }

    @Test func firstDisplayUpdatesOnlyVisibleCellsBeforeTheFirstFrame() throws {
        let (engine, _) = try engine()
        let first = try engine.start()
        let names = first.updates.map(\.cell)
        #expect(names.first == "header:fruits")
        #expect(names.contains("apple") && names.contains("pear"))
        #expect(!names.contains("date"), "date lies below the 300-point viewport and owns no view")
        #expect(first.updates.allSatisfy { $0.view == .created && $0.cause == "first display" })
        #expect(first.updates.allSatisfy { $0.size.height > 0 && $0.size.width == 350 })
        #expect(first.frames.count == 1)
        #expect(first.frames[0].damagedPixels == 390 * 300 * 4, "the first frame paints the whole viewport at @2x")
        let pear = try #require(first.updates.first { $0.cell == "pear" })
        let apple = try #require(first.updates.first { $0.cell == "apple" })
        #expect(pear.size.height > apple.size.height, "a subtitle cell self-sizes taller than a one-line cell")
    }

    @Test func rowsAreMadeOnlyForItemsShownOrTargetedAndKeepWhatEventsChanged() throws {
        var stream = """
            {"scene": {"appearance": "insetGrouped", "viewport": {"width": 390, "height": 300}, "scale": 2}}
            {"section": {"id": "long"}}
            """
        for i in 0..<2000 { stream += "\n{\"item\": {\"id\": \"item\(i)\", \"set\": {\"text\": \"Item \(i)\"}}}" }
        stream += """

            {"cell": "item1999", "selected": true, "set": {"text": "Chosen"}}
            {"scroll": {"to": 1000000}}
            """
        let (scene, events) = try EventStreamParser.parse(stream, source: "long.jsonl")
        let engine = try Engine(scene: scene, catalog: ConfigurationCatalog(),
                                options: .init(textMeasurer: FixedAdvanceTextMeasurer()))
        let first = try engine.start()
        #expect(engine.madeRowCount == first.updates.count, "only the rows on screen exist after the first display")
        #expect(engine.madeRowCount < 20)

        let targeted = try engine.run(events[0])
        #expect(targeted.updates.isEmpty, "item1999 is off screen and owns no view")
        #expect(engine.madeRowCount == first.updates.count + 1)

        let scrolled = try engine.run(events[1])
        let last = try #require(scrolled.updates.first { $0.cell == "item1999" })
        #expect(last.stateAfter == ["selected"])
        #expect(last.changes.contains { $0.property == "text" && $0.reason == .setByEvent && $0.new.contains("Chosen") })
    }

    @Test func selectingReusesTheViewAndRestylesOnlyThatCell() throws {
        let (engine, events) = try engine("""
            {"cell": "apple", "selected": true}
            """)
        _ = try engine.start()
        let e = try engine.run(events[0])
        #expect(e.updates.map(\.cell) == ["apple"])
        let u = e.updates[0]
        #expect(u.view == .reused && u.supports == true)
        #expect(u.stateBefore == [] && u.stateAfter == ["selected"])
        #expect(u.changes.contains { $0.reason == .restyled && $0.configuration == "background" && $0.cause == "selected" })
        #expect(u.damage != nil)
        #expect(e.frames.count == 1 && e.frames[0].damagedPixels > 0)
        #expect(e.frames[0].damagedPixels < 390 * 300 * 4 / 2, "only the selected row is damaged")
    }

    /// A restyle's cause names what turned on (in flag order, custom states after), then what
    /// turned off, then the traits that changed.
    @Test func aRestylesCauseNamesWhatChangedInOrder() {
        var old = CellConfigurationState(isHighlighted: true, isDisabled: true, customStates: ["mode": .int(1)])
        var new = CellConfigurationState(isSelected: true, isDisabled: true, isEditing: true, customStates: ["mode": .int(2)])
        new.traitCollection.userInterfaceStyle = .dark
        #expect(EngineRow.delta(from: old, to: new) == "selected, editing, mode=2, not highlighted, not mode=1, dark")
        #expect(EngineRow.delta(from: nil, to: new) == "first display")
        old = new
        #expect(EngineRow.delta(from: old, to: new) == "no state change")
        new.isHighlighted = true
        #expect(EngineRow.delta(from: old, to: new) == "highlighted")
        #expect(EngineRow.delta(from: new, to: old) == "not highlighted")
    }

    @Test func customisedPropertiesStayLockedThroughStateChanges() throws {
        let (engine, events) = try engine("""
            {"cell": "pear", "set": {"textProperties.color": "systemOrange"}}
            {"cell": "pear", "disabled": true}
            """)
        _ = try engine.start()
        let set = try engine.run(events[0])
        let setChange = try #require(set.updates[0].changes.first { $0.property == "textProperties.color" })
        #expect(setChange.reason == .setByEvent)
        let disabled = try engine.run(events[1])
        let changes = disabled.updates[0].changes
        let text = try #require(changes.first { $0.property == "textProperties.color" })
        #expect(text.reason == .locked && text.cause == "disabled")
        let secondary = try #require(changes.first { $0.property == "secondaryTextProperties.color" })
        #expect(secondary.reason == .locked, "set in the item's description, so customised from the start")
    }

    @Test func contentSizeChangeResizesCells() throws {
        let (engine, events) = try engine("""
            {"traits": {"contentSize": "AX3"}}
            """)
        let first = try engine.start()
        let before = try #require(first.updates.first { $0.cell == "apple" }).size.height
        let e = try engine.run(events[0])
        let after = try #require(e.updates.first { $0.cell == "apple" }).size.height
        #expect(after > before)
        #expect(e.updates.allSatisfy { $0.cause.contains("traits") || $0.cause == "first display" || $0.cause == "scrolled in" })
    }

    @Test func scrollingReusesViewsFromThePool() throws {
        let (engine, events) = try engine("""
            {"scroll": {"to": 400}}
            """)
        _ = try engine.start()
        let e = try engine.run(events[0])
        let scrolledIn = e.updates.filter { $0.cause == "scrolled in" || $0.cause == "first display" }
        #expect(!scrolledIn.isEmpty)
        #expect(scrolledIn.contains { $0.view == .reused }, "views of rows that left are reused by rows that arrive")
        #expect(engine.contentOffset > 0)
    }

    @Test func updateRequestsCoalesceIntoOnePassPerCell() throws {
        let (engine, events) = try engine("""
            {"group": [{"cell": "apple", "highlighted": true}, {"cell": "apple", "selected": true}, {"cell": "apple", "setNeedsUpdateConfiguration": true}]}
            """)
        _ = try engine.start()
        let e = try engine.run(events[0])
        #expect(e.updates.count == 1)
        #expect(e.updates[0].stateAfter == ["highlighted", "selected"])
    }

    @Test func animatedEventsRenderIntermediateFrames() throws {
        let (engine, events) = try engine("""
            {"animate": {"duration": 0.2, "frames": 4}, "cell": "apple", "selected": true}
            """)
        _ = try engine.start()
        let e = try engine.run(events[0])
        #expect(e.frames.count == 4)
        #expect(e.frames.dropLast().allSatisfy { $0.progress != nil })
        #expect(e.frames.last?.progress == nil)
    }

    @Test func unknownPropertyIsBadInputNamingTheLine() throws {
        let (engine, events) = try engine("""
            {"cell": "apple", "set": {"txt": "A"}}
            """)
        _ = try engine.start()
        #expect(throws: EngineError.self) { try engine.run(events[0]) }
        do { _ = try engine.run(events[0]) } catch {
            #expect(error.line == 11)
            #expect(error.message.contains("txt"))
        }
    }

    @Test func insertDeleteAndReload() throws {
        let (engine, events) = try engine("""
            {"insert": {"id": "kiwi2", "section": "fruits", "index": 0, "set": {"text": "Kiwi 2"}}}
            {"cell": "apple", "set": {"text": "Green apple"}}
            {"reload": "apple"}
            {"delete": "kiwi2"}
            """)
        _ = try engine.start()
        let inserted = try engine.run(events[0])
        #expect(inserted.updates.contains { $0.cell == "kiwi2" && $0.cause.hasPrefix("inserted") })
        _ = try engine.run(events[1])
        let reload = try engine.run(events[2])
        let text = try #require(reload.updates.first { $0.cell == "apple" }?.changes.first { $0.property == "text" })
        #expect(text.new == "\"Apple\"", "a reload rebuilds the configuration from the item's description")
        let deleted = try engine.run(events[3])
        #expect(deleted.frames.count == 1)
    }

    /// An event targets the row that holds the id now, not the one an earlier event found.
    @Test func anIdInsertedAgainAfterItsDeletionTargetsTheNewRow() throws {
        let (engine, events) = try engine("""
            {"insert": {"id": "kiwi2", "section": "fruits", "index": 0, "set": {"text": "Kiwi 2"}}}
            {"cell": "kiwi2", "highlighted": true}
            {"delete": "kiwi2"}
            {"insert": {"id": "kiwi2", "section": "fruits", "index": 1, "set": {"text": "Kiwi again"}}}
            {"cell": "kiwi2", "selected": true}
            """)
        _ = try engine.start()
        for e in events.prefix(4) { _ = try engine.run(e) }
        let selected = try engine.run(events[4])
        let update = try #require(selected.updates.first { $0.cell == "kiwi2" })
        #expect(update.stateBefore.isEmpty, "the new row was never highlighted")
        #expect(update.stateAfter == ["selected"])
        #expect(update.frame.minY > 0, "the new row sits second in its section")
    }

    @Test func aRowThatStopsEndingItsSectionIsRepaintedWithItsSeparator() throws {
        let (engine, events) = try engine("""
            {"insert": {"id": "quince", "section": "fruits", "index": 3, "set": {"text": "Quince"}}}
            """)
        let first = try engine.start()
        let plum = try #require(first.updates.first { $0.cell == "plum" })
        let inserted = try engine.run(events[0])
        #expect(!inserted.updates.contains { $0.cell == "plum" }, "plum's configuration did not change")
        // Plum was the last row of an inset-grouped section (no separator) and now is not: its
        // bottom pixel row, where the separator appears, is damaged.
        let hairline = Rect(x: plum.frame.minX * 2, y: (plum.frame.maxY - 0.5) * 2, width: plum.frame.width * 2, height: 1)
        let damage = try #require(inserted.frames.first).damage
        #expect(damage.contains { !$0.intersection(hairline).isEmpty })
    }

    @Test func traitRepaintsSayWhyAndNilBackgroundsSayTint() throws {
        let (engine, events) = try engine("""
            {"cell": "apple", "drop": "targeted"}
            {"traits": {"style": "dark"}}
            """)
        _ = try engine.start()
        let drop = try engine.run(events[0])
        let changes = try #require(drop.updates.first { $0.cell == "apple" }).changes
        let fill = try #require(changes.first { $0.configuration == "background" && $0.property == "backgroundColor" })
        #expect(fill.new == "nil" && fill.nilIsTint, "JSON keeps the value; the flag says what it shows")
        let transformer = try #require(changes.first { $0.property == "backgroundColorTransformer" })
        #expect(!transformer.nilIsTint)
        let decoded = try PropertyChangeTrace(json: JSON.parse(fill.json.serialized))
        #expect(decoded == fill)
        let dropTable = table([drop])
        #expect(dropTable.contains("→ nil (tint)"))
        #expect(dropTable.contains("backgroundColorTransformer") && !dropTable.contains("nil (tint) → faded"))

        let dark = try engine.run(events[1])
        let unchanged = dark.updates.filter { $0.changes.isEmpty }
        #expect(!unchanged.isEmpty)
        for u in unchanged {
            #expect(u.repaint == "colours re-resolved for dark", "\(u.cell)")
            #expect(u.damage != nil)
        }
        let decodedUpdate = try CellUpdateTrace(json: JSON.parse(unchanged[0].json.serialized))
        #expect(decodedUpdate.repaint == unchanged[0].repaint)
        #expect(table([dark]).contains("repainted: colours re-resolved for dark"))
    }

    /// A symbol the compositor does not have is drawn as a crossed box; the event that drew it
    /// says so and names the cell, in every sink.
    @Test func aMissingSymbolIsAProblemOfTheEventNamingTheCell() throws {
        let (scene, events) = try EventStreamParser.parse(Self.stream + """

            {"cell": "pear", "set": {"image": {"symbol": "no.such.symbol"}}}
            {"cell": "pear", "highlighted": true, "animate": {"duration": 0.2, "frames": 3}}
            {"cell": "apple", "selected": true}
            """, source: "test.jsonl")
        let textEngine = try TextEngine()
        let renderer = CompositorRenderer(viewport: scene.viewport, scale: Int(scene.scale), textEngine: textEngine,
                                          showsDamage: false, writesFrames: false)
        let engine = try Engine(scene: scene, catalog: ConfigurationCatalog(),
                                options: .init(textMeasurer: textEngine, renderer: renderer))
        #expect(try engine.start().problems.isEmpty)
        let set = try engine.run(events[0]), animated = try engine.run(events[1]), other = try engine.run(events[2])
        let problem = "pear: unknown symbol \"no.such.symbol\" drawn as a missing-symbol box"
        #expect(set.problems == [problem])
        #expect(animated.frames.count > 1)
        #expect(animated.problems == [problem], "told once, not once per frame")
        #expect(other.problems.isEmpty, "apple is drawn as asked and pear was not redrawn")
        #expect(table([set]).contains(problem))
        guard case .event(let decoded) = try TraceRecord(json: JSON.parse(TraceRecord.event(set).json.serialized)) else {
            Issue.record("the event record does not decode as an event"); return
        }
        #expect(decoded.problems == [problem])
    }
}
