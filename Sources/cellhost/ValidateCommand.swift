import CellIO
import ArgumentParser
import CellRuntime
import CellValidation
import Glibc

/// `cellhost validate PATH`: the conformance suite, every check in its own worker process.
struct ValidateCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "validate",
        abstract: "Check a plugin against the plugin ABI's rules, each check in a child process with a watchdog.",
        discussion: """
            Outcomes: success, warning, skipped, failed, crashed. Exit status: 0 when no check failed or \
            crashed, 1 otherwise, 2 for usage errors. Random checks print their seed; --seed replays them.
            Checks: \(ValidationCheck.all.map(\.id).joined(separator: ", ")).
            """)

    @Argument(help: "The plugin library (.so) to validate.")
    var path: String

    @Flag(help: "Print the report as JSON (schema cellhost.validate/1) instead of text.")
    var json = false

    @Option(help: "Seed for the random checks (default: from the clock).")
    var seed: UInt64?

    @Flag(help: "Show only the checks that failed or crashed.")
    var onlyFailed = false

    @Option(help: "Seconds one call into the plugin may take before the watchdog stops the check.")
    var timeout: Double = 30

    @Option(help: "Also write the JSON report to this file (written whole, never half).")
    var report: String?

    @Option(name: .customLong("check"), help: "Run only this check (repeatable).")
    var onlyChecks: [String] = []

    func validate() throws {
        guard timeout > 0 else { throw ValidationError("--timeout must be positive") }
        for id in onlyChecks where ValidationCheck.named(id) == nil {
            throw ValidationError("unknown check '\(id)'; known: \(ValidationCheck.all.map(\.id).joined(separator: ", "))")
        }
    }

    func run() throws {
        var clock = timespec()
        clock_gettime(CLOCK_REALTIME, &clock)
        let seed = self.seed ?? UInt64(clock.tv_sec) &* 1_000_003 &+ UInt64(clock.tv_nsec)
        let checks = onlyChecks.isEmpty ? ValidationCheck.all : ValidationCheck.all.filter { onlyChecks.contains($0.id) }
        let validator = Validator(timeout: timeout, seed: seed, checks: checks)
        if !json { print("Validating \(path) (seed \(seed))") }
        let result = validator.run(path: path) { result in
            guard !json, !onlyFailed || result.outcome.isProblem else { return }
            print(ValidationReport.line(for: result))
            fflush(nil)
        }
        var shown = result
        if onlyFailed { shown.results = result.results.filter { $0.outcome.isProblem } }
        if json { print(shown.json.serialized) } else { print(result.summary) }
        if let report {
            do throws(SinkError) {
                let file = try AtomicFile(path: report)
                file.write(shown.json.serialized + "\n")
                try file.commit()
            } catch {
                let message = "cellhost validate: \(error)\n"
                _ = message.withCString { write(2, $0, strlen($0)) }
                throw ExitCode(1)
            }
        }
        if result.hasProblems { throw ExitCode(1) }
    }
}

/// The worker entry `validate` re-executes: runs one check and reports over the channel.
struct ValidateWorkerCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "validate-worker", shouldDisplay: false)

    @Option var check: String
    @Option var seed: UInt64
    @Argument var path: String

    func run() throws {
        let status = ValidationWorker.run(checkID: check, path: path, seed: seed)
        if status != 0 { throw ExitCode(status) }
    }
}
