import CellPlugins
import CellProcess

/// The worker side of `cellhost validate`: runs one check in this (child) process and sends its
/// result over the channel. A crash or hang here is the supervisor's to report.
public enum ValidationWorker {
    /// Runs `checkID` against the plugin at `path`; returns the process exit status.
    public static func run(checkID: String, path: String, seed: UInt64) -> Int32 {
        guard let check = ValidationCheck.named(checkID) else { return 2 }
        let channel = WorkerChannel.fromEnvironment()
        // Plugin log lines are the plugin's business, not the report's.
        PluginHostEnvironment.setLogHandler { _ in }
        let recorder = CheckRecorder(checkID: checkID, path: path, seed: seed, channel: channel)
        let start = ContinuousClock.now
        check.body(recorder)
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
