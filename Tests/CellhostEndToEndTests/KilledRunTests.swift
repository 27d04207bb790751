import CellIO
import CellRuntime
import CellProcess
import Glibc
import CellTestSupport
import Testing

/// `cellhost run` killed outright (SIGKILL: nothing can be committed) mid-stream leaves no file
/// at the trace paths, and temporary files that are valid up to the last complete record. The
/// stream comes through a named pipe its writer keeps open, so the run is still waiting for
/// more when it is killed, however fast the machine ran the events so far.
@Suite struct KilledRunTests {
    static func stream(events: Int) -> String {
        var lines = [#"{"scene": {"appearance": "insetGrouped", "viewport": {"width": 390, "height": 844}, "scale": 1}}"#,
                     #"{"section": {"id": "s", "header": "Cells"}}"#]
        for i in 0..<8 { lines.append(#"{"item": {"id": "c\#(i)", "set": {"text": "Cell \#(i)"}}}"#) }
        for i in 0..<events { lines.append(#"{"cell": "c\#(i % 8)", "highlighted": \#((i / 8) % 2 == 0)}"#) }
        return lines.joined(separator: "\n") + "\n"
    }

    static func files(in directory: String) -> [String] { directoryEntries(directory) ?? [] }

    @Test func aKilledRunLeavesOnlyWholeRecords() throws {
        let directory = ValidationFixtures.temporaryDirectory()
        let streamPath = "\(directory)/stream.jsonl", pipePath = "\(directory)/stream.pipe"
        let file = fopen(streamPath, "w")!
        fputs(Self.stream(events: 2_000), file)
        fclose(file)
        #expect(mkfifo(pipePath, 0o600) == 0)
        // The writer sends the stream, then holds the pipe open (as a producer with more to say)
        // until it is stopped after the run.
        #expect(system("(cat '\(streamPath)'; exec sleep 60) > '\(pipePath)' & echo $! > '\(directory)/writer.pid'") == 0)
        defer {
            if let pid = Int32((readTextFile("\(directory)/writer.pid") ?? "").split(separator: "\n").first ?? "") {
                kill(pid, SIGTERM)
            }
        }
        let out = "\(directory)/out"
        try makeDirectories(out)
        let run = WorkerProcess(executable: BuiltProducts.cellhost,
                                arguments: ["run", "--events", pipePath, "--trace", "\(out)/trace.jsonl",
                                            "--chrome-trace", "\(out)/trace.chrome.json", "--quiet"])
        // The limit kills the whole process group with SIGKILL: supervisor and worker alike.
        let result = try run.run(limits: WorkerLimits(totalSeconds: 6)) { _ in }
        #expect(result.termination == .timedOut(seconds: 6), "the run ended before it was killed: \(result.standardError)")

        let names = Self.files(in: out)
        #expect(!names.contains("trace.jsonl") && !names.contains("trace.chrome.json"), "half a run committed: \(names)")
        let jsonl = try #require(names.first { $0.hasPrefix(FileReplacer.partialPrefix(for: "trace.jsonl")) })
        let chrome = try #require(names.first { $0.hasPrefix(FileReplacer.partialPrefix(for: "trace.chrome.json")) })

        let lines = readTextFile("\(out)/\(jsonl)") ?? ""
        #expect(lines.hasSuffix("\n"), "the JSONL trace ends inside a record")
        let records = try lines.split(separator: "\n").map { try JSON.parse(String($0)) }
        #expect(records.count > 10, "too little was written before the kill to tell anything")
        #expect(records.first?["record"]?.stringValue == "header")
        let events = records.compactMap { $0["record"]?.stringValue == "event" ? $0["event"]?.intValue : nil }
        #expect(events == Array(0..<Int64(events.count)), "events are missing or out of order")

        let chromeText = readTextFile("\(out)/\(chrome)") ?? ""
        // The JSON Array Format's closing bracket is optional; a strict parser needs it added.
        let closed = try #require(try JSON.parse(chromeText + "\n]").arrayValue)
        #expect(closed.count > 10)
        // Flushed per event: the Chrome trace holds the same complete events as the JSONL trace.
        let chromeEvents = closed.filter { $0["cat"]?.stringValue == "event" }
        #expect(chromeEvents.count >= events.count - 1 && chromeEvents.count <= events.count + 1,
                "\(chromeEvents.count) events in the Chrome trace, \(events.count) in the JSONL trace")
    }
}
