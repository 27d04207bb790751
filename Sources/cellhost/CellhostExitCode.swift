import ArgumentParser
import CellRuntime
import CellValidation

/// The exit status of every `cellhost` subcommand. One table, so a script can tell what went
/// wrong the same way whichever subcommand it ran: the same missing plugin file is 3 from
/// `run`, `inspect` and `validate` alike. Every `--help` and README.md's Commands section show
/// `table`; a code's meaning never depends on the subcommand.
enum CellhostExitCode: Int32, CaseIterable {
    case success = 0
    case badInput = 1
    case usage = 2
    case pluginNotLoaded = 3
    case pluginFailed = 4
    case outputNotWritten = 5
    case checksFailed = 6
    case sdkNotFound = 7
    case snapshotsFailed = 8
    case interrupted = 130

    var meaning: String {
        switch self {
        case .success: "success: the stream ran to the end, the plugin loaded, no check failed"
        case .badInput: "bad input: a malformed stream line, an unknown item, property or type"
        case .usage: "usage: bad command-line arguments"
        case .pluginNotLoaded: "plugin not loaded: no such file, not a plugin, wrong ABI, bad descriptor"
        case .pluginFailed: "a plugin crashed, hung, exited, gave a bad value or broke the sandbox"
        case .outputNotWritten: "an output file or frame could not be written, or a bug in cellhost"
        case .checksFailed: "validate: the plugin loaded, but a check failed or crashed"
        case .sdkNotFound: "sdk: the plugin SDK's header or .pc file is not where cellhost looks"
        case .snapshotsFailed: "test: a snapshot differed, was missing or recorded, or its stream failed"
        case .interrupted: "interrupted: SIGINT, SIGTERM or SIGHUP ended the run and its worker"
        }
    }

    /// The table as `--help` prints it, one code a line.
    static let table = "Exit codes (the same for every subcommand):\n"
        + allCases.map { "  \($0.rawValue)  \($0.meaning)" }.joined(separator: "\n")

    /// The error to throw from `run()` for this outcome; ArgumentParser exits with it silently,
    /// so the message must already be on stderr.
    var error: ExitCode { ExitCode(rawValue) }

    /// How a run ended. An internal error is an output that could not be written or a trap in
    /// cellhost's own code (never blamed on a plugin): every other failure is input or plugin trouble.
    init(_ outcome: TraceEnd.Outcome) {
        self = switch outcome {
        case .ok: .success
        case .badInput: .badInput
        case .pluginLoadFailed: .pluginNotLoaded
        case .pluginCrashed, .pluginHung, .pluginFault: .pluginFailed
        case .internalError: .outputNotWritten
        case .interrupted: .interrupted
        }
    }

    /// How loading a plugin in a child process ended.
    init(_ outcome: PluginReport.Outcome) {
        self = switch outcome {
        case .loaded: .success
        case .refused, .noMetadata: .pluginNotLoaded
        case .failed: .pluginFailed
        }
    }

    /// A validation: a plugin that does not load is reported as by `inspect`, so the code says
    /// why the checks could not pass; a check that stopped in cellhost's own code is the host's
    /// bug, never blamed on the plugin; otherwise any failed or crashed check is `checksFailed`.
    init(loading: PluginReport.Outcome, validation: ValidationReport) {
        let load = CellhostExitCode(loading)
        self = load != .success ? load
            : validation.hasHostError ? .outputNotWritten : validation.hasProblems ? .checksFailed : .success
    }
}
