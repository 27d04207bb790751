import ArgumentParser
import CellProcess
import CellValidation

/// The child side of `cellhost inspect` and `cellhost validate`: loads the plugin in this
/// disposable process and sends one report to the supervisor. Whatever the plugin does to this
/// process — crash, exit, hang, flood stdout — the supervisor sees and reports.
struct InspectWorkerCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: PluginInspection.workerCommand, abstract: "Loads a plugin for `inspect` and `validate` (internal).",
        shouldDisplay: false)

    @Argument var path: String

    func run() throws {
        WorkerSandbox.dieWithSupervisor()
        // The path keeps its spelling (reports quote it); the plugin is opened before its code runs.
        try WorkerSandbox.enter(reading: [WorkerSandbox.absolute(path)], writing: [])
        guard PluginInspection.runWorker(path: path) else {
            throw ValidationError("\(PluginInspection.workerCommand) runs only under `cellhost inspect` or `cellhost validate`")
        }
    }
}
