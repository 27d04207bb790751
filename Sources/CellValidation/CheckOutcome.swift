/// How one check ended, in the vocabulary of clap-validator and pluginval, and `error`: the
/// worker stopped on a trap in cellhost's own code, a bug in cellhost that says nothing about
/// the plugin (validate exits with the internal-error code, not the plugin's).
public enum CheckOutcome: String, Sendable, CaseIterable, Comparable {
    case success, warning, skipped, failed, crashed, error

    /// Failed and crashed checks make `cellhost validate` exit non-zero; so does `error`, with
    /// cellhost's own code. The rest do not.
    public var isProblem: Bool { self == .failed || self == .crashed || self == .error }

    private var rank: Int { Self.allCases.firstIndex(of: self)! }
    public static func < (a: CheckOutcome, b: CheckOutcome) -> Bool { a.rank < b.rank }
}

/// The result of one check: its outcome, the lines that explain it, and how long it ran.
public struct CheckResult: Sendable, Equatable {
    public var check: String
    public var outcome: CheckOutcome
    public var details: [String]
    /// Seconds the check itself ran (without process start-up when the worker measured it).
    public var duration: Double

    public init(check: String, outcome: CheckOutcome, details: [String], duration: Double) {
        self.check = check
        self.outcome = outcome
        self.details = details
        self.duration = duration
    }
}
