import CellKit
import CellRender
import Testing
@testable import CellRuntime

/// Rows far off screen are released and made again from their items when they show (or an
/// event names them). A run that releases must trace and draw exactly as one whose rows all
/// stayed: the same records, the same recordings, the same pixels.
@Suite struct RowReleaseTests {
    static let header = """
        {"scene": {"appearance": "insetGrouped", "viewport": {"width": 390, "height": 300}, "scale": 1}}
        {"section": {"id": "s", "header": "Rows"}}
        """
    static let templates = [
        #"{"set": {"text": "Inbox", "image": {"symbol": "tray"}}, "accessories": ["disclosureIndicator", {"checkmark": {"displayed": "whenNotEditing"}}]}"#,
        #"{"style": "subtitleCell", "set": {"text": "Drafts", "secondaryText": "3 unsent", "textProperties.color": "systemOrange"}, "handlers": [{"when": {"selected": true}, "set": {"text": "Chosen"}}]}"#,
        #"{"style": "valueCell", "set": {"text": "Flagged", "secondaryText": "12"}, "handler": {"form": "fresh", "rules": [{"when": {"highlighted": true}, "set": {"textProperties.color": "systemRed"}}]}}"#,
    ]

    /// Written items, a series, and an outline section after them.
    static let stream = header + "\n"
        + (0..<40).map { k in "{\"item\": {\"id\": \"w\(k)\", " + templates[k % 3].dropFirst() + "}" }.joined(separator: "\n") + "\n"
        + #"{"items": {"id": "row{n}", "count": 400, "templates": [\#(templates.joined(separator: ", "))]}}"# + "\n"
        + #"{"section": {"id": "tree", "header": "Tree"}}"# + "\n"
        + #"{"item": {"id": "folder", "set": {"text": "Folder"}, "expanded": true, "children": [{"id": "a", "set": {"text": "A"}}, {"id": "b", "set": {"text": "B"}, "children": [{"id": "b1", "set": {"text": "B1"}}]}]}}"#

    static let events = """
        {"cell": "w1", "highlighted": true}
        {"cell": "w1", "highlighted": false}
        {"cell": "w4", "selected": true}
        {"cell": "w2", "highlighted": true}
        {"scroll": {"by": 250}}
        {"scroll": {"by": 250}}
        {"scroll": {"by": 250}}
        {"scroll": {"by": 250}}
        {"scroll": {"by": 1000}}
        {"cell": "w2", "highlighted": false}
        {"cell": "w7", "selected": true}
        {"cell": "w5", "set": {"text": "Changed far away"}}
        {"cell": "w3", "set": {"accessories": ["checkmark"]}}
        {"traits": {"style": "dark"}}
        {"scroll": {"to": 0}}
        {"cell": "w4", "selected": false}
        {"scroll": {"by": 6000}}
        {"cell": "row10", "highlighted": true}
        {"cell": "row11", "selected": true}
        {"delete": "w20"}
        {"insert": {"id": "fresh", "section": "s", "index": 2, "set": {"text": "Inserted"}}}
        {"traits": {"contentSize": "XL"}}
        {"scroll": {"to": 0}}
        {"scroll": {"by": 300}}
        {"scroll": {"to": 100000}}
        {"collapse": "folder"}
        {"scroll": {"to": 0}}
        {"scroll": {"to": 100000}}
        {"expand": "folder"}
        {"expand": "b"}
        {"scroll": {"to": 400}}
        {"scroll": {"by": 12000}}
        {"traits": {"style": "light"}}
        {"scroll": {"to": 400}}
        {"scroll": {"to": 0}}
        """

    struct Run {
        var records: [TraceEvent]
        var drawings: [[String: DisplayList]]
        var pixels: [RasterImage]
        /// Rows alive after each event.
        var madeRows: [Int]
    }

    /// The stream run with `kept` rows kept after they leave the viewport (a huge number: none
    /// is ever released).
    /// `unmadeRows` off: a state change to an item without a row makes the row.
    static func run(kept: Int, recording: Bool = true, unmadeRows: Bool = true, events lines: String = Self.events,
                    textEngine: TextEngine) throws -> Run {
        let (scene, events) = try EventStreamParser.parse(stream + "\n" + lines, source: "release.jsonl")
        let renderer = CompositorRenderer(viewport: scene.viewport, scale: Int(scene.scale), textEngine: textEngine,
                                          showsDamage: false, writesFrames: false)
        let engine = try Engine(scene: scene, catalog: ConfigurationCatalog(),
                                options: .init(textMeasurer: textEngine, renderer: renderer, recordsPropertyChanges: recording))
        engine.detachedRowsKept = kept
        engine.appliesStateToUnmadeRows = unmadeRows
        var result = Run(records: [try engine.start()], drawings: [try engine.visibleDrawings()], pixels: [], madeRows: [])
        result.pixels.append(try #require(renderer.capturedImage()))
        for e in events {
            result.records.append(try engine.run(e))
            result.drawings.append(try engine.visibleDrawings())
            result.pixels.append(try #require(renderer.capturedImage()))
            result.madeRows.append(engine.madeRowCount)
        }
        result.records = result.records.map(TraceConsistencyTests.withoutTimes)
        return result
    }

    @Test(arguments: [true, false]) func releasedRowsTraceAndDrawAsRowsThatStayed(recording: Bool) throws {
        let textEngine = try TextEngine()
        let released = try Self.run(kept: 1, recording: recording, textEngine: textEngine)
        let stayed = try Self.run(kept: 1 << 40, recording: recording, textEngine: textEngine)
        #expect(released.records.count == stayed.records.count)
        for (a, b) in zip(released.records, stayed.records) { #expect(a == b, "event \(a.number): \(a.summary)") }
        for (n, (a, b)) in zip(released.drawings, stayed.drawings).enumerated() { #expect(a == b, "recordings after event \(n)") }
        for (n, (a, b)) in zip(released.pixels, stayed.pixels).enumerated() { #expect(a == b, "pixels after event \(n)") }
        // Rows were released: far fewer are alive than in the run that keeps them.
        #expect(released.madeRows.max()! < 30)
        #expect(stayed.madeRows.last! > released.madeRows.last! + 30)
        // Rows made again trace as reused views, scrolled in (a dequeued cell), not a first display.
        let back = released.records[15]
        #expect(back.updates.contains { $0.cell == "w1" && $0.cause == "scrolled in" && $0.view == .reused })
        #expect(back.updates.contains { $0.cell == "w4" && $0.stateAfter == ["selected"] })
    }

    /// State changes to items far off screen (never shown, released as traced, released with
    /// state of their own), kept without making their rows, trace and draw as changes made on
    /// the rows when they show.
    @Test(arguments: [1, 1 << 40]) func stateKeptWithoutItsRowTracesAsARowThatTookIt(keptRows: Int) throws {
        let textEngine = try TextEngine()
        let far = Self.events + "\n" + """
            {"cell": "row300", "highlighted": true}
            {"cell": "row301", "selected": true}
            {"cell": "row300", "highlighted": false}
            {"cell": ["row302", "w30"], "disabled": true}
            {"cell": "w1", "selected": true}
            {"cell": "row301", "selected": false}
            {"cell": "row303", "focused": true}
            {"scroll": {"to": 0}}
            {"cell": "w2", "highlighted": true}
            """ + "\n" + Array(repeating: #"{"scroll": {"by": 280}}"#, count: 90).joined(separator: "\n")
        let kept = try Self.run(kept: keptRows, events: far, textEngine: textEngine)
        let made = try Self.run(kept: keptRows, unmadeRows: false, events: far, textEngine: textEngine)
        #expect(kept.records.count == made.records.count)
        for (a, b) in zip(kept.records, made.records) { #expect(a == b, "event \(a.number): \(a.summary)") }
        for (n, (a, b)) in zip(kept.pixels, made.pixels).enumerated() { #expect(a == b, "pixels after event \(n)") }
        // The far rows showed, with their states.
        let shown = kept.records.flatMap(\.updates)
        #expect(shown.contains { $0.cell == "row302" && $0.stateAfter.contains("disabled") })
        #expect(shown.contains { $0.cell == "row303" && $0.stateAfter.contains("focused") })
    }

    @Test func aLongScrollKeepsTheLiveRowsBoundedByTheViewport() throws {
        let (scene, _) = try EventStreamParser.parse(Self.header + "\n"
            + #"{"items": {"id": "row{n}", "count": 100000, "templates": [\#(Self.templates.joined(separator: ", "))]}}"#,
            source: "long.jsonl")
        let engine = try Engine(scene: scene, catalog: ConfigurationCatalog(), options: .init(textMeasurer: FixedAdvanceTextMeasurer()))
        _ = try engine.start()
        var most = 0
        for k in 0..<3000 {
            _ = try engine.run(Event(number: k + 1, line: k + 3, actions: [.scroll(.by(44))]))
            most = max(most, engine.madeRowCount)
        }
        let shownRows = 3000 * 44 / 60
        #expect(most <= 2 * engine.detachedRowsKept + 20, "rows alive: \(most), after showing over \(shownRows)")
        #expect(try engine.visibleRows().count > 3)
    }

    /// Renderers keep layers in slots indexed by layer id, so the ids a long scroll uses must stay
    /// as few as the rows alive: a released row's id goes to the next row made.
    @Test func aLongScrollReusesTheLayerIDsOfReleasedRows() throws {
        let (scene, _) = try EventStreamParser.parse(Self.header + "\n"
            + #"{"items": {"id": "row{n}", "count": 100000, "templates": [\#(Self.templates.joined(separator: ", "))]}}"#,
            source: "long.jsonl")
        let textEngine = try TextEngine()
        let renderer = CompositorRenderer(viewport: scene.viewport, scale: Int(scene.scale), textEngine: textEngine,
                                          showsDamage: false, writesFrames: false)
        let engine = try Engine(scene: scene, catalog: ConfigurationCatalog(),
                                options: .init(textMeasurer: textEngine, renderer: renderer))
        _ = try engine.start()
        var shown = Set<String>()
        for k in 0..<2000 {
            let record = try engine.run(Event(number: k + 1, line: k + 3, actions: [.scroll(.by(44))]))
            for u in record.updates { shown.insert(u.cell) }
        }
        #expect(shown.count > 1000, "rows shown: \(shown.count)")
        #expect(engine.layerIDCount <= 2 * engine.detachedRowsKept + 40,
                "layer ids: \(engine.layerIDCount) for \(shown.count) rows shown")
        #expect(try engine.visibleRows().count > 3)
    }

    @Test func eventsOnAReleasedItemStillApply() throws {
        let (scene, events) = try EventStreamParser.parse(Self.stream + "\n" + """
            {"cell": "w1", "selected": true}
            {"scroll": {"by": 4000}}
            {"cell": "w1", "highlighted": true}
            {"cell": "w2", "set": {"text": "Set far away"}}
            {"scroll": {"to": 0}}
            """, source: "far.jsonl")
        let engine = try Engine(scene: scene, catalog: ConfigurationCatalog(), options: .init(textMeasurer: FixedAdvanceTextMeasurer()))
        engine.detachedRowsKept = 1
        _ = try engine.start()
        _ = try engine.run(events[0])
        _ = try engine.run(events[1])
        #expect(engine.rowsByName["w1"] == nil, "w1 was released when it scrolled far away")
        _ = try engine.run(events[2])
        _ = try engine.run(events[3])
        let back = try engine.run(events[4])
        let w1 = try #require(back.updates.first { $0.cell == "w1" })
        #expect(w1.stateBefore == ["selected"] && w1.stateAfter == ["highlighted", "selected"])
        #expect(w1.cause == "state, scrolled in")
        let w2 = try #require(back.updates.first { $0.cell == "w2" })
        #expect(w2.changes.contains { $0.property == "text" && $0.new.contains("Set far away") })
    }

    @Test func aTraitChangeTouchesLiveRowsAndReleasedRowsTakeItWhenShown() throws {
        let steps = String(repeating: #"{"scroll": {"by": 300}}"# + "\n", count: 30)
        let (scene, events) = try EventStreamParser.parse(Self.stream + "\n" + steps + """
            {"traits": {"style": "dark"}}
            {"scroll": {"to": 0}}
            """, source: "traits.jsonl")
        let engine = try Engine(scene: scene, catalog: ConfigurationCatalog(), options: .init(textMeasurer: FixedAdvanceTextMeasurer()))
        engine.detachedRowsKept = 1
        _ = try engine.start()
        for e in events.dropLast(2) { _ = try engine.run(e) }
        let alive = engine.madeRowCount
        #expect(alive < 30, "rows shown on the way were released")
        let change = try engine.run(events[events.count - 2])
        #expect(change.updates.count <= alive)
        let back = try engine.run(events[events.count - 1])
        let w0 = try #require(back.updates.first { $0.cell == "w0" })
        #expect(w0.repaint != nil || w0.changes.contains { $0.reason == .reResolved }, "w0 takes the dark traits when it shows")
    }
}
