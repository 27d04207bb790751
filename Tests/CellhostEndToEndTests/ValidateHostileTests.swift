import CellProcess
import CellTestSupport
import Testing

/// `validate` fails a plugin that breaks out of its worker when it loads: one that forks, or
/// writes to a descriptor it does not own (the worker's channel). The load failure is reported
/// once, by the first check, with what the plugin tried, the rest are skipped, and validate
/// exits with the plugin-fault code.
@Suite struct ValidateHostileTests {
    func validate(_ plugin: String) throws -> WorkerResult {
        try WorkerProcess(executable: BuiltProducts.cellhost, arguments: ["validate", plugin])
            .run(limits: WorkerLimits(totalSeconds: 120)) { _ in }
    }

    func expectLoadFailure(_ result: WorkerResult, saying words: String) {
        #expect(result.termination == .exited(code: 4), "\(result.termination): \(result.standardError)")
        let lines = result.standardOutput.split(separator: "\n")
        let first = lines.firstIndex { $0.hasPrefix("[") }
        #expect(first.map { lines[$0].hasPrefix("[CRASHED] strict-load") } == true, "\(result.standardOutput)")
        #expect(result.standardOutput.contains(words), "\(result.standardOutput)")
        let outcomes = lines.filter { $0.hasPrefix("[") }
        #expect(outcomes.dropFirst().allSatisfy { $0.hasPrefix("[SKIPPED]") }, "\(result.standardOutput)")
    }

    @Test func aPluginThatForksFailsValidation() throws {
        let mark = ValidationFixtures.temporaryDirectory() + "/daemon-was-here"
        let plugin = try SandboxTests.build("FORK", target: mark, inInit: true)
        expectLoadFailure(try validate(plugin), saying: "the plugin tried to start a process")
    }

    @Test func aPluginThatWritesToTheChannelFailsValidation() throws {
        let plugin = try ValidationFixtures.build("channel_writer", flags: "-DWRITES=4 -DIN_INIT")
        expectLoadFailure(try validate(plugin), saying: #"bytes that are not a frame of this run: "hello from the plugin\n"#)
    }
}
