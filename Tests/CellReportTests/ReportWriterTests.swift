import CellIO
import CellKit
@testable import CellReport
import CellRuntime
import Glibc
import Testing

/// The page `ReportWriter` writes: whole only once finished, self-contained, with the records
/// as the JSONL trace has them and links relative to the page.
@Suite struct ReportWriterTests {
    func folder() -> String { makeTemporaryDirectory(prefix: "cellhost-report-unit")! }

    func records(log message: String) -> [TraceRecord] {
        let change = PropertyChangeTrace(configuration: "content", property: "textProperties.color", old: "label #000000FF",
                                         new: "systemBlue #007AFF/#0A84FF", reason: .restyled, cause: "selected")
        let update = CellUpdateTrace(cell: "inbox", type: "cell", cause: "selected", stateBefore: [], stateAfter: ["selected"],
                                     changes: [change], view: .reused, supports: true, size: Size(width: 350, height: 44),
                                     frame: Rect(x: 0, y: 0, width: 350, height: 44), damage: nil, micros: 12)
        return [
            .header(TraceHeader(source: "s.jsonl", appearance: "plain", viewport: Size(width: 390, height: 300), scale: 2,
                                traits: [], itemCount: 1, plugins: [])),
            .log(TraceLog(plugin: "com.example", level: .warning, message: message, event: 1)),
            .event(TraceEvent(number: 1, line: 4, summary: "inbox: selected", updates: [update],
                              frames: [FrameTrace(index: 1, file: "frame-0001.png", damage: [], damagedPixels: 0)])),
            .end(TraceEnd(outcome: .ok, events: 1, frames: 1)),
        ]
    }

    @Test func pageHoldsTheRecordsAndAppearsOnlyWhenFinished() throws {
        let dir = folder()
        let writer = try ReportWriter(path: dir + "/report.html", frames: dir + "/frames", chromeTrace: dir + "/trace.chrome.json")
        for r in records(log: "closing </script><!-- here") { writer.write(r) }
        #expect(access(dir + "/report.html", F_OK) != 0, "no page before the run is finished")
        try writer.finish()
        let page = try #require(readTextFile(dir + "/report.html"))
        #expect(page.hasPrefix("<!DOCTYPE html>"))
        #expect(page.contains(#"{"frames":"frames/","chromeTrace":"trace.chrome.json","records":["#))
        #expect(page.contains(#""property":"textProperties.color""#))
        #expect(!page.contains("closing </script>"), "a logged message cannot end the data block")
        #expect(page.contains(#"closing \u003c/script>\u003c!-- here"#))
        #expect(!page.contains("http://") && !page.contains("https://"), "nothing is fetched from the network")
        // The data block parses back into the records.
        let start = try #require(page.range(of: "<script type=\"application/json\" id=\"cellhost-run\">"))
        let end = try #require(page.range(of: "</script>", range: start.upperBound..<page.endIndex))
        let json = try JSON.parse(String(page[start.upperBound..<end.lowerBound]))
        let decoded = try (json["records"]?.arrayValue ?? []).map { j throws in try TraceRecord(json: j) }
        #expect(decoded == records(log: "closing </script><!-- here"))
    }

    @Test func linksOutsideThePageFolderAreAbsolute() {
        #expect(ReportWriter.link(to: "/tmp/out/frames", from: "/tmp/out") == "frames")
        #expect(ReportWriter.link(to: "/var/frames", from: "/tmp/out") == "file:///var/frames")
        #expect(ReportWriter.link(to: "frames", from: ".") == "frames")
    }
}
