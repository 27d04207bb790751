import CellKit
import Testing
@testable import CellRuntime

/// `"traits": {"level": "elevated"}` repaints the rows (their backgrounds resolve lighter in
/// dark mode) and the trace names the level.
@Suite struct ElevatedLevelTraceTests {
    @Test func anElevatedLevelRepaintsBackgroundsAndTheTraceSaysWhy() throws {
        let stream = """
            {"scene": {"appearance": "insetGrouped", "viewport": {"width": 390, "height": 200}, "traits": {"style": "dark"}}}
            {"item": {"id": "row", "set": {"text": "Row"}}}
            {"traits": {"level": "elevated"}}
            {"traits": {"level": "bogus"}}
            """
        do {
            _ = try EventStreamParser.parse(stream, source: "level.jsonl")
            Issue.record("an unknown level is refused")
        } catch {
            #expect("\(error)".contains("\"base\", \"elevated\""), "\(error)")
        }
        let valid = stream.split(separator: "\n").dropLast().joined(separator: "\n")
        let (scene, events) = try EventStreamParser.parse(valid, source: "level.jsonl")
        let engine = try Engine(scene: scene, catalog: ConfigurationCatalog(), options: .init(textMeasurer: FixedAdvanceTextMeasurer()))
        _ = try engine.start()
        let elevated = try engine.run(events[0])
        #expect(elevated.summary == "traits: elevated level")
        let row = try #require(elevated.updates.first { $0.cell == "row" })
        #expect(row.repaint?.contains("colours re-resolved for elevated level") == true, "\(String(describing: row.repaint))")
        #expect(elevated.damagedPixels > 0)
        #expect(engine.traceHeader(source: "s", plugins: []).traits.contains("elevated"))
    }
}
