import CellIO
import CellPlugins
import CellTestSupport
import Glibc
import Testing
@testable import CellRuntime

/// What plugins log reaches the user in both run modes: as log records in trace.jsonl, lines in
/// the table with their event, and instant marks in the Chrome trace; bounded, with a flood
/// reported once, and a refusal's reason next to the refusal.
@Suite(.serialized) struct PluginLogTests {
    enum Mode: String, CaseIterable, CustomTestStringConvertible {
        case worker, inProcess
        var arguments: [String] { self == .inProcess ? ["--in-process"] : [] }
        var testDescription: String { rawValue }
    }

    /// A plugin whose `count` setter logs `count` numbered messages, and for a negative count one
    /// message longer than a run shows whole: "x" then "é" (two bytes) repeated, so the byte limit
    /// falls inside a character.
    static let chattySource = """
        #define REPLACE_SET_COUNT
        #include <stdio.h>
        #include "base.h"
        static void set_count(cellhost_config *c, const cellhost_property *p, int64_t v) {
            (void)p;
            char text[64];
            for (int64_t i = 1; i <= v; i++) {
                snprintf(text, sizeof text, "chatty message %lld", (long long)i);
                host->log(CELLHOST_LOG_INFO, text);
            }
            if (v < 0) {
                char *long_text = malloc(6002);
                long_text[0] = 'x';
                for (int i = 0; i < 3000; i++) { long_text[1 + 2 * i] = (char)0xC3; long_text[2 + 2 * i] = (char)0xA9; }
                long_text[6001] = 0;
                host->log(CELLHOST_LOG_ERROR, long_text);
                free(long_text);
            }
            c->count = v; c->customized |= 1u << P_COUNT;
        }
        #include "tables.h"
        """

    static let chattyPlugin = Result { () throws(PluginCompiler.CompileError) -> String in
        try PluginCompiler.compile(source: chattySource, name: "chatty", extraFlags: "-I '\(ValidationFixtures.brokenPlugins)'")
    }

    static let chattyID = "com.validation.test"
    static let badgesID = "com.cellhost.samples.badges"
    static let floodCount = 40

    /// Loading logs once; event 1 once; event 2 floods; event 3 logs a long message; event 4 is an
    /// action the badge plugin refuses (with a log message saying why), which stops the run.
    static let stream = """
        {"scene": {"appearance": "plain", "viewport": {"width": 320, "height": 200}, "scale": 1}}
        {"item": {"id": "chatty", "type": "com.validation.test.cell", "set": {"title": "Chatty", "count": 1}}}
        {"item": {"id": "badge", "type": "com.cellhost.samples.badge", "set": {"title": "Inbox", "count": 1}}}
        {"note": "one message", "cell": "chatty", "set": {"count": 1}}
        {"note": "a flood", "cell": "chatty", "set": {"count": \(floodCount)}}
        {"note": "a long message", "cell": "chatty", "set": {"count": -1}}
        {"note": "a refused action", "cell": "badge", "perform": {"increment": [0]}}
        """

    struct Outputs {
        var records: [TraceRecord]
        var table: [String]
        var chrome: [JSON]
        var status: Int32

        var logs: [TraceLog] { records.compactMap { if case .log(let l) = $0 { l } else { nil } } }
        var end: TraceEnd? { if case .end(let e) = records.last { e } else { nil } }
        func index(ofEvent number: Int) -> Int? {
            records.firstIndex { if case .event(let e) = $0 { e.number == number } else { false } }
        }
        var logMarks: [JSON] { chrome.filter { $0["cat"]?.stringValue == "log" } }
    }

    func run(_ mode: Mode) throws -> Outputs {
        let plugin = try Self.chattyPlugin.get()
        let dir = BuiltProducts.temporaryDirectory(prefix: "cellhost-log-test")
        writeFile(Self.stream, to: dir + "/events.jsonl")
        let arguments = ["run", "--plugin", plugin, "--plugin", BuiltProducts.samplePlugin("BadgeCell"),
                         "--events", dir + "/events.jsonl", "--out", dir + "/out"] + mode.arguments
        let command = ([BuiltProducts.cellhost] + arguments).map { "'\($0)'" }.joined(separator: " ")
            + " >'\(dir)/table.txt' 2>'\(dir)/stderr.txt'"
        let status = system(command)
        let trace = try #require(readTextFile(dir + "/out/trace.jsonl"))
        let records = try trace.split(separator: "\n").map { line throws in try TraceRecord.decode(line: String(line)) }
        let table = try #require(readTextFile(dir + "/table.txt")).split(separator: "\n").map(String.init)
        let chromeText = try #require(readTextFile(dir + "/out/trace.chrome.json"))
        let chrome = try #require(try JSON.parse(chromeText).arrayValue)
        return Outputs(records: records, table: table, chrome: chrome, status: status)
    }

    @Test(arguments: Mode.allCases) func logsReachTheTraceTheTableAndTheChromeTrace(mode: Mode) throws {
        let out = try run(mode)
        // Loading: after the header, without an event.
        let loading = try #require(out.logs.first)
        #expect(loading == TraceLog(plugin: Self.chattyID, level: .info, message: "chatty message 1", event: nil))
        #expect(out.records.firstIndex { if case .log = $0 { true } else { false } }! > 0, "the header comes first")

        // Event 1: its message comes before its record, and the table shows it inside the event's
        // block: under its note, above its rows.
        let inEvent1 = out.logs.filter { $0.event == 1 }
        #expect(!inEvent1.isEmpty && inEvent1.allSatisfy { $0.plugin == Self.chattyID && $0.message == "chatty message 1" })
        let lastLogOfEvent1 = try #require(out.records.lastIndex {
            if case .log(let l) = $0 { l.event == 1 } else { false }
        })
        let event0 = try #require(out.index(ofEvent: 0)), event1 = try #require(out.index(ofEvent: 1))
        #expect(event0 < lastLogOfEvent1 && lastLogOfEvent1 < event1)
        let note = try #require(out.table.firstIndex { $0.contains("# one message") })
        let row = try #require(out.table.firstIndex { $0.hasPrefix("1 ") })
        let line = try #require(out.table[note...].firstIndex { $0 == "    log \(Self.chattyID) info: chatty message 1" })
        #expect(note < line && line < row)

        // Chrome: one instant mark per log record, on the events track; event 1's at its slice's start.
        #expect(out.logMarks.count == out.logs.count)
        #expect(out.logMarks.allSatisfy { $0["ph"]?.stringValue == "i" && $0["tid"]?.intValue == 1 })
        let slice1 = try #require(out.chrome.first { $0["cat"]?.stringValue == "event" && $0["name"]?.stringValue?.hasPrefix("#1 ") == true })
        let mark1 = try #require(out.logMarks.first { $0["args"]?["event"]?.intValue == 1 })
        #expect(mark1["ts"]?.doubleValue == slice1["ts"]?.doubleValue)
        #expect(mark1["args"]?["message"]?.stringValue == "chatty message 1")
        #expect(mark1["name"]?.stringValue == "\(Self.chattyID) info: chatty message 1")

        // A message past the byte limit is cut before the character the limit falls in, and says so.
        let long = try #require(out.logs.first { $0.event == 3 })
        #expect(long.level == .error)
        #expect(long.message == "x" + String(repeating: "é", count: (PluginLogMessage.Limits.messageBytes - 1) / 2) + "…")
    }

    @Test(arguments: Mode.allCases) func aFloodIsBoundedAndReportedOnce(mode: Mode) throws {
        let out = try run(mode)
        let limit = PluginLogMessage.Limits.messagesPerEvent
        let flood = out.logs.filter { $0.event == 2 }
        let shown = flood.filter { $0.notShown == nil }
        let reports = flood.filter { $0.notShown != nil }
        #expect(shown.map(\.message) == (1...limit).map { "chatty message \($0)" })
        #expect(reports.count == 1)
        let report = try #require(reports.first)
        #expect(flood.last == report, "the report closes the event's messages")
        let notShown = try #require(report.notShown)
        #expect(notShown >= Self.floodCount - limit)
        #expect(report.plugin == Self.chattyID && report.level == .warning)
        #expect(report.message.hasPrefix("\(Self.chattyID) logged \(notShown) more messages in event 2; not shown"))
        #expect(out.table.filter { $0.contains("more messages in event 2; not shown") }.count == 1)
        #expect(out.logMarks.filter { $0["args"]?["notShown"]?.intValue == Int64(notShown) }.count == 1)
    }

    /// The worker sends each message as it is logged, so the last words of a plugin that then
    /// crashes are in the trace and the table, before the line reporting the crash.
    @Test func aPluginsLastMessageBeforeItCrashesIsKept() throws {
        let plugin = try PluginCompiler.compile(source: """
            #define REPLACE_SET_COUNT
            #include "base.h"
            static void set_count(cellhost_config *c, const cellhost_property *p, int64_t v) {
                (void)p;
                if (v == 99) { host->log(CELLHOST_LOG_ERROR, "about to fail on purpose"); abort(); }
                c->count = v; c->customized |= 1u << P_COUNT;
            }
            #include "tables.h"
            """, name: "crashing", extraFlags: "-I '\(ValidationFixtures.brokenPlugins)'")
        let dir = BuiltProducts.temporaryDirectory(prefix: "cellhost-log-test")
        writeFile("""
            {"item": {"id": "c", "type": "com.validation.test.cell", "set": {"title": "C"}}}
            {"cell": "c", "set": {"count": 99}}
            """, to: dir + "/events.jsonl")
        let status = system("'\(BuiltProducts.cellhost)' run --plugin '\(plugin)' --events '\(dir)/events.jsonl' "
            + "--trace '\(dir)/trace.jsonl' >'\(dir)/table.txt' 2>/dev/null")
        #expect(status != 0)
        let records = try #require(readTextFile(dir + "/trace.jsonl")).split(separator: "\n")
            .map { line throws in try TraceRecord.decode(line: String(line)) }
        #expect(records.suffix(2).first == .log(TraceLog(plugin: Self.chattyID, level: .error,
                                                         message: "about to fail on purpose", event: 1)))
        guard case .end(let end) = records.last else { Issue.record("no end record"); return }
        #expect(end.outcome == .pluginCrashed)
        let table = try #require(readTextFile(dir + "/table.txt")).split(separator: "\n").map(String.init)
        let logLine = try #require(table.firstIndex { $0.contains("log \(Self.chattyID) error: about to fail on purpose") })
        let crashLine = try #require(table.firstIndex { $0.hasPrefix("pluginCrashed at event #1") })
        #expect(logLine < crashLine)
    }

    @Test(arguments: Mode.allCases) func aRefusedActionsLogSitsNextToTheRefusal(mode: Mode) throws {
        let out = try run(mode)
        #expect(out.status != 0)
        let end = try #require(out.end)
        #expect(end.outcome == .badInput && end.failedEvent == 4)
        let reason = "increment(by:) needs a positive step, got 0"
        // In the trace, the refusal's message is the record just before the end; the end quotes it.
        guard case .log(let log) = out.records[out.records.count - 2] else {
            Issue.record("no log record before the end record")
            return
        }
        #expect(log == TraceLog(plugin: Self.badgesID, level: .warning, message: reason, event: 4))
        #expect(end.message?.contains("(see its log); \(Self.badgesID) logged: \"\(reason)\"") == true, "\(end.message ?? "")")
        // In the table, the log line comes right before the line saying why the run stopped.
        let stop = try #require(out.table.firstIndex { $0.hasPrefix("badInput at event #4") })
        let logLine = try #require(out.table.lastIndex { $0.contains("log \(Self.badgesID) warning: \(reason)") })
        #expect(logLine < stop && out.table[(logLine + 1)..<stop].allSatisfy { $0.isEmpty })
        // In the Chrome trace, the mark is there with the event it belongs to.
        #expect(out.logMarks.contains { $0["args"]?["event"]?.intValue == 4 && $0["args"]?["message"]?.stringValue == reason })
    }
}
