import CellIO
import CellKit
import CellRender
import CellTestSupport
import Testing
@testable import CellRuntime

/// `"separators"` on the scene and on items: UIListSeparatorConfiguration for every row and for one.
@Suite struct SeparatorStreamTests {
    static let stream = """
        {"scene": {"appearance": "plain", "viewport": {"width": 390, "height": 300}, "separators": {"color": "systemGreen", "bottomSeparatorInsets": {"trailing": 10}}}}
        {"item": {"id": "plain", "set": {"text": "List's separators"}}}
        {"item": {"id": "own", "set": {"text": "Its own"}, "separators": {"topSeparatorVisibility": "visible", "bottomSeparatorInsets": {"leading": 0}, "multipleSelectionColor": "#FF0000"}}}
        {"cell": "own", "selected": true}
        """

    @Test func anItemChangesTheFieldsItNamesOfTheListsSeparators() throws {
        let (scene, _) = try EventStreamParser.parse(Self.stream, source: "s.jsonl")
        var list = ListSeparatorConfiguration()
        list.color = .systemGreen
        list.bottomSeparatorInsets = .init(trailing: 10)
        #expect(scene.separators == list)
        var own = list
        own.topSeparatorVisibility = .visible
        own.bottomSeparatorInsets = .init(leading: 0)
        own.multipleSelectionColor = Color(parsing: "#FF0000")
        #expect(scene.sections[0].items[1].separators == own)
        #expect(scene.sections[0].items[0].separators == nil, "an item without its own takes the list's")
    }

    @Test func theFirstUpdateOfARowSaysWhatItsSeparatorsAreAndTheyAreDrawn() throws {
        let (scene, events) = try EventStreamParser.parse(Self.stream, source: "s.jsonl")
        let engine = try Engine(scene: scene, catalog: ConfigurationCatalog(), options: .init(textMeasurer: FixedAdvanceTextMeasurer()))
        let first = try engine.start()
        #expect(first.updates.first { $0.cell == "plain" }?.separators == "bottom inset auto–10, color systemGreen #34C759/#30D158")
        let own = try #require(first.updates.first { $0.cell == "own" })
        #expect(own.separators?.hasPrefix("top visible, bottom inset 0–auto") == true)
        let drawings = try engine.visibleDrawings()
        let green = Color.systemGreen.resolved(with: engine.traits)
        let greenLines = drawings["plain"]!.commands.compactMap { if case .fill(let r, green) = $0 { r } else { nil } }
        #expect(greenLines.count == 1 && greenLines[0].maxX == 380)
        let selected = try engine.run(events[0])
        #expect(selected.updates.first?.separators == nil, "told once, on the row's first update")
        let red = try #require(Color(parsing: "#FF0000")).resolved(with: engine.traits)
        let redLines = try engine.visibleDrawings()["own"]!.commands.filter { if case .fill(_, red) = $0 { true } else { false } }
        #expect(redLines.count == 2, "a selected row draws both its separators in multipleSelectionColor")
        guard case .event(let decoded) = try TraceRecord(json: JSON.parse(TraceRecord.event(first).json.serialized)) else {
            Issue.record("the event record does not decode as an event"); return
        }
        #expect(decoded.updates.map(\.separators) == first.updates.map(\.separators))
    }

    @Test func badSeparatorsAreReportedWithTheirLine() {
        func message(_ line: String) -> String? {
            do { _ = try EventStreamParser.parse("{\"item\": {\"id\": \"a\"}}\n" + line, source: "s.jsonl"); return nil }
            catch { return error.description }
        }
        #expect(message("{\"item\": {\"id\": \"b\", \"separators\": {\"topSeparatorVisibility\": \"shown\"}}}")
            == "s.jsonl:2: \"topSeparatorVisibility\" is one of \"automatic\", \"visible\", \"hidden\", not \"shown\"")
        #expect(message("{\"item\": {\"id\": \"b\", \"separators\": {\"color\": \"notacolour\"}}}")?.hasPrefix("s.jsonl:2: ") == true)
        #expect(message("{\"item\": {\"id\": \"b\", \"separators\": {\"bottomSeparatorInsets\": {\"leading\": -4}}}}")?
            .contains("0…10000 points") == true)
        #expect(message("{\"item\": {\"id\": \"b\", \"separators\": {\"colour\": \"red\"}}}")?.contains("colour") == true)
    }

    /// The example stream with a row selected: red edge-to-edge top and bottom hairlines, a row
    /// without one, a selected row's blue inset hairline, the list's trailing inset elsewhere.
    @Test func separatorsMatchTheirGolden() throws {
        let frame = try #require(try OutlineExampleFrames.frame(after: "recent3: selected"), "the example stream runs")
        OutlineTests.goldens.check(frame, "separators@2x")
    }
}
