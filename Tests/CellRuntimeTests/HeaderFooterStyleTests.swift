import CellIO
import CellKit
import CellRender
import CellTestSupport
import Foundation
import Testing
@testable import CellRuntime

/// Section headers and footers in any list content style, or as a plugin's configuration.
@Suite struct HeaderFooterStyleTests {
    static let stream = """
        {"scene": {"appearance": "insetGrouped", "viewport": {"width": 390, "height": 400}}}
        {"section": {"id": "s", "header": {"style": "prominentInsetGroupedHeader", "set": {"text": "Prominent"}}, "footer": {"style": "valueCell", "set": {"text": "Total", "secondaryText": "3"}, "background": "clear"}}}
        {"item": {"id": "a", "set": {"text": "A"}}}
        {"section": {"id": "t", "header": {"set": {"text": "Default style"}}, "footer": "Plain text"}}
        {"item": {"id": "b", "set": {"text": "B"}}}
        {"header": "s", "set": {"text": "Renamed"}}
        """

    @Test func aHeaderOrFooterTakesTheStyleAndPropertiesItNames() throws {
        let (scene, events) = try EventStreamParser.parse(Self.stream, source: "h.jsonl")
        let engine = try Engine(scene: scene, catalog: ConfigurationCatalog(), options: .init(textMeasurer: FixedAdvanceTextMeasurer()))
        _ = try engine.start()
        let rows = try engine.visibleRows()
        func content(_ name: String) -> ListContentConfiguration? {
            rows.first { $0.name == name }?.configuration as? ListContentConfiguration
        }
        #expect(content("header:s")?.style == .prominentInsetGroupedHeader)
        #expect(content("footer:s")?.style == .valueCell && content("footer:s")?.secondaryText == "3")
        #expect(content("header:t")?.style == .groupedHeader, "no style: the list's default header style")
        #expect(content("footer:t")?.style == .groupedFooter && content("footer:t")?.text == "Plain text")
        let footer = try #require(rows.first { $0.name == "footer:s" })
        #expect(footer.background != nil, "a footer's background is set as an item's")
        let renamed = try engine.run(events[0])
        #expect(renamed.updates.first?.changes.contains { $0.property == "text" } == true)
        #expect(content("header:s")?.text == "Renamed")
    }

    @Test func badHeadersAreReportedWithTheirLine() {
        func message(_ line: String) -> String? {
            do { _ = try EventStreamParser.parse(line, source: "h.jsonl"); return nil } catch { return error.description }
        }
        #expect(message("{\"section\": {\"id\": \"s\", \"header\": {\"children\": []}}}")
            == "h.jsonl:1: \"children\" is not a field of \"header\"")
        #expect(message("{\"section\": {\"id\": \"s\", \"footer\": {\"style\": \"prominent\"}}}")?.contains("is not a list content style") == true)
        #expect(message("{\"section\": {\"id\": \"s\", \"header\": 3}}")?.contains("\"header\" takes a text or an object") == true)
    }

    /// The example stream scrolled to its end: an extra-prominent header, a value-cell footer,
    /// a header from the Badge plugin (after an event on it) and a subtitle-cell footer.
    @Test func styledAndPluginHeadersMatchTheirGolden() throws {
        let frame = try #require(try OutlineExampleFrames.frame(after: nil), "the example stream runs")
        OutlineTests.goldens.check(frame, "header-styles@2x")
    }
}
