import CellIO
import CellKit
import Testing
@testable import CellRuntime
import Glibc
import CellTestSupport

/// A scratch directory per test.
func temporaryDirectory() -> String { makeTemporaryDirectory(prefix: "cellhost-test")! }

enum SampleTrace {
    static let header = TraceHeader(source: "events.jsonl", appearance: "insetGrouped", viewport: Size(width: 390, height: 844),
                                    scale: 2, traits: ["light", "L"], itemCount: 2, plugins: [])
    static let update = CellUpdateTrace(
        cell: "apple", type: "com.cellhost.list-content", cause: "selected", stateBefore: [], stateAfter: ["selected"],
        changes: [PropertyChangeTrace(configuration: "content", property: "textProperties.color", old: "label", new: "white",
                                      reason: .restyled, cause: "selected"),
                  PropertyChangeTrace(configuration: "content", property: "secondaryTextProperties.color", old: "systemRed",
                                      new: "systemRed", reason: .locked, cause: "selected")],
        view: .reused, supports: true, size: Size(width: 358, height: 44), frame: Rect(x: 16, y: 35, width: 358, height: 44),
        damage: Rect(x: 16, y: 35, width: 358, height: 44), micros: 40)
    static let event = TraceEvent(number: 1, line: 5, summary: "apple: selected", note: "select", start: 100,
                                  updates: [update], frames: [FrameTrace(index: 1, file: "frame-0001.png",
                                                                         damage: [Rect(x: 32, y: 70, width: 716, height: 88)],
                                                                         damagedPixels: 63008)],
                                  timings: PhaseTimings(update: 50, layout: 10, draw: 20, raster: 30, composite: 40, encode: 60))
    static let end = TraceEnd(outcome: .ok, events: 1, frames: 1, timings: event.timings)
    static let records: [TraceRecord] = [.header(header), .event(event), .end(end)]
}

@Suite struct TraceSinkTests {
    @Test func jsonlParsesBackToTheSameRecords() throws {
        let dir = temporaryDirectory()
        let path = dir + "/trace.jsonl"
        let writer = try JSONLTraceWriter(path: path)
        for r in SampleTrace.records.dropLast() { writer.write(r) }
        writer.flush()
        let flushed = try #require(readTextFile(path), "the trace grows under its own name")
        #expect(flushed.split(separator: "\n").count == 2 && flushed.hasSuffix("\n"), "flushed: whole lines of the records so far")
        writer.write(SampleTrace.records.last!)
        try writer.finish()
        let lines = try #require(readTextFile(path)).split(separator: "\n").map(String.init)
        #expect(lines.count == 3)
        #expect(lines[0].contains("\"schema\":\"cellhost.trace/1\""))
        #expect(try lines.map { line throws in try TraceRecord.decode(line: line) } == SampleTrace.records)
    }

    @Test func chromeTraceIsValidJSONWithNestedPhaseSlices() throws {
        let dir = temporaryDirectory()
        let path = dir + "/trace.chrome.json"
        let writer = try ChromeTraceWriter(path: path)
        for r in SampleTrace.records { writer.write(r) }
        try writer.finish()
        let json = try JSON.parse(try #require(readTextFile(path)))
        let events = try #require(json.arrayValue, "the JSON Array Format")
        let slices = events.filter { $0["ph"] == .string("X") }
        let eventSlice = try #require(slices.first { $0["cat"] == .string("event") })
        let start = try #require(eventSlice["ts"]?.doubleValue), end = start + (eventSlice["dur"]?.doubleValue ?? 0)
        let phases = slices.filter { $0["cat"] == .string("phase") }
        #expect(phases.compactMap { $0["name"]?.stringValue } == PhaseTimings.phaseNames)
        for p in phases + slices.filter({ $0["cat"] == .string("cell") }) {
            let ts = try #require(p["ts"]?.doubleValue), dur = try #require(p["dur"]?.doubleValue)
            #expect(ts >= start && ts + dur <= end + 0.01, "\(p.serialized) lies inside its event slice")
            #expect(p["tid"] == eventSlice["tid"])
        }
        #expect(events.contains { $0["ph"] == .string("s") } && events.contains { $0["ph"] == .string("f") })
        #expect(events.contains { $0["ph"] == .string("C") && $0["args"]?["pixels"] == .int(63008) })
    }

    @Test func chromeTraceLoadsFromTheStartAndUnclosedAfterEachFlush() throws {
        let path = temporaryDirectory() + "/trace.chrome.json"
        let writer = try ChromeTraceWriter(path: path)
        let opened = try ChromeTraceText.events(try #require(readTextFile(path)))
        #expect(opened.count == 3 && opened.allSatisfy { $0["ph"] == .string("M") }, "the array and its track names, on disk at once")
        writer.write(.header(SampleTrace.header))
        writer.write(.event(SampleTrace.event))
        writer.flush()
        let text = try #require(readTextFile(path))
        #expect(!ChromeTraceText.isClosed(text) && text.hasSuffix("}"), "open, after a complete trace event")
        #expect(try ChromeTraceText.events(text).contains { $0["cat"] == .string("event") })
        writer.write(.end(SampleTrace.end))
        try writer.finish()
        #expect(ChromeTraceText.isClosed(try #require(readTextFile(path))))
    }

    @Test func chromeTraceIsClosedEvenWithoutEvents() throws {
        let dir = temporaryDirectory()
        let writer = try ChromeTraceWriter(path: dir + "/t.json")
        writer.write(.header(SampleTrace.header))
        writer.write(.end(TraceEnd(outcome: .pluginCrashed, events: 0, frames: 0, failedEvent: 1, message: "SIGSEGV")))
        try writer.finish()
        #expect(throws: Never.self) { try JSON.parse(readTextFile(dir + "/t.json")!) }
    }

    @Test func tableShowsRestyledAndLockedPropertiesWithoutColourWhenAsked() throws {
        var out = ""
        let table = TraceTableWriter(colors: false) { out += $0 }
        for r in SampleTrace.records { table.write(r) }
        let lines = out.split(separator: "\n").map(String.init)
        #expect(!out.contains("\u{1B}["))
        let cellLine = try #require(lines.first { $0.hasPrefix("1 ") })
        #expect(cellLine.contains("apple"))
        #expect(cellLine.contains("normal → selected"))
        #expect(cellLine.contains("1 restyled, 1 locked"))
        #expect(cellLine.contains("reused"))
        #expect(cellLine.contains("358×44"))
        #expect(lines.contains { $0.contains("textProperties.color") && $0.contains("label → white") && $0.contains("(restyled: selected)") })
        #expect(lines.contains { $0.contains("secondaryTextProperties.color") && $0.contains("(locked: customised, kept through selected)") })
        #expect(lines.last?.hasPrefix("done: 1 event, 1 frame") == true)
    }

    @Test func tableColoursOnlyWhenEnabled() {
        var out = ""
        let table = TraceTableWriter(colors: true) { out += $0 }
        for r in SampleTrace.records { table.write(r) }
        #expect(out.contains("\u{1B}[33m(locked"))
    }
}

