import CellPlugins
import CellProcess
import Glibc

/// The worker side of `cellhost validate`: runs one check in this (child) process and sends its
/// result over the channel. A crash or hang here is the supervisor's to report.
public enum ValidationWorker {
    /// Fault injection for the tests of crash attribution: the worker traps in its own code as
    /// this check begins (`CELLHOST_TEST_HOST_TRAP_IN_CHECK`), as a host bug would.
    static let hostTrapCheckKey = "CELLHOST_TEST_HOST_TRAP_IN_CHECK"

    /// Runs `checkID` against the plugin at `path`; returns the process exit status.
    public static func run(checkID: String, path: String, seed: UInt64) -> Int32 {
        guard let check = ValidationCheck.named(checkID) else { return 2 }
        let channel = WorkerChannel.fromEnvironment()
        // Plugin log lines are the plugin's business, not the report's.
        PluginHostEnvironment.setLogHandler { _ in }
        // With a channel, fd 1 is nobody's but the plugin's to misuse; without one, it carries the result.
        let standardOutput = channel == nil ? nil : StandardOutputWatch()
        let recorder = CheckRecorder(checkID: checkID, path: path, seed: seed, channel: channel, standardOutput: standardOutput)
        let start = ContinuousClock.now
        if let trap = getenv(hostTrapCheckKey), String(cString: trap) == checkID {
            recorder.step("the trap \(hostTrapCheckKey) asked for")
            preconditionFailure("the trap \(hostTrapCheckKey) asked for in \(checkID)")
        }
        check.body(recorder)
        recorder.checkStandardOutput()
        let result = CheckResult(check: checkID, outcome: recorder.outcome, details: recorder.details,
                                 duration: seconds(ContinuousClock.now - start))
        if let channel {
            channel.send(WorkerMessage.result(result).line)
        } else {
            print(ValidationReport.line(for: result))
        }
        return 0
    }
}
