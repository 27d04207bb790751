import CellIO
import CellKit
import CellRender
import CellTestSupport
import Foundation
import Testing
@testable import CellRuntime

/// Outlines as NSDiffableDataSourceSectionSnapshot shows them: children below their parent one
/// level deeper while it is expanded, collapse hiding the subtree, expand showing it as it was.
@Suite struct OutlineTests {
    static let scene = """
        {"scene": {"appearance": "sidebar", "viewport": {"width": 390, "height": 420}, "scale": 2}}
        {"section": {"id": "library"}}
        {"item": {"id": "documents", "set": {"text": "Documents", "image": {"symbol": "folder"}}, "expanded": true, "children": [{"id": "reports", "set": {"text": "Reports", "image": {"symbol": "folder"}}, "children": [{"id": "q1", "set": {"text": "Q1.pdf"}}, {"id": "q2", "set": {"text": "Q2.pdf"}}]}, {"id": "notes", "set": {"text": "Notes.txt"}}]}}
        {"item": {"id": "photos", "set": {"text": "Photos"}, "children": [{"id": "beach", "set": {"text": "Beach.jpg"}}]}}
        {"item": {"id": "music", "set": {"text": "Music"}}}
        """

    func engine(_ events: String, renderer: (any FrameRenderer)? = nil, measurer: (any TextMeasuring)? = nil) throws -> (Engine, [Event]) {
        let (scene, events) = try EventStreamParser.parse(Self.scene + "\n" + events, source: "outline.jsonl")
        let engine = try Engine(scene: scene, catalog: ConfigurationCatalog(),
                                options: .init(textMeasurer: measurer ?? FixedAdvanceTextMeasurer(), renderer: renderer))
        return (engine, events)
    }

    func names(_ engine: Engine) throws -> [String] { try engine.visibleRows().map(\.name) }
    func level(_ engine: Engine, _ name: String) throws -> Int? {
        try engine.visibleRows().first { $0.name == name }?.indentationLevel
    }

    @Test func anExpandedParentShowsItsChildrenAndACollapsedOneHidesThem() throws {
        let (engine, _) = try engine("{\"capture\": true}")
        _ = try engine.start()
        #expect(try names(engine) == ["documents", "reports", "notes", "photos", "music"])
        #expect(try level(engine, "documents") == 0)
        #expect(try level(engine, "reports") == 1)
        let documents = try #require(try engine.visibleRows().first { $0.name == "documents" })
        #expect(documents.flags.isExpanded, "an item that starts expanded has isExpanded in its state")
    }

    @Test func expandInsertsTheVisibleDescendantsOneLevelDeeperAndTracesThem() throws {
        let (engine, events) = try engine("{\"expand\": \"reports\"}")
        _ = try engine.start()
        let record = try engine.run(events[0])
        #expect(try names(engine) == ["documents", "reports", "q1", "q2", "notes", "photos", "music"])
        #expect(try level(engine, "q1") == 2)
        #expect(record.outline == [OutlineTrace(item: "reports", action: .expand, level: 1, inserted: ["q1", "q2"])])
        let reports = try #require(record.updates.first { $0.cell == "reports" })
        #expect(reports.cause == "expand")
        #expect(reports.stateAfter.contains("expanded"), "the cell's configuration state is expanded")
        #expect(record.updates.contains { $0.cell == "q1" && $0.cause == "first display" })
        var table = ""
        TraceTableWriter(colors: false) { table += $0 }.write(.event(record))
        #expect(table.contains("outline: expand reports (level 1): +2 rows (q1, q2)"))
        guard case .event(let decoded) = try TraceRecord(json: JSON.parse(TraceRecord.event(record).json.serialized)) else {
            Issue.record("the event record does not decode as an event"); return
        }
        #expect(decoded.outline == record.outline, "the JSONL trace carries the outline change both ways")
    }

    @Test func collapsingHidesTheSubtreeAndExpandingShowsItAsItWas() throws {
        let (engine, events) = try engine("""
            {"expand": "reports"}
            {"cell": "notes", "selected": true, "set": {"text": "Notes (edited)"}}
            {"collapse": "documents"}
            {"expand": "documents"}
            {"collapse": "reports"}
            {"collapse": "documents"}
            {"expand": "documents"}
            """)
        _ = try engine.start()
        for e in events[0...1] { _ = try engine.run(e) }
        let collapse = try engine.run(events[2])
        #expect(try names(engine) == ["documents", "photos", "music"])
        #expect(collapse.outline.first?.removed == ["reports", "q1", "q2", "notes"])
        #expect(collapse.updates.first { $0.cell == "documents" }?.stateAfter.contains("expanded") == false)
        let expand = try engine.run(events[3])
        #expect(expand.outline.first?.inserted == ["reports", "q1", "q2", "notes"], "reports was still expanded")
        let notes = try #require(try engine.visibleRows().first { $0.name == "notes" })
        #expect(notes.flags.isSelected, "a hidden row keeps its state")
        #expect((notes.configuration as? ListContentConfiguration)?.text == "Notes (edited)", "and what events set on it")
        for e in events[4...6] { _ = try engine.run(e) }
        #expect(try names(engine) == ["documents", "reports", "notes", "photos", "music"],
                "a child collapsed while hidden stays collapsed when its parent expands")
    }

    @Test func deletingAParentDeletesItsSubtree() throws {
        let (engine, events) = try engine("""
            {"expand": "photos"}
            {"delete": "photos"}
            {"collapse": "documents"}
            {"delete": "reports"}
            {"expand": "documents"}
            """)
        _ = try engine.start()
        _ = try engine.run(events[0])
        #expect(try names(engine).contains("beach"))
        let delete = try engine.run(events[1])
        #expect(try names(engine) == ["documents", "reports", "notes", "music"])
        #expect(delete.outline == [OutlineTrace(item: "photos", action: .delete, level: 0, removed: ["beach"])])
        for e in events[2...4] { _ = try engine.run(e) }
        #expect(try names(engine) == ["documents", "notes", "music"], "a hidden child deleted does not come back")
    }

    @Test func anInsertedItemWithChildrenBringsItsVisibleDescendants() throws {
        let (engine, events) = try engine("""
            {"insert": {"id": "videos", "index": 0, "set": {"text": "Videos"}, "expanded": true, "children": [{"id": "clip", "set": {"text": "Clip"}, "children": [{"id": "frame", "set": {"text": "Frame"}}]}]}}
            {"expand": "clip"}
            """)
        _ = try engine.start()
        let inserted = try engine.run(events[0])
        #expect(try names(engine).prefix(3) == ["videos", "clip", "documents"])
        #expect(inserted.outline == [OutlineTrace(item: "videos", action: .expand, level: 0, inserted: ["clip"])])
        #expect(try level(engine, "clip") == 1)
        _ = try engine.run(events[1])
        #expect(try names(engine).prefix(4) == ["videos", "clip", "frame", "documents"])
        #expect(try level(engine, "frame") == 2)
    }

    @Test func anEventOnAHiddenItemSaysWhichAncestorHidesIt() throws {
        let (engine, events) = try engine("{\"cell\": \"beach\", \"selected\": true}")
        _ = try engine.start()
        #expect(throws: EngineError.self) { try engine.run(events[0]) }
        do { _ = try engine.run(events[0]) } catch {
            #expect(error.message == "item \"beach\" is hidden: \"photos\" above it is collapsed")
        }
    }

    @Test func theParserChecksOutlines() throws {
        func message(_ stream: String) -> String? {
            do { _ = try EventStreamParser.parse(Self.scene + "\n" + stream, source: "s.jsonl"); return nil }
            catch { return error.description }
        }
        #expect(message("{\"expand\": \"music\"}")?.hasPrefix("s.jsonl:6: ") == true, "the error names the line")
        #expect(message("{\"expand\": \"music\"}")?.contains("\"expand\" needs an item with \"children\"; \"music\" has none") == true)
        #expect(message("{\"expand\": \"nothing\"}")?.contains("no item \"nothing\"") == true)
        #expect(message("{\"cell\": \"q1\", \"selected\": true}") == nil, "children are items of the list")
        #expect(message("{\"delete\": \"documents\"}\n{\"cell\": \"q1\", \"selected\": true}")?.contains("no item \"q1\"") == true,
                "deleting a parent deletes its children")
        let duplicate = "{\"item\": {\"id\": \"a\", \"children\": [{\"id\": \"b\"}, {\"id\": \"b\"}]}}"
        #expect(message(duplicate)?.contains("ids must be unique") == true)
        let template = "{\"items\": {\"id\": \"r{n}\", \"count\": 2, \"templates\": [{\"children\": [{\"id\": \"x\"}]}]}}"
        #expect(message(template)?.contains("a template has no \"children\"") == true)
    }

    /// Engine-level frames live with the render goldens (one folder, excluded from the targets).
    static let goldens = GoldenImages(directory: BuiltProducts.packageRoot + "/Tests/CellRenderTests/Goldens")

    /// The example stream's frame after expanding a grandchild: three levels indented by
    /// `indentationWidth` each, separators and text moved with them.
    @Test func indentedRowsMatchTheirGolden() throws {
        let frame = try #require(try OutlineExampleFrames.frame(after: "expand reports"), "the example stream runs")
        OutlineTests.goldens.check(frame, "outline-expanded@2x")
    }
}
