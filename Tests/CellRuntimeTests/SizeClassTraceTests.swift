import CellKit
import Testing
@testable import CellRuntime

/// A trait event to a regular width restyles the side margins of list content, and the trace
/// says so with the trait as its cause; the rows keep their heights.
@Suite struct SizeClassTraceTests {
    @Test func aRegularWidthRestylesTheMarginsAndTheTraceNamesIt() throws {
        let stream = """
            {"scene": {"appearance": "plain", "viewport": {"width": 600, "height": 200}}}
            {"item": {"id": "row", "set": {"text": "Row"}}}
            {"traits": {"horizontalSizeClass": "regular"}}
            {"traits": {"horizontalSizeClass": "compact"}}
            """
        let (scene, events) = try EventStreamParser.parse(stream, source: "width.jsonl")
        let engine = try Engine(scene: scene, catalog: ConfigurationCatalog(), options: .init(textMeasurer: FixedAdvanceTextMeasurer()))
        let first = try engine.start()
        let wide = try engine.run(events[0]), back = try engine.run(events[1])
        let widened = try #require(wide.updates.first { $0.cell == "row" }?.changes.first { $0.property == "directionalLayoutMargins" })
        #expect(widened.reason == .restyled && widened.cause == "regular width", "\(widened)")
        #expect(widened.new.contains("20"))
        let narrowed = try #require(back.updates.first { $0.cell == "row" }?.changes.first { $0.property == "directionalLayoutMargins" })
        #expect(narrowed.reason == .restyled && narrowed.cause == "compact width")
        #expect(first.updates.first { $0.cell == "row" }?.size == wide.updates.first { $0.cell == "row" }?.size)
    }
}
