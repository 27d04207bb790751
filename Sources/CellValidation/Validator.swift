import CellProcess

/// The supervisor side of `cellhost validate`: runs every check in its own worker process under
/// a watchdog, so a check that crashes or hangs is an outcome and the next check still runs.
public struct Validator: Sendable {
    /// The worker executable and the arguments that select the worker entry (`validate-worker`).
    public var executable: String
    public var workerArguments: [String]
    /// Seconds one step of a check (a call into the plugin) may take before the watchdog stops
    /// it. Every step the worker reports restarts the clock, so a long fuzz run on a slow or busy
    /// machine finishes while a call that hangs is still stopped.
    public var timeout: Double
    public var seed: UInt64
    public var checks: [ValidationCheck]

    public init(executable: String = WorkerProcess.currentExecutablePath, workerArguments: [String] = ["validate-worker"],
                timeout: Double = 30, seed: UInt64, checks: [ValidationCheck] = ValidationCheck.all) {
        self.executable = executable
        self.workerArguments = workerArguments
        self.timeout = timeout
        self.seed = seed
        self.checks = checks
    }

    /// Runs the checks against `path` in order, reporting each result as it is known.
    ///
    /// When a check's worker dies or hangs while loading the plugin (a constructor that crashes,
    /// exits or never returns), every later check would die the same way, each after its own
    /// watchdog period: that check reports the load failure once and the rest are skipped, as
    /// clap-validator does.
    public func run(path: String, onResult: (CheckResult) -> Void = { _ in }) -> ValidationReport {
        var results: [CheckResult] = []
        var loadFailure: String?
        for check in checks {
            let result: CheckResult
            if let loadFailure {
                result = CheckResult(check: check.id, outcome: .skipped,
                                     details: ["the plugin did not load (\(loadFailure) reports why)"], duration: 0)
            } else {
                let ran = run(check, path: path)
                if ran.diedWhileLoading { loadFailure = check.id }
                result = ran.result
            }
            onResult(result)
            results.append(result)
        }
        return ValidationReport(path: path, seed: seed, results: results)
    }

    /// The check's result, and whether its worker died or hung while loading the plugin.
    func run(_ check: ValidationCheck, path: String) -> (result: CheckResult, diedWhileLoading: Bool) {
        let worker = WorkerProcess(executable: executable,
                                   arguments: workerArguments + ["--check", check.id, "--seed", String(seed), path])
        var lastStep: String?
        var reported: CheckResult?
        let ended: WorkerResult
        do throws(WorkerLaunchError) {
            ended = try worker.run(limits: WorkerLimits(idleSeconds: timeout)) { line in
                switch WorkerMessage(line: line) {
                case .step(let text): lastStep = text
                case .result(let result): reported = result
                case nil: break
                }
            }
        } catch {
            return (CheckResult(check: check.id, outcome: .crashed, details: [error.description], duration: 0), false)
        }
        let diedWhileLoading = reported == nil && lastStep == CheckRecorder.loadingStep(path)
        let report = WorkerDeathReport(ended, phase: lastStep.map { "during: \($0)" }, pluginFiles: [path],
                                       rerun: "cellhost validate \(path)")
        return (result(of: check, ended: ended, reported: reported, lastStep: lastStep, report: report),
                diedWhileLoading)
    }

    private func result(of check: ValidationCheck, ended: WorkerResult, reported: CheckResult?, lastStep: String?,
                        report: WorkerDeathReport) -> CheckResult {
        let during = lastStep.map { " during: \($0)" } ?? ""
        switch ended.termination {
        case .exited(0) where reported != nil:
            return reported!
        case .exited(let code) where reported != nil:
            // The check finished and reported; only the exit failed (a leak checker such as
            // LeakSanitizer, or the plugin's exit handlers). The check's own result stands.
            var result = reported!
            result.details.append("the worker exited with status \(code) after reporting"
                                  + report.evidence.map { "; \($0)" }.joined())
            return result
        case .timedOut(let limit):
            return CheckResult(check: check.id, outcome: .failed,
                               details: ["a call did not return within \(limit) s (the watchdog stopped it)\(during)"],
                               duration: ended.duration)
        case .refused, .channelFault:
            // The sandbox stopped the plugin at what it tried (a process, a socket, a signal…), or
            // the plugin wrote into the worker's channel: a broken rule, named with the call.
            return CheckResult(check: check.id, outcome: .failed, details: [report.sentence] + report.evidence,
                               duration: ended.duration)
        case .signaled, .exited, .outputFlood, .interrupted:
            // A trap in cellhost's own code says nothing about the plugin: the host's error.
            return CheckResult(check: check.id, outcome: report.isHostFailure ? .error : .crashed,
                               details: [report.sentence] + report.evidence, duration: ended.duration)
        }
    }
}
