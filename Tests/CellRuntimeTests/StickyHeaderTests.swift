import CellIO
import CellKit
import CellRender
import CellTestSupport
import Testing
@testable import CellRuntime

/// Plain lists pin the header of the section at the top, as UIKit's list layout does with
/// supplementary headers: it sticks until its section's end pushes it up, is `isPinned` while
/// it sticks, and its background restyles as the pinned plain header's.
@Suite struct StickyHeaderTests {
    static func stream(_ appearance: String) -> String {
        var s = """
            {"scene": {"appearance": "\(appearance)", "viewport": {"width": 390, "height": 300}, "scale": 2}}
            {"section": {"id": "a", "header": "First"}}
            """
        for i in 0..<5 { s += "\n{\"item\": {\"id\": \"a\(i)\", \"set\": {\"text\": \"A \(i)\"}}}" }
        s += "\n{\"section\": {\"id\": \"b\", \"header\": \"Second\"}}"
        for i in 0..<10 { s += "\n{\"item\": {\"id\": \"b\(i)\", \"set\": {\"text\": \"B \(i)\"}}}" }
        return s
    }

    func engine(_ events: String, appearance: String = "plain", renderer: (any FrameRenderer)? = nil,
                measurer: (any TextMeasuring)? = nil) throws -> (Engine, [Event]) {
        let (scene, events) = try EventStreamParser.parse(Self.stream(appearance) + "\n" + events, source: "sticky.jsonl")
        let engine = try Engine(scene: scene, catalog: ConfigurationCatalog(),
                                options: .init(textMeasurer: measurer ?? FixedAdvanceTextMeasurer(), renderer: renderer))
        return (engine, events)
    }

    func header(_ engine: Engine, _ section: String) throws -> EngineRow? {
        try engine.visibleRows().first { $0.name == "header:" + section }
    }

    @Test func theTopHeaderSticksIsPinnedAndIsPushedUpByItsSectionsEnd() throws {
        let (engine, events) = try engine("""
            {"scroll": {"to": 100}}
            {"scroll": {"to": 10000}}
            {"scroll": {"to": 0}}
            """)
        _ = try engine.start()
        let first = try #require(try header(engine, "a"))
        let natural = first.frame
        #expect(!first.flags.isPinned)
        let scrolled = try engine.run(events[0])
        #expect(first.frame.minY == 100, "it stays at the top of the viewport")
        #expect(first.flags.isPinned)
        let update = try #require(scrolled.updates.first { $0.cell == "header:a" })
        #expect(update.stateAfter.contains("pinned") && update.cause == "sticks to the top")
        #expect(update.changes.contains { $0.property.hasSuffix("visualEffect") },
                "the pinned plain header's background is a material")
        #expect(try engine.visibleRows().last === first, "drawn over the rows scrolling under it")

        // The section's end pushes it up: its bottom never passes the section's last row.
        let aEnd = engine.listLayout.frame(of: ListRow.item(ListIndexPath(section: 0, item: 4)))!.maxY
        _ = try engine.run(Event(number: 9, line: 0, actions: [.scroll(.to(aEnd - natural.height / 2))]))
        #expect(first.frame.maxY == aEnd)

        _ = try engine.run(events[1])
        let second = try #require(try header(engine, "b"))
        #expect(second.flags.isPinned && !first.flags.isPinned, "one header is pinned at a time")
        _ = try engine.run(events[2])
        #expect(!second.flags.isPinned && first.frame == natural)
    }

    @Test func groupedListsKeepTheirHeadersInPlace() throws {
        let (engine, events) = try engine("{\"scroll\": {\"to\": 100}}", appearance: "grouped")
        _ = try engine.start()
        _ = try engine.run(events[0])
        #expect(try header(engine, "a") == nil, "scrolled away with its section")
    }

    /// The example stream scrolled: the Library header pinned over the outline rows, then
    /// pushed up by the end of its section.
    @Test func aPinnedHeaderOverScrolledRowsMatchesItsGolden() throws {
        let pinned = try #require(try OutlineExampleFrames.frame(after: "scroll by 120"), "the example stream runs")
        OutlineTests.goldens.check(pinned, "header-pinned@2x")
        let pushed = try #require(try OutlineExampleFrames.frame(after: "scroll to 220"))
        OutlineTests.goldens.check(pushed, "header-pushed-up@2x")
    }
}
