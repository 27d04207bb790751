import CellIO
import CellReport
import CellRuntime
import Glibc
import Synchronization

/// The runs a preview has made: each goes into a fresh folder under `root`, in a fresh worker
/// process (the server never loads a plugin, so it never has one to dlclose); the page serves the
/// last good one. A run that fails (the plugin does not load, crashes, the stream is bad) leaves
/// the last good run in place and is reported as `failure` until a run succeeds again. Folders of
/// older runs are removed, all but the one before the latest (a page may still be loading its frames).
public final class PreviewRuns: Sendable {
    public struct Status: Sendable, Equatable {
        /// The number of the last good run; nil until one succeeds.
        public var generation: Int?
        /// Why the latest run failed; nil when it succeeded.
        public var failure: String?
    }

    public let root: String
    private let options: RunOptions
    private let state = Mutex<(status: Status, attempts: Int)>((Status(), 0))

    /// Told how each run went, in words, for the terminal.
    private let onRun: @Sendable (String) -> Void

    public init(root: String, plugin: String, events: String?, onRun: @escaping @Sendable (String) -> Void = { _ in }) {
        self.root = root
        options = RunOptions(events: events, plugins: [plugin])
        self.onRun = onRun
    }

    public var status: Status { state.withLock { $0.status } }

    public func folder(of generation: Int) -> String { root + "/run-\(generation)" }

    /// Runs the stream once, blocking, and updates the status.
    public func runOnce() {
        let attempt = state.withLock { $0.attempts += 1; return $0.attempts }
        let folder = folder(of: attempt)
        let plan = RunOutputPlan(directory: folder)
        var options = self.options
        options.framesDirectory = plan.framesDirectory
        options.contactSheet = plan.contactSheet
        var failure: String?
        var summary = ""
        do throws(SinkError) {
            var sinks = try plan.openTraceSinks()
            if let page = try plan.openReportSink() { sinks.append(page) }
            let end = try RunSession.play(options, into: sinks, isolation: .worker(eventTimeout: nil, for: options))
            summary = "\(end.events) event\(end.events == 1 ? "" : "s"), \(end.frames) frame\(end.frames == 1 ? "" : "s")"
            if end.outcome != .ok {
                failure = "\(end.outcome.rawValue)" + (end.failedEvent.map { " at event #\($0)" } ?? "")
                    + ": " + (end.message ?? "the run did not finish")
            }
        } catch {
            failure = "the run's files could not be written: \(error.description)"
        }
        let previous = state.withLock { state -> Int? in
            let previous = state.status.generation
            if failure == nil { state.status.generation = attempt }
            state.status.failure = failure
            return previous
        }
        onRun(failure.map { "run \(attempt) failed, the page keeps the last good run: \($0)" } ?? "run \(attempt): \(summary)")
        if failure != nil {
            removeTree(folder)
        } else if let previous {
            // Keep the run before this one: a page that reloads now may still ask for its frames.
            for old in 1..<max(1, previous) { removeTree(self.folder(of: old)) }
        }
    }

    /// Removes every run's folder and the root.
    public func removeAll() { removeTree(root) }
}

/// `rm -r path`, without following symbolic links.
func removeTree(_ path: String) {
    var info = stat()
    guard lstat(path, &info) == 0 else { return }
    if (info.st_mode & S_IFMT) == S_IFDIR {
        for name in directoryEntries(path) ?? [] where name != "." && name != ".." { removeTree(path + "/" + name) }
        rmdir(path)
    } else {
        unlink(path)
    }
}
