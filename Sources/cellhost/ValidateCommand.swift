import ArgumentParser
import CellProcess
import CellIO
import CellValidation
import Glibc

/// `cellhost validate PATH`: the conformance suite, every check in its own worker process.
struct ValidateCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "validate",
        abstract: "Check a plugin against the plugin ABI's rules, each check in a child process with a watchdog.",
        discussion: """
            Outcomes: success, warning, skipped, failed, crashed, and error (a bug in cellhost itself). The plugin is first loaded as \
            `inspect` loads it, so one that does not load exits as it would there; the checks still \
            run and say why. --timeout bounds each call into the plugin (default \(Int(defaultTimeout)) s). \
            Random checks print their seed; --seed replays them. --json prints schema cellhost.validate/1.
            Checks: \(ValidationCheck.all.map(\.id).joined(separator: ", ")).

            \(CellhostExitCode.table)
            """)

    static let defaultTimeout = 30.0

    @OptionGroup var plugin: PluginArgument
    @OptionGroup var format: JSONOption

    @Option(help: "Seed for the random checks (default: from the clock).")
    var seed: UInt64?

    @Flag(help: "Show only the checks that failed or crashed.")
    var onlyFailed = false

    @OptionGroup var watchdog: TimeoutOption

    @Option(help: "Also write the JSON report to this file (written whole, never half).")
    var report: String?

    @Option(name: .customLong("check"), help: "Run only this check (repeatable).")
    var onlyChecks: [String] = []

    @OptionGroup var output: OutputOptions

    func validate() throws {
        for id in onlyChecks where ValidationCheck.named(id) == nil {
            throw ValidationError("unknown check '\(id)'; known: \(ValidationCheck.all.map(\.id).joined(separator: ", "))")
        }
    }

    func run() throws {
        let path = plugin.path, json = format.json
        let timeout = watchdog.timeout ?? Self.defaultTimeout
        IsolationNotice.print("validate")
        let loading = PluginInspection(timeout: timeout).inspect(path: path)
        let seed = self.seed ?? Self.clockSeed()
        let checks = onlyChecks.isEmpty ? ValidationCheck.all : ValidationCheck.all.filter { onlyChecks.contains($0.id) }
        if !json { output.result("Validating \(path) (seed \(seed))\n") }
        let result = Validator(timeout: timeout, seed: seed, checks: checks).run(path: path) { result in
            guard !json, !onlyFailed || result.outcome.isProblem else { return }
            output.result(ValidationReport.line(for: result) + "\n")
        }
        var shown = result
        if onlyFailed { shown.results = result.results.filter { $0.outcome.isProblem } }
        output.result((json ? shown.json.serialized : result.summary) + "\n")
        if let report {
            do throws(SinkError) {
                let file = try AtomicFile(path: report)
                file.write(shown.json.serialized + "\n")
                try file.commit()
            } catch {
                output.error("validate", error.description)
                throw CellhostExitCode.outputNotWritten.error
            }
        }
        let code = WorkerProcess.interruption != nil ? .interrupted : CellhostExitCode(loading: loading.outcome, validation: result)
        switch code {
        case .success: return
        case .interrupted: output.error("validate", "\(path): interrupted; the worker was ended")
        case .outputNotWritten where result.hasHostError:
            let checks = result.results.filter { $0.outcome == .error }.map(\.check)
            output.error("validate", "\(path): cellhost failed in its own code (a bug in cellhost, not in the plugin) during "
                         + checks.joined(separator: ", ") + "; the report is incomplete")
        case .checksFailed:
            let problems = result.results.filter { $0.outcome.isProblem }.count
            output.error("validate", "\(path): \(problems) of \(result.results.count) checks failed or crashed")
        default:
            output.error("validate", loading.error ?? "\(path): the plugin did not load")
        }
        throw code.error
    }

    /// A seed that differs from run to run, so repeated validation explores new random cases.
    private static func clockSeed() -> UInt64 {
        var clock = timespec()
        clock_gettime(CLOCK_REALTIME, &clock)
        return UInt64(clock.tv_sec) &* 1_000_003 &+ UInt64(clock.tv_nsec)
    }
}

/// The worker entry `validate` re-executes: runs one check and reports over the channel.
struct ValidateWorkerCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "validate-worker", shouldDisplay: false)

    @Option var check: String
    @Option var seed: UInt64
    @Argument var path: String

    func run() throws {
        WorkerSandbox.dieWithSupervisor()
        // The path keeps its spelling (reports quote it); the plugin is opened before its code runs.
        try WorkerSandbox.enter(reading: [WorkerSandbox.absolute(path)], writing: [])
        let status = ValidationWorker.run(checkID: check, path: path, seed: seed)
        if status != 0 { throw ExitCode(status) }
    }
}
