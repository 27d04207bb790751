import CellKit
import Testing
@testable import CellRuntime

/// The engine patches a redrawn row's recording in place when only its background may have
/// changed. With and without the patch, every record (damage, frames, repaint words) and every
/// row's recording after each event must be the same.
@Suite struct BackgroundRedrawConsistencyTests {
    /// The damage shortcut stream (animation, unchanged drawings, backgrounds set) with more
    /// highlights on a customised background, a selection and a scroll between them.
    static let stream = DamageConsistencyTests.stream + """

        {"cell": "kiwi", "highlighted": true}
        {"cell": "kiwi", "highlighted": false}
        {"cell": "apple", "highlighted": true}
        {"cell": "apple", "selected": true}
        {"cell": "apple", "highlighted": false}
        {"scroll": {"by": 40}}
        {"cell": "apple", "highlighted": true}
        {"cell": "apple", "highlighted": false, "selected": false}
        """

    func run(patching: Bool, recording: Bool) throws -> (records: [TraceEvent], drawings: [[String: DisplayList]]) {
        let (scene, events) = try EventStreamParser.parse(Self.stream, source: "patch.jsonl")
        var options = Engine.Options(textMeasurer: FixedAdvanceTextMeasurer(),
                                     renderer: DamageTracker(viewport: scene.viewport, scale: scene.scale),
                                     recordsPropertyChanges: recording)
        options.patchesBackgrounds = patching
        let engine = try Engine(scene: scene, catalog: ConfigurationCatalog(), options: options)
        var records = [try engine.start()]
        var drawings = [try engine.visibleDrawings()]
        for e in events {
            records.append(try engine.run(e))
            drawings.append(try engine.visibleDrawings())
        }
        return (records.map(TraceConsistencyTests.withoutTimes), drawings)
    }

    @Test(arguments: [false, true]) func patchedRowsEqualRowsRecordedAfresh(recording: Bool) throws {
        let patched = try run(patching: true, recording: recording)
        let fresh = try run(patching: false, recording: recording)
        #expect(patched.records.count == fresh.records.count)
        for (a, b) in zip(patched.records, fresh.records) { #expect(a == b, "event \(a.number): \(a.summary)") }
        for (n, (a, b)) in zip(patched.drawings, fresh.drawings).enumerated() {
            #expect(a == b, "recordings after event \(n)")
            #expect(a.sorted { $0.key < $1.key }.map(\.value.bounds) == b.sorted { $0.key < $1.key }.map(\.value.bounds),
                    "bounds after event \(n)")
        }
        #expect(patched.records.contains { $0.updates.contains { $0.damage != nil } })
    }
}
