/// Where a run executes. In a worker, a plugin that crashes, hangs or exits ends the worker, not
/// the caller, and the traces up to the event it died on stay complete; in-process exists for
/// debuggers, where a crash ends the caller too.
public enum RunIsolation: Sendable, Equatable {
    case inProcess
    /// `eventTimeout`: longest silence of the worker (one event, or loading plugins); nil = none.
    case worker(eventTimeout: Double?)

    /// The per-event limit when none is given: a file or the embedded stream is read as fast as
    /// it runs, so a long silence means a stuck plugin; standard input may pause for as long as
    /// its writer likes, so it gets no limit unless one is asked for.
    public static let defaultEventTimeout = 10.0

    public static func worker(eventTimeout given: Double?, for options: RunOptions) -> RunIsolation {
        .worker(eventTimeout: given ?? (options.events == "-" ? nil : defaultEventTimeout))
    }
}
