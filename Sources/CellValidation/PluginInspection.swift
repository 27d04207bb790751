import CellIO
import CellPlugins
import CellProcess

/// Loads a plugin in a child process under a time limit and reports what it provides. Loading
/// runs the plugin's own code (constructors, the entry, init), so it happens in a disposable
/// worker: whatever the plugin does there — crash, exit, hang, flood its output — becomes a
/// `failed` report with one sentence naming the path, never the end of the caller.
public struct PluginInspection: Sendable {
    /// The hidden subcommand the worker runs as.
    public static let workerCommand = "inspect-worker"
    /// Output the worker may write before it counts as flooding and is stopped; a report is far
    /// smaller, so only a plugin writing from its constructor or entry reaches it.
    public static let outputLimitBytes = 1 << 20

    /// The worker executable and the arguments that select the worker entry.
    public var executable: String
    public var workerArguments: [String]
    /// Seconds loading may take, start-up included, before the worker is stopped.
    public var timeout: Double

    public init(executable: String = WorkerProcess.currentExecutablePath,
                workerArguments: [String] = [PluginInspection.workerCommand], timeout: Double) {
        self.executable = executable
        self.workerArguments = workerArguments
        self.timeout = timeout
    }

    /// Loads `path` in a worker and returns its report, or a failure naming what the worker did.
    public func inspect(path: String) -> PluginReport {
        let worker = WorkerProcess(executable: executable, arguments: workerArguments + [path])
        var record: String?
        let result: WorkerResult
        do {
            result = try worker.run(limits: WorkerLimits(totalSeconds: timeout, outputBytes: Self.outputLimitBytes)) { line in
                if record == nil { record = line }
            }
        } catch {
            return PluginReport(path: path, error: "\(path): \(error.description)", outcome: .failed)
        }
        if let record, let parsed = try? JSON.parse(record), result.termination.isSuccess { return PluginReport(json: parsed) }
        if case .exited(let code) = result.termination, record != nil {
            return PluginReport(path: path, error: "\(path): the worker sent an unreadable report and exited with status \(code)",
                                outcome: .failed)
        }
        let report = WorkerDeathReport(result, phase: "while loading", pluginFiles: [path], rerun: "cellhost inspect \(path)")
        return PluginReport(path: path, error: "\(path): \(report.text)", outcome: .failed)
    }

    /// `inspect --no-load`: the report the file's metadata section gives, read without loading
    /// or running anything of it, so it needs no worker. A file without the section is
    /// `noMetadata`; one that is not a readable 64-bit little-endian ELF file, or whose section
    /// is malformed, is `refused`.
    public static func inspectWithoutLoading(path: String) -> PluginReport {
        do {
            return PluginReport(path: path, metadata: try PluginMetadata.read(path: path))
        } catch {
            return PluginReport(path: path, error: error.description, outcome: error.kind == .noSection ? .noMetadata : .refused)
        }
    }

    /// The worker side: loads `path` in this process and sends one report over the channel the
    /// supervisor opened. Returns false when this process has no such channel (it was not
    /// started by `inspect(path:)`).
    public static func runWorker(path: String) -> Bool {
        guard let channel = WorkerChannel.fromEnvironment() else { return false }
        // Messages the plugin logs while loading would reach stderr unbounded; keep them out.
        PluginHostEnvironment.setLogHandler { _ in }
        let report: PluginReport
        do {
            report = PluginReport(loaded: try PluginRegistry().load(path))
        } catch {
            report = PluginReport(path: path, error: error.description, outcome: .refused)
        }
        channel.send(report.json.serialized)
        return true
    }

}
