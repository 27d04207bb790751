import CellKit
import CellTestSupport
import Testing
@testable import CellRuntime

/// An `items` line (a series: templates, an id pattern, a count) must describe exactly the list
/// its items written out one by one describe, and run exactly as that list does.
@Suite struct ItemSeriesTests {
    static let header = """
        {"scene": {"appearance": "insetGrouped", "viewport": {"width": 390, "height": 300}, "scale": 2}}
        {"section": {"id": "s", "header": "Rows"}}
        """
    static let templates = [
        #"{"set": {"text": "Inbox", "image": {"symbol": "tray"}}}"#,
        #"{"style": "subtitleCell", "set": {"text": "Drafts", "secondaryText": "3 unsent"}, "handlers": [{"when": {"selected": true}, "set": {"text": "Chosen"}}]}"#,
        #"{"style": "valueCell", "set": {"text": "Flagged", "secondaryText": "12"}, "background": {"set": {"cornerRadius": 4}}}"#,
    ]

    /// The same list as a series from `from` and written out, one item line per item.
    static func streams(count: Int, from: Int = 0) -> (series: String, written: String) {
        let series = header + "\n" + #"{"items": {"id": "row{n}", "from": \#(from), "count": \#(count), "templates": [\#(templates.joined(separator: ", "))]}}"#
        var written = header
        for k in 0..<count {
            let template = templates[k % templates.count]
            written += "\n{\"item\": {\"id\": \"row\(from + k)\", " + template.dropFirst() + "}"
        }
        return (series, written)
    }

    /// Items without their line numbers (a series' items all carry the series' line).
    func unlined(_ items: ItemList) -> [ItemDescription] {
        items.map { item in
            var copy = item
            copy.line = 0
            return copy
        }
    }

    @Test func aSeriesParsesToTheItemsWrittenOut() throws {
        let (series, written) = Self.streams(count: 10, from: 7)
        let a = try EventStreamParser.parse(series, source: "series").0.sections[0].items
        let b = try EventStreamParser.parse(written, source: "written").0.sections[0].items
        #expect(a.count == 10 && a.runs.count == 1)
        #expect(unlined(a) == unlined(b))
        #expect(a[0].id == "row7" && a[9].id == "row16")
        #expect(a[4].style == "subtitleCell")
        #expect(a.firstIndex(ofID: "row12") == 5)
        #expect(a.firstIndex(ofID: "row6") == nil && a.firstIndex(ofID: "row17") == nil && a.firstIndex(ofID: "row012") == nil)
    }

    @Test func insertingAndRemovingKeepsTheListEqualToAnArray() throws {
        let parsed = try EventStreamParser.parse(Self.streams(count: 40).series, source: "series").0
        var list = parsed.sections[0].items
        var plain = Array(list)
        var random = SeededRandom(state: 11)
        for step in 0..<120 {
            if random.next(3) == 0 || plain.isEmpty {
                let at = random.next(plain.count + 1)
                let item = ItemDescription(id: "new\(step)", style: "valueCell")
                list.insert(item, at: at)
                plain.insert(item, at: at)
            } else {
                let at = random.next(plain.count)
                #expect(list.remove(at: at) == plain.remove(at: at))
            }
            #expect(Array(list) == plain)
            if let probe = plain.indices.randomElement() {
                #expect(list.firstIndex(ofID: plain[probe].id) == probe)
            }
        }
    }

    @Test func badSeriesAreReportedWithTheLine() {
        func message(_ line: String, before: String = "") -> String? {
            do {
                _ = try EventStreamParser.parse(Self.header + "\n" + before + line, source: "bad.jsonl")
                return nil
            } catch { return "\(error)" }
        }
        let t = #""templates": [{"set": {"text": "A"}}]"#
        #expect(message(#"{"items": {"id": "row", "count": 3, \#(t)}}"#)?.contains("{n}") == true)
        #expect(message(#"{"items": {"id": "row{n}", "count": 0, \#(t)}}"#)?.contains("\"count\" must be") == true)
        #expect(message(#"{"items": {"id": "row{n}", "count": 3, "templates": []}}"#)?.contains("non-empty array") == true)
        #expect(message(#"{"items": {"id": "row{n}", "count": 3, "templates": [{"id": "x"}]}}"#)?.contains("no \"id\"") == true)
        #expect(message(#"{"items": {"id": "row{n}", "count": 3, "templates": [{"style": "celll"}]}}"#)?.contains("cell") == true)
        #expect(message(#"{"items": {"id": "row{n}", "count": 3, \#(t)}}"#, before: #"{"item": {"id": "row2"}}"# + "\n")?
            .contains("\"row2\" already exists") == true)
        #expect(message(#"{"items": {"id": "row{n}", "from": 2, "count": 3, \#(t)}}"#,
                        before: #"{"items": {"id": "row{n}", "count": 3, \#(t)}}"# + "\n")?.contains("may repeat ids") == true)
        #expect(message(#"{"items": {"id": "row{n}", "from": 3, "count": 3, \#(t)}}"#,
                        before: #"{"items": {"id": "row{n}", "count": 3, \#(t)}}"# + "\n") == nil)
        #expect(message(#"{"item": {"id": "row1"}}"#, before: #"{"items": {"id": "row{n}", "count": 3, \#(t)}}"# + "\n")?
            .contains("already exists") == true)
        #expect(message(#"{"cell": "row3", "selected": true}"#, before: #"{"items": {"id": "row{n}", "count": 3, \#(t)}}"# + "\n")?
            .contains("no item \"row3\"") == true)
        #expect(message(#"{"cell": "row2", "selected": true}"#, before: #"{"items": {"id": "row{n}", "count": 3, \#(t)}}"# + "\n") == nil)
        #expect(message(#"{"cell": "row1", "selected": true}"#,
                        before: #"{"items": {"id": "row{n}", "count": 3, \#(t)}}"# + "\n" + #"{"delete": "row1"}"# + "\n")?
            .contains("no item \"row1\"") == true)
    }

    /// The trace of a run without what differs between runs (timings) and item lines.
    func runTrace(_ stream: String) throws -> [TraceEvent] {
        let (scene, events) = try EventStreamParser.parse(stream, source: "run.jsonl")
        let engine = try Engine(scene: scene, catalog: ConfigurationCatalog(), options: .init(textMeasurer: FixedAdvanceTextMeasurer()))
        var trace = [try engine.start()]
        for e in events { trace.append(try engine.run(e)) }
        return trace.map { event in
            var e = event
            e.start = 0
            e.line = 0
            e.timings = PhaseTimings()
            e.updates = e.updates.map { u in
                var copy = u
                copy.micros = 0
                return copy
            }
            return e
        }
    }

    @Test func aSeriesRunsAsItsItemsWrittenOut() throws {
        let events = """
            {"cell": "row1", "selected": true}
            {"cell": "row28", "set": {"text": "Far"}}
            {"delete": "row2"}
            {"insert": {"id": "fresh", "set": {"text": "Fresh"}, "index": 1}}
            {"scroll": {"to": 2000}}
            {"traits": {"style": "dark"}}
            {"reload": "row4"}
            {"scroll": {"by": -400}}
            """
        let (series, written) = Self.streams(count: 30)
        let a = try runTrace(series + "\n" + events), b = try runTrace(written + "\n" + events)
        #expect(a.count == 9)
        #expect(a == b)
        let far = try #require(a[5].updates.first { $0.cell == "row28" }, "the bottom of the list shows row28")
        #expect(far.changes.contains { $0.property == "text" && $0.new.contains("Far") })
    }

    @Test func aMillionItemSeriesMakesRowsOnlyForWhatIsShownOrTargeted() throws {
        let stream = Self.streams(count: 1_000_000).series + "\n" + """
            {"cell": "row999999", "selected": true}
            {"scroll": {"to": 100000000}}
            {"delete": "row500000"}
            """
        let (scene, events) = try EventStreamParser.parse(stream, source: "million.jsonl")
        #expect(scene.itemCount == 1_000_000)
        let engine = try Engine(scene: scene, catalog: ConfigurationCatalog(), options: .init(textMeasurer: FixedAdvanceTextMeasurer()))
        let first = try engine.start()
        #expect(engine.madeRowCount == first.updates.count && engine.madeRowCount < 20)
        _ = try engine.run(events[0])
        let bottom = try engine.run(events[1])
        let last = try #require(bottom.updates.first { $0.cell == "row999999" })
        #expect(last.stateAfter == ["selected"])
        _ = try engine.run(events[2])
        #expect(engine.madeRowCount < 60)
    }
}
