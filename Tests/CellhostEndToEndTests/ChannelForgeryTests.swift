import CellIO
import CellProcess
import CellTestSupport
import Testing

/// The supervisor treats its worker as untrusted: a plugin that writes to the channel's
/// descriptor (old-style trace-record lines, garbage, a header with a huge length, plain text)
/// ends the run as a plugin fault (exit 4) naming the event, with the bytes shown — never a clean
/// "ok", never an internal error — and the traces hold every event before it.
@Suite struct ChannelForgeryTests {
    /// The crash reports' scene with one more event, so a fault at event #2 leaves one after it.
    static let scene = CrashReportTests.scene + #"{"cell": "b", "highlighted": true}"# + "\n"

    /// `writes` picks what channel_writer.c writes (see there); `exits`: it then exits 0.
    @Test(arguments: [
        (1, true, #"{\"record\":\"event\""#), (1, false, #"{\"record\":\"event\""#),
        (2, false, #"\x0b0U"#), (3, false, "0123456789abcdef0000000514ffffffff"),
        (4, false, "hello from the plugin\\n"), (4, true, "hello from the plugin\\n"),
    ])
    func aPluginWritingToTheChannelIsAPluginFault(writes: Int, exits: Bool, shown: String) throws {
        let plugin = try ValidationFixtures.build("channel_writer", flags: "-DWRITES=\(writes)" + (exits ? " -DTHEN_EXIT" : ""))
        let dir = ValidationFixtures.temporaryDirectory()
        writeFile(Self.scene, to: "\(dir)/events.jsonl")
        let result = try WorkerProcess(executable: BuiltProducts.cellhost, arguments: [
            "run", "--plugin", plugin, "--events", "\(dir)/events.jsonl",
            "--trace", "\(dir)/trace.jsonl", "--chrome-trace", "\(dir)/trace.chrome.json", "--quiet",
        ]).run(limits: WorkerLimits(totalSeconds: 120)) { _ in }
        #expect(result.termination == .exited(code: 4), "\(result.standardError)")
        let error = result.standardError
        #expect(error.contains("wrote to its channel what is not a record of this run"), "\(error)")
        #expect(error.contains("not a frame of this run"), "\(error)")
        #expect(error.contains(shown), "the offending bytes, escaped: \(error)")
        #expect(error.contains("at event #2 ("), "the event it happened in: \(error)")

        let records = try (readTextFile("\(dir)/trace.jsonl") ?? "").split(separator: "\n").map { try JSON.parse(String($0)) }
        let events = records.compactMap { $0["record"]?.stringValue == "event" ? $0["event"]?.intValue : nil }
        #expect(events == [0, 1], "only the events before the fault are recorded")
        let ends = records.filter { $0["record"]?.stringValue == "end" }
        #expect(ends.count == 1 && records.last?["record"]?.stringValue == "end")
        #expect(ends.first?["outcome"]?.stringValue == "pluginCrashed")
        #expect(ends.first?["failedEvent"]?.intValue == 2)
        #expect((try? JSON.parse(readTextFile("\(dir)/trace.chrome.json") ?? "")) != nil, "the Chrome trace is valid JSON")
    }
}
