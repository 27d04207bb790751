import CellKit
import Testing
@testable import CellRuntime

/// The engine's shortcuts change what a pass costs, never what it does: a run without
/// property-change recording, or without reusing the visible rows, traces the same updates,
/// views, geometry, damage and frames as the full path.
@Suite struct TraceConsistencyTests {
    /// Rows that grow and shrink (a long text wraps at the row width), scroll, insert, delete,
    /// traits, background sets and a handler, so layouts change under the shortcuts.
    static let stream = EngineTests.stream + """

        {"cell": "apple", "highlighted": true}
        {"cell": "apple", "highlighted": false, "selected": true}
        {"cell": "pear", "set": {"text": "A pear with a name long enough to wrap onto a second and a third line"}}
        {"cell": "plum", "background": {"backgroundColor": "systemYellow"}}
        {"scroll": {"by": 120}}
        {"cell": "kiwi", "highlighted": true}
        {"insert": {"section": "more", "index": 0, "id": "mango", "set": {"text": "Mango"}, "handlers": [{"when": {"selected": true}, "set": {"textProperties.color": "white"}}]}}
        {"cell": "mango", "selected": true}
        {"cell": "pear", "set": {"text": "Pear"}}
        {"traits": {"style": "dark", "contentSize": "XXL"}}
        {"scroll": {"to": 0}}
        {"delete": "plum"}
        {"cell": "apple", "selected": false, "setNeedsUpdateConfiguration": true}
        {"capture": "end"}
        """

    func run(_ configure: (inout Engine.Options) -> Void = { _ in }, reusesVisibleRows: Bool = true) throws -> [TraceEvent] {
        let (scene, events) = try EventStreamParser.parse(Self.stream, source: "shortcuts.jsonl")
        var options = Engine.Options(textMeasurer: FixedAdvanceTextMeasurer())
        configure(&options)
        let engine = try Engine(scene: scene, catalog: ConfigurationCatalog(), options: options)
        engine.reusesVisibleRows = reusesVisibleRows
        var records = [try engine.start()]
        for e in events { records.append(try engine.run(e)) }
        return records.map(Self.withoutTimes)
    }

    static func withoutTimes(_ event: TraceEvent) -> TraceEvent {
        var e = event
        e.start = 0
        e.timings = PhaseTimings()
        for i in e.updates.indices { e.updates[i].micros = 0 }
        return e
    }

    /// The engine refills the lists of its last trace record once that record is dropped: records
    /// kept while it goes on read the same as records read at once and dropped.
    @Test func keptRecordsAreNotOverwrittenByLaterEvents() throws {
        let kept = try run().map { "\($0)" }
        let (scene, events) = try EventStreamParser.parse(Self.stream, source: "shortcuts.jsonl")
        let engine = try Engine(scene: scene, catalog: ConfigurationCatalog(),
                                options: Engine.Options(textMeasurer: FixedAdvanceTextMeasurer()))
        var readAtOnce = ["\(Self.withoutTimes(try engine.start()))"]
        for e in events { readAtOnce.append("\(Self.withoutTimes(try engine.run(e)))") }
        #expect(kept == readAtOnce)
        #expect(kept.count == events.count + 1)
    }

    @Test func withoutRecordingOnlyPropertyChangesAndRepaintWordsAreMissing() throws {
        let full = try run()
        let light = try run { $0.recordsPropertyChanges = false }
        #expect(full.contains { $0.updates.contains { !$0.changes.isEmpty } }, "the stream changes properties")
        #expect(full.contains { $0.updates.contains { $0.repaint != nil } }, "and repaints for traits")
        #expect(light.allSatisfy { $0.updates.allSatisfy { $0.changes.isEmpty && $0.repaint == nil } })
        let stripped = full.map { event in
            var e = event
            for i in e.updates.indices {
                e.updates[i].changes = []
                e.updates[i].repaint = nil
            }
            return e
        }
        #expect(stripped.count == light.count)
        for (a, b) in zip(stripped, light) { #expect(a == b, "event \(a.number): \(a.summary)") }
    }

    @Test func reusingTheVisibleRowsTracesWhatWalkingTheLayoutEveryPassTraces() throws {
        let reused = try run()
        let walked = try run(reusesVisibleRows: false)
        #expect(reused.count == walked.count)
        for (a, b) in zip(reused, walked) { #expect(a == b, "event \(a.number): \(a.summary)") }
        let heights = Set(reused.flatMap { $0.updates.filter { $0.cell == "pear" }.map(\.size.height) })
        #expect(heights.count >= 3, "pear grew and shrank under the shortcut: \(heights)")
    }
}
