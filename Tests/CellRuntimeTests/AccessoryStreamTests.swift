import CellIO
import CellKit
import CellRender
import CellTestSupport
import Testing
@testable import CellRuntime

/// Accessories and swipe actions from a stream: what the parser reads (and refuses, with the
/// line), what the engine's records say about them, how the trace carries them, and that a
/// plugin cell's content view makes room for them as a built-in one does.
@Suite struct AccessoryStreamTests {
    static let scene = """
        {"scene": {"appearance": "plain", "viewport": {"width": 390, "height": 400}, "scale": 1}}
        {"section": {"id": "mail", "header": "Mail"}}
        {"item": {"id": "inbox", "set": {"text": "Inbox"}, "accessories": [{"label": {"text": "12"}}, "disclosureIndicator", "delete", {"reorder": {"tintColor": "systemBlue"}}], "swipeActions": {"trailing": [{"title": "Delete", "style": "destructive", "image": "trash"}, {"title": "More"}], "leading": [{"title": "Pin", "backgroundColor": "systemOrange"}]}}}
        {"item": {"id": "plain", "set": {"text": "Plain"}}}
        {"item": {"id": "star", "set": {"text": "Star"}, "accessories": [{"customView": {"symbol": "star.fill", "width": 20, "height": 20, "placement": "leading", "reservedLayoutWidth": 30, "displayed": "whenNotEditing"}}]}}
        """

    func parse(_ events: String) throws -> (SceneDescription, [Event]) {
        try EventStreamParser.parse(Self.scene + "\n" + events, source: "events.jsonl")
    }

    func error(_ events: String) -> EventStreamError? {
        do { _ = try parse(events); return nil } catch { return error as? EventStreamError }
    }

    @Test func itemsCarryAccessoriesWithUIKitDefaultsAndSwipeActions() throws {
        let (scene, _) = try parse("")
        let items = scene.sections[0].items
        let inbox = try #require(items.first { $0.id == "inbox" })
        let d = inbox.decorations
        #expect(d.accessories == [CellAccessory(.label(text: "12")), CellAccessory(.disclosureIndicator), CellAccessory(.delete),
                                  CellAccessory(.reorder, tintColor: .systemBlue)])
        #expect(d.accessories[2].placement == .leading && d.accessories[2].displayed == .whenEditing)
        #expect(d.trailingSwipeActions?.actions == [SwipeAction(title: "Delete", style: .destructive, image: Image(systemName: "trash")),
                                                    SwipeAction(title: "More")])
        #expect(d.leadingSwipeActions?.actions.first?.resolvedBackgroundColor == .systemOrange)
        #expect(d.openSwipeEdge == .none)
        #expect(try #require(items.first { $0.id == "plain" }).decorations.isEmpty)
        let star = try #require(items.first { $0.id == "star" }).decorations.accessories[0]
        #expect(star == CellAccessory(.customView(image: Image(systemName: "star.fill"), size: Size(width: 20, height: 20)),
                                      displayed: .whenNotEditing, placement: .leading, reservedLayoutWidth: .custom(30)))
    }

    @Test func eventsSetAccessoriesAndOpenSwipes() throws {
        let (_, events) = try parse("""
            {"cell": "plain", "set": {"accessories": ["checkmark"], "text": "Checked"}}
            {"swipe": {"cell": "inbox", "edge": "trailing"}}
            {"swipe": {"cell": "inbox", "edge": "none"}}
            """)
        guard case .cells(let set) = events[0].actions[0], case .cells(let open) = events[1].actions[0],
              case .cells(let close) = events[2].actions[0] else { Issue.record("not cell events"); return }
        #expect(set.accessories == [CellAccessory(.checkmark)])
        #expect(set.set == [PropertyAssignment(name: "text", value: .string("Checked"))])
        #expect(open.targets == [.cell("inbox")] && open.swipe == .trailing)
        #expect(close.swipe == SwipeEdge.none)
        #expect(EventSummary(describing: events[0].actions).description == "plain: text=\"Checked\", accessories=[checkmark]")
        #expect(EventSummary(describing: events[1].actions).description == "inbox: swiped trailing")
    }

    @Test func mistakesNameTheLineAndWhatIsWrong() throws {
        let firstEventLine = Self.scene.split(separator: "\n").count + 1
        let cases: [(String, String)] = [
            (#"{"cell": "plain", "set": {"accessories": ["disclosure"]}}"#, "\"disclosure\" is not an accessory"),
            (#"{"cell": "plain", "set": {"accessories": [{"label": {}}]}}"#, "a \"label\" accessory needs \"text\""),
            (#"{"cell": "plain", "set": {"accessories": "checkmark"}}"#, "\"accessories\" takes an array"),
            (#"{"cell": "plain", "set": {"accessories": [{"checkmark": {"placement": "left"}}]}}"#, "\"placement\" is one of"),
            (#"{"cell": "plain", "set": {"accessories": [{"checkmark": {"tintColor": "blu"}}]}}"#, "is not a colour for \"tintColor\""),
            (#"{"header": "mail", "set": {"accessories": ["checkmark"]}}"#, "\"accessories\" belong to cells"),
            (#"{"swipe": {"cell": "inbox", "edge": "left"}}"#, "\"edge\" is one of"),
            (#"{"swipe": {"cell": "nobox", "edge": "leading"}}"#, "no item \"nobox\""),
        ]
        for (line, message) in cases {
            let e = try #require(error(line), "\(line) was accepted")
            #expect(e.line == firstEventLine, "\(line)")
            #expect(e.message.contains(message), "\(e.message)")
        }
        let badItem = try #require(error(#"{"insert": {"id": "x", "swipeActions": {"trailing": [{"style": "destructive"}]}}}"#))
        #expect(badItem.message.contains("a swipe action needs a \"title\" or an \"image\""))
    }

    func run(_ events: String) throws -> [TraceEvent] {
        let (scene, parsed) = try parse(events)
        let engine = try Engine(scene: scene, catalog: ConfigurationCatalog(), options: .init(textMeasurer: FixedAdvanceTextMeasurer()))
        var out = [try engine.start()]
        for e in parsed { out.append(try engine.run(e)) }
        return out
    }

    func update(_ e: TraceEvent, _ cell: String) throws -> CellUpdateTrace { try #require(e.updates.first { $0.cell == cell }) }

    @Test func recordsSayWhichAccessoriesShowAndWhy() throws {
        let records = try run("""
            {"cell": ["inbox", "star", "plain"], "editing": true}
            {"cell": "plain", "set": {"accessories": ["checkmark"]}}
            {"cell": ["inbox", "star"], "editing": false}
            """)
        #expect(try update(records[0], "inbox").accessories == "shown: label(\"12\"), disclosureIndicator (first display)")
        #expect(try update(records[0], "plain").accessories == nil)
        #expect(try update(records[1], "inbox").accessories
            == "shown: label(\"12\"), disclosureIndicator, delete, reorder (editing changed)")
        #expect(try update(records[1], "star").accessories == "none shown; hidden: customView(symbol:star.fill) (editing changed)")
        #expect(try update(records[1], "plain").accessories == nil, "a row without accessories says nothing about them")
        let setRecord = try update(records[2], "plain")
        #expect(setRecord.accessories == "shown: checkmark (accessories set)")
        #expect(try update(records[2], "plain").cause == "accessories")
        #expect(try update(records[3], "inbox").accessories
            == "shown: label(\"12\"), disclosureIndicator; hidden: delete, reorder (editing changed)")
        // The accessories explain the new look; no "repainted" line repeats the state.
        #expect(try update(records[1], "inbox").repaint == nil)
    }

    @Test func swipesOpenAndCloseAndATapClosesWithoutSelecting() throws {
        let records = try run("""
            {"swipe": {"cell": "inbox", "edge": "trailing"}}
            {"swipe": {"cell": "inbox", "edge": "leading"}}
            {"cell": "inbox", "selected": true}
            {"cell": "inbox", "selected": true}
            """)
        let open = try update(records[1], "inbox")
        #expect(open.swipe == "trailing actions open: Delete, More")
        #expect(open.stateAfter == ["swiped"])
        #expect(try update(records[2], "inbox").swipe == "leading actions open: Pin")
        let tap = try update(records[3], "inbox")
        #expect(tap.swipe == "closed (tap)")
        #expect(tap.stateAfter.isEmpty, "the tap closes the actions and selects nothing")
        let select = try update(records[4], "inbox")
        #expect(select.swipe == nil && select.stateAfter == ["selected"])
    }

    /// `"full": true` performs the edge's first action (drawn spanning the row) unless the edge
    /// says `performsFirstActionWithFullSwipe: false`, when it opens as a partial swipe.
    @Test func aFullSwipePerformsTheFirstActionUnlessTheEdgeSaysNot() throws {
        let records = try run("""
            {"swipe": {"cell": "inbox", "edge": "trailing", "full": true}}
            {"swipe": {"cell": "inbox", "edge": "trailing"}}
            {"swipe": {"cell": "inbox", "edge": "leading", "full": true}}
            """)
        let full = try update(records[1], "inbox")
        #expect(full.swipe == "trailing full swipe performed Delete (destructive)")
        #expect(full.stateAfter == ["swiped"])
        #expect(try update(records[2], "inbox").swipe == "trailing actions open: Delete, More", "back to a partial swipe")
        #expect(try update(records[3], "inbox").swipe == "leading full swipe performed Pin")
        let (_, events) = try parse(#"{"swipe": {"cell": "inbox", "edge": "trailing", "full": true}}"#)
        #expect(EventSummary(describing: events[0].actions).description == "inbox: full swipe trailing")

        let (scene, parsed) = try EventStreamParser.parse("""
            {"scene": {"appearance": "plain", "viewport": {"width": 390, "height": 400}, "scale": 1}}
            {"item": {"id": "a", "set": {"text": "A"}, "swipeActions": {"trailing": {"actions": [{"title": "Delete", "style": "destructive"}], "performsFirstActionWithFullSwipe": false}}}}
            {"swipe": {"cell": "a", "edge": "trailing", "full": true}}
            """, source: "events.jsonl")
        #expect(scene.sections[0].items[0].decorations.trailingSwipeActions?.performsFirstActionWithFullSwipe == false)
        let engine = try Engine(scene: scene, catalog: ConfigurationCatalog(), options: .init(textMeasurer: FixedAdvanceTextMeasurer()))
        _ = try engine.start()
        let opened = try #require(try engine.run(parsed[0]).updates.first)
        #expect(opened.swipe == "trailing actions open (full swipe; performsFirstActionWithFullSwipe is false): Delete")
    }

    @Test func fullSwipeMistakesNameTheLine() {
        let none = error(#"{"swipe": {"cell": "inbox", "edge": "none", "full": true}}"#)
        #expect(none?.line == 6 && none?.message.contains("a \"full\" swipe needs") == true, "\(String(describing: none))")
        #expect(error(#"{"swipe": {"cell": "inbox", "edge": "trailing", "full": "yes"}}"#) != nil)
        let noActions = """
            {"item": {"id": "x", "set": {"text": "X"}, "swipeActions": {"trailing": {"performsFirstActionWithFullSwipe": true}}}}
            """
        #expect(error(noActions)?.message.contains("needs \"actions\"") == true)
    }

    @Test func aSwipeOnAnEdgeWithoutActionsIsAnErrorNamingTheCell() throws {
        let (scene, parsed) = try parse(#"{"swipe": {"cell": "plain", "edge": "trailing"}}"#)
        let engine = try Engine(scene: scene, catalog: ConfigurationCatalog(), options: .init(textMeasurer: FixedAdvanceTextMeasurer()))
        _ = try engine.start()
        #expect { try engine.run(parsed[0]) } throws: { error in
            "\(error)".contains("plain has no trailing swipe actions")
        }
    }

    @Test func theTraceCarriesAccessoriesAndSwipeInEverySink() throws {
        var u = CellUpdateTrace(cell: "inbox", type: "t", cause: "state", stateBefore: [], stateAfter: ["swiped"], changes: [],
                                view: .reused, supports: true, size: Size(width: 1, height: 1), frame: .zero, damage: nil, micros: 1)
        u.accessories = "shown: checkmark (editing changed)"
        u.swipe = "trailing actions open: Delete"
        #expect(try CellUpdateTrace(json: u.json) == u)
        var table = ""
        TraceTableWriter(colors: false) { table += $0 }.write(.event(TraceEvent(number: 1, line: 2, summary: "s", updates: [u])))
        #expect(table.contains("accessories shown: checkmark (editing changed)"))
        #expect(table.contains("swipe: trailing actions open: Delete"))
        let dir = temporaryDirectory()
        let chrome = try ChromeTraceWriter(path: dir + "/t.json")
        chrome.write(.event(TraceEvent(number: 1, line: 2, summary: "s", updates: [u], timings: PhaseTimings(update: 5))))
        try chrome.finish()
        let text = try #require(readTextFile(dir + "/t.json"))
        let slices = try #require(try JSON.parse(text).arrayValue)
        let cell = try #require(slices.first { $0["cat"] == .string("cell") })
        #expect(cell["args"]?["accessories"] == .string("shown: checkmark (editing changed)"))
        #expect(cell["args"]?["swipe"] == .string("trailing actions open: Delete"))
    }

    /// A plugin cell gets accessories from the host: its content view is laid out narrower, so
    /// its progress bar (filled with the tint) loses the width the disclosure indicator takes.
    @Test func aPluginCellsContentMakesRoomForAccessories() throws {
        let stream = """
            {"scene": {"appearance": "plain", "viewport": {"width": 300, "height": 80}, "scale": 1}}
            {"item": {"id": "meter", "type": "com.cellhost.samples.progress", "set": {"progress": 1, "tint": "#336699"}}}
            {"capture": "before"}
            {"cell": "meter", "set": {"accessories": ["disclosureIndicator"]}}
            """
        let dir = temporaryDirectory()
        let path = dir + "/meter.jsonl"
        writeFile(stream + "\n", to: path)
        let collector = ExampleStreamTests.Collector()
        let recorder = TraceRecorder(sink: collector)
        let end = RunSession.run(RunOptions(events: path, plugins: [BuiltProducts.samplePlugin("ProgressMeter")],
                                            framesDirectory: dir + "/frames"), output: recorder)
        #expect(end.outcome == .ok, "\(end.message ?? "")")
        let frames = try recorder.frameFiles.map { try RasterImage.decodePNG(path: dir + "/frames/" + $0) }
        let before = try #require(frames.dropLast().last), after = try #require(frames.last)
        let (barBefore, barAfter) = (DynamicPluginColourTests.count("#336699", in: before), DynamicPluginColourTests.count("#336699", in: after))
        #expect(barBefore > 0)
        #expect(barAfter < barBefore - 2 * 6, "the bar lost the accessory's width")
        #expect(after.differingPixelCount(to: before, tolerance: 8) > barBefore - barAfter, "a chevron appeared as well")
    }
}
