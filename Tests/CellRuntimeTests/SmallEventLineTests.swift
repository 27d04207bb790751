import Testing
@testable import CellRuntime

/// The small event lines read from their bytes mean what the general reading makes of them, and
/// every line not exactly of that shape still gets the general reading's meaning and errors.
@Suite struct SmallEventLineTests {
    let scene = """
        {"scene": {"appearance": "insetGrouped", "viewport": {"width": 390, "height": 600}, "scale": 3}}
        {"section": {"id": "s", "header": "Items"}}
        {"item": {"id": "apple", "set": {"text": "Apple"}}}
        {"items": {"id": "row{n}", "count": 3, "templates": [{"set": {"text": "Row"}}]}}
        """

    func events(_ lines: [String]) throws -> [Event] {
        try EventStreamParser.parse(scene + "\n" + lines.joined(separator: "\n"), source: "events.jsonl").1
    }

    func small(_ line: String) -> SmallEventLine? {
        var line = line
        return line.withUTF8(SmallEventLine.init)
    }

    @Test func eachCellStateMeansWhatTheGeneralReadingMakesOfIt() throws {
        for key in ["highlighted", "selected", "disabled", "focused", "editing", "expanded", "swiped", "reordering"] {
            for value in ["true", "false"] {
                let line = #"{"cell": "apple", "\#(key)": \#(value)}"#
                #expect(small(line) != nil, "\(line)")
                // The same event with its keys the other way round is read the general way.
                let parsed = try events(["{\"cell\": \"row1\", \"selected\": true}", line, #"{"\#(key)": \#(value), "cell": "apple"}"#,
                                         #"{"cell":"row2","\#(key)":\#(value)}"#])
                #expect(small(#"{"\#(key)": \#(value), "cell": "apple"}"#) == nil)
                #expect(parsed.map(\.number) == [1, 2, 3, 4])
                #expect(parsed.map(\.line) == [5, 6, 7, 8])
                #expect(parsed[1].actions == parsed[2].actions, "\(line)")
                #expect(parsed[3].actions == [.cells(CellEvent(targets: [.cell("row2")], state: parsed[1].cellState))])
            }
        }
    }

    @Test func onlyTheExactShapeIsReadFromItsBytes() {
        #expect(small("{ \"cell\" :\t\"a b\" , \"highlighted\":false }  ")?.id == "a b")
        #expect(small(#"{"cell": "apple", "highlighted": true}"#)?.state == StateChange(highlighted: true))
        for line in [#"{"cell": "apple", "highlighted": true} x"#, #"{"cell": "apple", "highlighted": True}"#,
                     #"{"cell": "apple", "highlighted": true"#, #"{"cell": "app\u006ce", "highlighted": true}"#,
                     #"{"cell": "äpple", "highlighted": true}"#, #"{"cell": "", "highlighted": true}"#,
                     #"{"cell": "apple", "pinned": true}"#, #"{"cell": "apple", "hilighted": true}"#,
                     #"{"cell": ["apple"], "highlighted": true}"#, "{\"cell\": \"apple\", \"highlighted\": true}\r",
                     #"{"cell": "apple", "highlighted": true, "note": "n"}"#] {
            #expect(small(line) == nil, "\(line)")
        }
    }

    @Test func linesLeftToTheGeneralReadingKeepTheirMeaningAndErrors() throws {
        let escaped = try events(["{\"cell\": \"row0\", \"selected\": true}", #"{"cell": "app\u006ce", "highlighted": true}"#])
        #expect(escaped[1].actions == [.cells(CellEvent(targets: [.cell("apple")], state: StateChange(highlighted: true)))])
        for (line, message) in [(#"{"cell": "appel", "highlighted": true}"#, "no item \"appel\""),
                                (#"{"cell": "apple", "pinned": true}"#, "\"pinned\" applies to headers and footers"),
                                (#"{"cell": "row3", "selected": true}"#, "no item \"row3\"")] {
            do {
                _ = try events(["{\"cell\": \"row0\", \"selected\": true}", line])
                Issue.record("\(line) was accepted")
            } catch let error as EventStreamError {
                #expect(error.line == 6)
                #expect(error.message.contains(message), "\(error.message)")
            }
        }
    }
}

extension Event {
    /// The state change of an event of one cell action.
    fileprivate var cellState: StateChange {
        guard case .cells(let e) = actions.first else { return StateChange() }
        return e.state
    }
}
