import CellIO
import CellRuntime
import CellProcess
import Glibc
import CellTestSupport
import Testing

/// `cellhost run` killed outright (SIGKILL: nothing can be finished) at a random point mid-stream
/// leaves its traces under their own names, each valid up to the last event it held: every line
/// of `trace.jsonl` a whole record, the Chrome trace an array that loads once its optional `]` is
/// added, and no hidden partial trace beside them. The stream comes through a named pipe its
/// writer keeps open, so the run is still going or waiting for more when it is killed.
@Suite struct KilledRunTests {
    static func stream(events: Int) -> String {
        var lines = [#"{"scene": {"appearance": "insetGrouped", "viewport": {"width": 390, "height": 844}, "scale": 1}}"#,
                     #"{"section": {"id": "s", "header": "Cells"}}"#]
        for i in 0..<8 { lines.append(#"{"item": {"id": "c\#(i)", "set": {"text": "Cell \#(i)"}}}"#) }
        for i in 0..<events { lines.append(#"{"cell": "c\#(i % 8)", "highlighted": \#((i / 8) % 2 == 0)}"#) }
        return lines.joined(separator: "\n") + "\n"
    }

    @Test func aRunKilledAtARandomEventLeavesValidTracesInPlace() throws {
        let seed = UInt64.random(in: 1...UInt64.max)
        var random = SeededRandom(state: seed)
        let lines = 20 + random.next(1_500)
        let run = try InterruptedRunTests.LiveRun(lines: lines)
        defer { run.stop() }
        kill(run.supervisor, SIGKILL)
        _ = run.waitForSupervisor()
        let context = "seed \(seed), killed after \(lines) lines"

        let names = directoryEntries(run.out) ?? []
        #expect(names.contains("trace.jsonl") && names.contains("trace.chrome.json"), "\(context): \(names)")
        // The report page still appears only whole: its partial file is the next run's to clear.
        let partialTraces = [FileReplacer.partialPrefix(for: "trace.jsonl"), FileReplacer.partialPrefix(for: "trace.chrome.json")]
        #expect(!names.contains { name in name.contains(".tmp") || partialTraces.contains { name.hasPrefix($0) } },
                "\(context): partial traces left: \(names)")

        let text = readTextFile(run.out + "/trace.jsonl") ?? ""
        #expect(text.hasSuffix("\n"), "\(context): the JSONL trace ends inside a record")
        let records = try text.split(separator: "\n").map { try JSON.parse(String($0)) }
        #expect(records.count >= lines, "\(context): \(records.count) records")
        #expect(records.first?["record"]?.stringValue == "header")
        let events = records.compactMap { $0["record"]?.stringValue == "event" ? $0["event"]?.intValue : nil }
        #expect(events == Array(0..<Int64(events.count)), "\(context): events are missing or out of order")
        #expect(records.last?["record"]?.stringValue == "event", "\(context): a killed run wrote no end record")

        let chrome = readTextFile(run.out + "/trace.chrome.json") ?? ""
        #expect(!ChromeTraceText.isClosed(chrome), "\(context): a killed run closed the Chrome trace")
        let slices = try ChromeTraceText.events(chrome).filter { $0["cat"]?.stringValue == "event" }
        let numbers = slices.compactMap { $0["name"]?.stringValue?.dropFirst().split(separator: " ").first.flatMap { Int64($0) } }
        #expect(!numbers.isEmpty && numbers == Array(0..<Int64(numbers.count)), "\(context): Chrome trace events \(numbers.prefix(5))…")
    }
}
