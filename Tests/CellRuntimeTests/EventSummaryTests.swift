import CellIO
import CellKit
import CellRender
import Testing
@testable import CellRuntime

/// An event's summary is kept as its actions and spelled out when read: the words must be the
/// same as ever, whichever way the summary was made, and survive the trace's JSON.
@Suite struct EventSummaryTests {
    static let stream = EngineTests.stream + """

        {"cell": "apple", "selected": true, "highlighted": false}
        {"cell": ["apple", "pear"], "set": {"text": "A"}, "background": {"cornerRadius": 4}, "setNeedsUpdateConfiguration": true}
        {"traits": {"style": "dark", "contentSize": "AX3"}}
        {"scroll": {"by": -20}}
        {"cell": "plum", "custom": {"urgent": true}}
        """

    @Test func anEngineEventsSummaryReadsAsItsActions() throws {
        let (scene, events) = try EventStreamParser.parse(Self.stream, source: "summary.jsonl")
        let engine = try Engine(scene: scene, catalog: ConfigurationCatalog(),
                                options: .init(textMeasurer: FixedAdvanceTextMeasurer()))
        #expect(try engine.start().summary == "first display")
        let summaries = try events.map { try engine.run($0).summary }
        #expect(summaries == [
            "apple: not highlighted, selected",
            "apple,pear: text=\"A\", background.cornerRadius=4, setNeedsUpdateConfiguration",
            "traits: dark, text size AX3",
            "scroll by -20",
            "plum: urgent=true",
        ])
    }

    @Test func aDescribedSummaryEqualsTheSameWordsAndSurvivesJSON() throws {
        let (_, events) = try EventStreamParser.parse(Self.stream, source: "summary.jsonl")
        let described = EventSummary(describing: events[0].actions)
        #expect(described == EventSummary("apple: not highlighted, selected"))
        #expect(described != EventSummary("apple: selected"))
        let record = TraceRecord.event(TraceEvent(number: 1, line: 12, summaryText: described))
        guard case .event(let back) = try TraceRecord.decode(line: record.json.serialized) else {
            Issue.record("the JSON line did not read back as an event")
            return
        }
        #expect(back.summary == "apple: not highlighted, selected")
        #expect(TraceRecord.event(back) == record)
    }

    @Test func settingTheSummaryReplacesTheWords() throws {
        let (_, events) = try EventStreamParser.parse(Self.stream, source: "summary.jsonl")
        var event = TraceEvent(number: 1, line: 12, summaryText: EventSummary(describing: events[0].actions))
        event.summary = "renamed"
        #expect(event.summary == "renamed")
        #expect(event.summaryText == EventSummary("renamed"))
    }
}
