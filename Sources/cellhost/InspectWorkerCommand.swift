import CellIO
import ArgumentParser
import CellPlugins
import CellProcess

/// The child side of `cellhost inspect`: loads the plugin in this (disposable) process and sends
/// one JSON record over the worker channel. Whatever the plugin does to this process — crash,
/// exit, hang, flood stdout — the supervisor sees and reports.
struct InspectWorkerCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "inspect-worker", abstract: "Loads a plugin for `inspect` (internal).",
        shouldDisplay: false)

    @Argument var path: String

    func run() throws {
        guard let channel = WorkerChannel.fromEnvironment() else {
            throw ValidationError("inspect-worker runs only under `cellhost inspect`")
        }
        // Messages the plugin logs while loading must not reach stderr unbounded; keep them out.
        PluginHostEnvironment.setLogHandler { _ in }
        let record: String
        do {
            record = PluginReportJSON.loaded(try PluginRegistry().load(path)).serialized
        } catch {
            record = PluginReportJSON.failure(path: path, error: error.description, outcome: "refused").serialized
        }
        channel.send(record)
    }
}
