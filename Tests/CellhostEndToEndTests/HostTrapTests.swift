import CellIO
import CellProcess
import CellTestSupport
import Testing

/// A failure in host code is reported as the host's, naming the input that caused it, and never
/// blamed on a plugin; a trap in a plugin stays the plugin's. The host's trap is injected
/// (`CELLHOST_TEST_HOST_TRAP_AT_EVENT`: the worker fails a precondition of its own as the event
/// begins), since every host trap a stream or plugin could reach is a bug that gets fixed.
@Suite struct HostTrapTests {
    struct Outcome {
        var result: WorkerResult
        var end: JSON?
    }

    func run(_ plugin: String, environment: [String: String] = [:]) throws -> Outcome {
        let dir = ValidationFixtures.temporaryDirectory()
        writeFile(SandboxTests.stream, to: "\(dir)/events.jsonl")
        let result = try WorkerProcess(executable: BuiltProducts.cellhost,
                                       arguments: ["run", "--plugin", plugin, "--events", "\(dir)/events.jsonl",
                                                   "--trace", "\(dir)/trace.jsonl", "--quiet"],
                                       environment: environment)
            .run(limits: WorkerLimits(totalSeconds: 120)) { _ in }
        let end = (readTextFile("\(dir)/trace.jsonl") ?? "").split(separator: "\n").last.flatMap { try? JSON.parse(String($0)) }
        return Outcome(result: result, end: end)
    }

    @Test func aTrapInHostCodeIsTheHostsWithTheEventAndLine() throws {
        let plugin = try ValidationFixtures.build("good")
        let outcome = try run(plugin, environment: ["CELLHOST_TEST_HOST_TRAP_AT_EVENT": "2"])
        let error = outcome.result.standardError
        #expect(outcome.result.termination == .exited(code: 5), "\(outcome.result.termination): \(error)")
        #expect(error.contains("cellhost failed in its own code (a bug in cellhost, not in the plugin): the worker crashed with SIG"), "\(error)")
        #expect(error.contains("at event #2 ("), "\(error)")
        #expect(error.contains("events.jsonl:6"), "the stream line: \(error)")
        #expect(error.contains("ChannelOutput.begin"), "the function it stopped in: \(error)")
        #expect(outcome.end?["outcome"]?.stringValue == "internalError")
        #expect(outcome.end?["failedEvent"]?.intValue == 2)
    }

    @Test func aTrapInThePluginStaysThePlugins() throws {
        let outcome = try run(try SandboxTests.build("TRAP"))
        let error = outcome.result.standardError
        #expect(outcome.result.termination == .exited(code: 4), "\(outcome.result.termination): \(error)")
        #expect(error.contains("the worker crashed with SIGILL at event #2 (") || error.contains("the worker crashed with SIGTRAP at event #2 ("),
                "\(error)")
        #expect(!error.contains("cellhost failed in its own code"), "\(error)")
        #expect(outcome.end?["outcome"]?.stringValue == "pluginCrashed")
    }
}
