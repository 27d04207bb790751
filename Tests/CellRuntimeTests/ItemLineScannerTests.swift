import CellKit
import CellTestSupport
import Testing
@testable import CellRuntime

/// Item lines of the common form go straight into the scene's columns (`ItemLineScanner`): the
/// list must be exactly the one the full parser makes from the same lines, every line it does
/// not take must still be read (and its mistakes reported) by the full parser, and the scene
/// check, which checks later items of a shape by value, must fail as setting each item would.
@Suite struct ItemLineScannerTests {
    static let header = """
        {"scene": {"appearance": "insetGrouped", "viewport": {"width": 390, "height": 300}, "scale": 2}}
        {"section": {"id": "s", "header": "Rows"}}
        """

    /// A random item line: mostly of the common form, some with what only the full parser
    /// reads (escapes, fractions, colours, other fields, odd spacing, non-ASCII text).
    static func line(_ k: Int, _ random: inout SeededRandom) -> String {
        let styles = ["cell", "subtitleCell", "valueCell", "sidebarCell"]
        var fields = ["\"id\": \"r\(k)\""]
        if random.next(4) != 0 { fields.append("\"style\": \"\(styles[random.next(styles.count)])\"") }
        var set: [String] = []
        let values = [#""Item \#(k)""#, "\(random.next(1000) - 500)", "true", "false", #""é \#(k)""#, #""tab\t\#(k)""#,
                      "1.5", "007", "-0", "1e3", #""say \"hi\"""#, "null", #""""#]
        for name in ["text", "secondaryText", "textProperties.numberOfLines", "axesPreservingSuperviewLayoutMargins"]
        where random.next(2) == 0 {
            set.append("\"\(name)\": \(values[random.next(values.count)])")
        }
        if random.next(10) == 0 { set.append(#""textProperties.color": "systemRed""#) }
        if !set.isEmpty || random.next(3) == 0 { fields.append("\"set\": {" + set.joined(separator: random.next(2) == 0 ? ", " : ",") + "}") }
        if random.next(12) == 0 { fields.append(#""background": "clear""#) }
        for i in stride(from: fields.count - 1, to: 0, by: -1) { fields.swapAt(i, random.next(i + 1)) }
        let spacing = random.next(5) == 0 ? "  " : ""
        return "{\(spacing)\"item\":\(spacing) {" + fields.joined(separator: ", ") + "}\(spacing)}"
    }

    /// The same line read only by the full parser: a note changes nothing in the scene, and no
    /// line with one is of the common form.
    static func withNote(_ line: String) -> String { String(line.dropLast()) + #", "note": "n"}"# }

    @Test func theDirectFillMakesTheListTheFullParserMakes() throws {
        for seed in 1...20 {
            var random = SeededRandom(state: UInt64(seed))
            let lines = (0..<300).map { Self.line($0, &random) }
            let direct = try EventStreamParser.parse(Self.header + "\n" + lines.joined(separator: "\n"), source: "direct").0
            let full = try EventStreamParser.parse(Self.header + "\n" + lines.map(Self.withNote).joined(separator: "\n"), source: "full").0
            #expect(direct == full, "seed \(seed)")
            #expect(direct.sections[0].items.runs == full.sections[0].items.runs, "seed \(seed): stored alike")
            #expect(Array(direct.sections[0].items).map(\.line) == Array(3..<303))
        }
    }

    @Test func aLineTakenDirectlyReadsAsWritten() throws {
        let scene = try EventStreamParser.parse(Self.header + "\n"
            + #"{ "item" : { "style" : "valueCell" , "id" : "a", "set" : { "text" : "A" , "secondaryText": "1" , "x.n": -12, "y": true } } }"#,
            source: "one").0
        let item = scene.sections[0].items[0]
        #expect(item == ItemDescription(id: "a", style: "valueCell", properties: [
            PropertyAssignment(name: "text", value: .string("A")), PropertyAssignment(name: "secondaryText", value: .string("1")),
            PropertyAssignment(name: "x.n", value: .int(-12)), PropertyAssignment(name: "y", value: .bool(true)),
        ], line: 3))
    }

    /// Lines the direct path does not take still get the full parser's errors, with their line.
    @Test(arguments: [
        (#"{"item": {"id": "r1", "style": "cel"}}"#, #""cel" is not a list content style"#),
        (#"{"item": {"id": ""}}"#, #""id" must not be empty"#),
        (#"{"item": {"style": "cell"}}"#, #""item" needs "id""#),
        (#"{"item": {"id": "r9", "id": "r8"}}"#, #"key "id" appears twice"#),
        (#"{"item": {"id": "r9", "set": {"text": "a", "text": "b"}}}"#, #"key "text" appears twice"#),
        (#"{"item": {"id": "r9", "set": {"text": "a",}}}"#, "trailing ','"),
        (#"{"item": {"id": "r9", "set": {"textProperties.color": "blurple"}}}"#, "is not a colour"),
        (#"{"item": {"id": "r9"}} x"#, "after the end of the value"),
        (#"{"item": {"id": "r9", "stlye": "cell"}}"#, #""stlye" is not a field of "item""#),
    ])
    func badLinesKeepTheirErrors(line: String, message: String) {
        let stream = Self.header + "\n" + #"{"item": {"id": "r0", "style": "cell"}}"# + "\n" + line
        do {
            _ = try EventStreamParser.parse(stream, source: "bad.jsonl")
            Issue.record("\(line) was taken")
        } catch {
            #expect(error.line == 4 && error.source == "bad.jsonl" && error.message.contains(message), "\(error)")
        }
    }

    @Test func aRepeatedIDNamesBothLines() {
        var stream = Self.header
        for k in 0..<100 { stream += "\n" + #"{"item": {"id": "r\#(k)", "style": "cell", "set": {"text": "\#(k)"}}}"# }
        stream += "\n" + #"{"item": {"id": "r41", "style": "cell", "set": {"text": "again"}}}"#
        do {
            _ = try EventStreamParser.parse(stream, source: "twice")
            Issue.record("the repeated id was taken")
        } catch {
            #expect(error.line == 103 && error.message.contains(#"item "r41" already exists (line 44)"#), "\(error)")
        }
    }

    /// Ids in no order are checked for repeats in batches; a repeat is still the stream's error,
    /// at the repeating line, before any mistake on a later line, and at the end of a stream
    /// without events, and a list without repeats loads whole.
    @Test func aRepeatAmongIDsInNoOrderIsTheErrorOfItsLine() throws {
        let count = 1_000
        let items = (0..<count).map { #"{"item": {"id": "r\#($0 * 7919 % count)", "style": "cell", "set": {"text": "\#($0)"}}}"# }
        let loaded = try EventStreamParser.parse(Self.header + "\n" + items.joined(separator: "\n"), source: "scrambled").0
        #expect(loaded.sections[0].items.map(\.id) == (0..<count).map { "r\($0 * 7919 % count)" })
        // "r7919 % count" is the second item (line 4); it comes again at line 3 + 500.
        var repeated = items
        repeated[499] = #"{"item": {"id": "r\#(7919 % count)", "style": "cell", "set": {"text": "again"}}}"#
        for (tail, ending) in [("", "at the end"), ("\n{\"cell\": \"r5\", \"selected\": true}", "before an event"),
                               ("\n{\"item\": {\"id\": \"bad\", \"style\": \"cel\"}}", "before a bad line"),
                               ("\n{\"section\": {\"id\": \"t\"}}", "before a section")] {
            do {
                _ = try EventStreamParser.parse(Self.header + "\n" + repeated.joined(separator: "\n") + tail, source: "twice")
                Issue.record("the repeated id was taken \(ending)")
            } catch {
                #expect(error.line == 502 && error.message == #"item "r\#(7919 % count)" already exists (line 4); ids must be unique"#,
                        "\(ending): \(error)")
            }
        }
    }

    /// Scene items are found through the lists' id indexes: events name them, deletes and
    /// inserts change which ids are live, and a misspelt id still gets a suggestion.
    @Test func liveIDsFollowDeletesAndInserts() throws {
        var stream = Self.header
        for k in 0..<50 { stream += "\n" + #"{"item": {"id": "r\#(k)", "set": {"text": "\#(k)"}}}"# }
        stream += "\n" + #"{"cell": "r7", "selected": true}"#
        stream += "\n" + #"{"delete": "r7"}"#
        stream += "\n" + #"{"insert": {"id": "r7", "set": {"text": "back"}}}"#
        stream += "\n" + #"{"delete": "r7"}"#
        #expect(try EventStreamParser.parse(stream, source: "live").1.count == 4)
        for (event, message) in [(#"{"cell": "r7", "selected": true}"#, #"no item "r7""#),
                                 (#"{"cell": "rr12", "selected": true}"#, #"did you mean "r12"?"#),
                                 (#"{"insert": {"id": "r8"}}"#, #"item "r8" already exists (line 11)"#)] {
            do {
                _ = try EventStreamParser.parse(stream + "\n" + event, source: "live")
                Issue.record("\(event) was taken")
            } catch {
                #expect(error.line == 57 && error.message.contains(message), "\(error)")
            }
        }
    }

    /// The scene check by value fails exactly as setting each item's properties on its own would
    /// (a list of items kept written out, which the check sets one by one).
    @Test func theCheckByValueFailsAsSettingEachItemWould() throws {
        let bads = [#""text": 5"#, #""textProperties.numberOfLines": -1"#, #""textProperties.numberOfLines": "x""#,
                    #""nonsense": 1"#, #""text": "\#(String(repeating: "long ", count: 300_000))""#]
        for (b, bad) in bads.enumerated() {
            for at in [0, 3, 77] {
                var stream = Self.header
                for k in 0..<100 {
                    let set = k == at ? bad : #""text": "Item \#(k)", "textProperties.numberOfLines": \#(k % 4)"#
                    stream += "\n" + #"{"item": {"id": "r\#(k)", "style": "\#(["cell", "valueCell"][k % 2])", "set": {\#(set)}}}"#
                }
                var scene = try EventStreamParser.parse(stream, source: "bad").0
                let byColumn = Self.checkError(scene)
                scene.sections[0].items = ItemList(Array(scene.sections[0].items))
                let oneByOne = Self.checkError(scene)
                #expect(byColumn != nil && byColumn?.line == oneByOne?.line && byColumn?.message == oneByOne?.message,
                        "bad value \(b) at \(at): \(String(describing: byColumn)) vs \(String(describing: oneByOne))")
            }
        }
    }

    /// Text properties are decided for a whole shape at once (any string up to the longest
    /// held): a wrong value in a later item of a shape, the 2nd or the 1,000th, must still fail
    /// with that item's line, as setting it on its own would.
    @Test(arguments: [("secondaryText", "5"), ("secondaryText", "true"), ("textProperties.alignment", #""sideways""#),
                      ("textProperties.numberOfLines", "-1"), ("text", #""\#(String(repeating: "long ", count: 300_000))""#),
                      ("nonsense", #""x""#)])
    func aWrongValueInALaterItemOfAShapeFailsNamingItsLine(name: String, bad: String) throws {
        for at in [1, 999] {
            var stream = Self.header
            for k in 0..<1_200 {
                var set = [("text", #""Item \#(k)""#), ("secondaryText", #""\#(k % 97)""#),
                           ("textProperties.alignment", #""\#(["natural", "center"][k % 2])""#),
                           ("textProperties.numberOfLines", "\(k % 4)")]
                if k == at { set = set.map { $0.0 == name ? (name, bad) : $0 } + (set.contains { $0.0 == name } ? [] : [(name, bad)]) }
                let written = set.map { #""\#($0.0)": \#($0.1)"# }.joined(separator: ", ")
                stream += "\n" + #"{"item": {"id": "r\#(k)", "style": "cell", "set": {\#(written)}}}"#
            }
            var scene = try EventStreamParser.parse(stream, source: "bad").0
            #expect(scene.sections[0].items.runs.allSatisfy(ItemColumnsTests.isColumns))
            let byColumn = Self.checkError(scene)
            scene.sections[0].items = ItemList(Array(scene.sections[0].items))
            let oneByOne = Self.checkError(scene)
            #expect(byColumn?.line == 3 + at && byColumn?.message.contains("r\(at)") == true, "\(name) at \(at): \(String(describing: byColumn))")
            #expect(byColumn?.line == oneByOne?.line && byColumn?.message == oneByOne?.message,
                    "\(name) at \(at): \(String(describing: byColumn)) vs \(String(describing: oneByOne))")
        }
    }

    /// A random item file, with repeated ids and wrong values here and there, fails on the same
    /// line with the same message whether its lines are taken directly or all read by the full
    /// parser, and the scene check of what it holds fails alike.
    @Test func aRandomFileFailsAsTheFullParserFails() throws {
        for seed in 1...30 {
            var random = SeededRandom(state: UInt64(100 + seed))
            var lines = (0..<400).map { Self.line($0, &random) }
            let at = 1 + random.next(398)
            switch seed % 3 {
            case 0: lines[at] = #"{"item": {"id": "r\#(random.next(at))", "style": "cell", "set": {"text": "again"}}}"#
            case 1: lines[at] = #"{"item": {"id": "x\#(at)", "style": "cell", "set": {"text": \#(random.next(9))}}}"#
            default: lines[at] = #"{"item": {"id": "x\#(at)", "style": "cell", "set": {"textProperties.alignment": "middle"}}}"#
            }
            func outcome(_ lines: [String]) -> String {
                do {
                    var scene = try EventStreamParser.parse(Self.header + "\n" + lines.joined(separator: "\n"), source: "random").0
                    let byColumn = Self.checkError(scene).map { "check \($0.line ?? 0): \($0.message)" } ?? "fine"
                    scene.sections[0].items = ItemList(Array(scene.sections[0].items))
                    let oneByOne = Self.checkError(scene).map { "check \($0.line ?? 0): \($0.message)" } ?? "fine"
                    return byColumn == oneByOne ? byColumn : "\(byColumn), but one by one \(oneByOne)"
                } catch {
                    return "parse \(error.line): \(error.message)"
                }
            }
            let direct = outcome(lines), full = outcome(lines.map(Self.withNote))
            #expect(direct == full && direct != "fine", "seed \(seed): \(direct) vs \(full)")
        }
    }

    static func checkError(_ scene: SceneDescription) -> EngineError? {
        do {
            _ = try Engine(scene: scene, catalog: ConfigurationCatalog(), options: .init(textMeasurer: FixedAdvanceTextMeasurer()))
            return nil
        } catch {
            return error
        }
    }
}
