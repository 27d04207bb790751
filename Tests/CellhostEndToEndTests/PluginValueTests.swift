import CellIO
import CellProcess
import CellTestSupport
import Testing
@testable import CellRuntime

/// Values a plugin hands the host are checked before host code uses them: an unusable one ends
/// the run as the plugin's fault, naming the plugin, the call and the value, instead of trapping
/// in the compositor; a canvas or context used outside its call is refused and logged.
@Suite struct PluginValueTests {
    struct Outcome {
        var status: Int32?
        var standardError: String
        var records: [TraceRecord]
        var end: TraceEnd? { if case .end(let e) = records.last { e } else { nil } }
    }

    func run(_ plugin: String) throws -> Outcome {
        let dir = BuiltProducts.temporaryDirectory(prefix: "cellhost-values-test")
        let result = try WorkerProcess(executable: BuiltProducts.cellhost,
                                       arguments: ["run", "--plugin", plugin, "--trace", dir + "/trace.jsonl", "--quiet"])
            .run(limits: WorkerLimits(totalSeconds: 120)) { _ in }
        var status: Int32?
        if case .exited(let code) = result.termination { status = code }
        let text = try #require(readTextFile(dir + "/trace.jsonl"))
        let records = try text.split(separator: "\n").map { line throws in try TraceRecord.decode(line: String(line)) }
        return Outcome(status: status, standardError: result.standardError, records: records)
    }

    /// absurd_canvas.c's cases and the words naming the call and the value.
    static let canvasCases: [(case: Int, expected: String)] = [
        (0, "draw: fill colour red nan is not finite"),
        (1, "draw: fill rect width inf is not finite"),
        (2, "draw: rounded_rect corner_radius 1e+300 is beyond ±1000000 pt"),
        (3, "draw: text font point_size 100000.0 is outside 0…1000 pt"),
        (4, "draw: text a text of 10000000 bytes is longer than 100000"),
        (5, "draw: push_alpha alpha nan is not finite"),
        (6, "draw: symbol point_size inf is not finite"),
        (7, "measure_text width nan is not finite"),
        (8, "draw: push_clip rect x -1e+308 is beyond ±1000000 pt"),
    ]

    @Test(arguments: canvasCases)
    func anUnusableCanvasValueIsThePluginsFault(case number: Int, expected: String) throws {
        let plugin = try ValidationFixtures.build("absurd_canvas", flags: "-DCASE=\(number) -lm")
        let outcome = try run(plugin)
        #expect(outcome.status == 4, "\(outcome.standardError)")
        let end = try #require(outcome.end)
        #expect(end.outcome == .pluginFault)
        #expect(end.failedEvent == 0)
        let message = end.message ?? ""
        #expect(message.contains("plugin com.validation.test"), "\(message)")
        #expect(message.contains("com.validation.test.cell " + expected), "\(message)")
        #expect(outcome.standardError.contains(expected))
    }

    @Test func aNonFiniteSizeIsThePluginsFault() throws {
        // infinite_size.c returns an infinite height once its title is set: the stream sets it at event 1.
        let dir = BuiltProducts.temporaryDirectory(prefix: "cellhost-values-test")
        let plugin = try ValidationFixtures.build("infinite_size")
        let stream = dir + "/events.jsonl"
        writeFile("""
            {"scene": {"viewport": {"width": 390, "height": 200}, "scale": 1}}
            {"section": {"id": "s"}}
            {"item": {"id": "cell", "type": "com.validation.test.cell", "set": {"value": 0.5}}}
            {"cell": "cell", "set": {"title": "grown"}}

            """, to: stream)
        let result = try WorkerProcess(executable: BuiltProducts.cellhost,
                                       arguments: ["run", "--plugin", plugin, "--events", stream, "--trace", dir + "/trace.jsonl", "--quiet"])
            .run(limits: WorkerLimits(totalSeconds: 120)) { _ in }
        guard case .exited(4) = result.termination else { Issue.record("\(result.termination): \(result.standardError)"); return }
        #expect(result.standardError.contains("com.validation.test.cell size_that_fits returned height inf is not finite at event #1 (\(stream):4)"),
                "\(result.standardError)")
    }

    @Test func aCanvasUsedOutsideItsCallIsRefusedAndLogged() throws {
        let plugin = try ValidationFixtures.build("stray_canvas", flags: "-lpthread")
        let outcome = try run(plugin)
        #expect(outcome.status == 0, "\(outcome.standardError)")
        #expect(outcome.end?.outcome == .ok)
        let logs = outcome.records.compactMap { if case .log(let l) = $0 { l.message } else { nil } }
        #expect(logs.contains { $0.contains("host service fill refused") && $0.contains("after the call returned") }, "\(logs)")
        #expect(logs.contains { $0.contains("host service measure_text refused: it was called with a context other than") }, "\(logs)")
    }
}
