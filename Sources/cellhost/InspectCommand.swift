import ArgumentParser
import CellProcess
import CellValidation

/// `cellhost inspect PATH`: what a plugin provides — metadata, types, properties with their
/// types, actions with their signatures — loaded in a child process under a time limit
/// (`PluginInspection`), so a plugin that crashes, exits, hangs or floods its output is reported,
/// not fatal.
struct InspectCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "inspect",
        abstract: "Show a plugin's metadata, configuration types, properties and actions.",
        discussion: """
            The plugin is loaded in a child process; --timeout bounds the load (default \
            \(Int(defaultTimeout)) s). --json prints schema \(PluginReport.schema), also when the \
            plugin does not load.

            --no-load reads only what the plugin declared in its \(PluginMetadata.sectionName) ELF \
            section (CELLHOST_METADATA in plugin.h): no code of the file runs, so it is safe on a \
            plugin you do not trust. Types are listed by id alone. A file without the section \
            exits with 3 and says so; it may still load without --no-load.

            \(CellhostExitCode.table)
            """)

    static let defaultTimeout = 10.0

    @OptionGroup var plugin: PluginArgument
    @OptionGroup var format: JSONOption
    @OptionGroup var watchdog: TimeoutOption
    @OptionGroup var output: OutputOptions
    @Flag(name: .customLong("no-load"), help: "Read the plugin's metadata section without loading or running it.")
    var noLoad = false

    func run() throws {
        let report: PluginReport
        if noLoad {
            report = PluginInspection.inspectWithoutLoading(path: plugin.path)
        } else {
            IsolationNotice.print("inspect")
            report = PluginInspection(timeout: watchdog.timeout ?? Self.defaultTimeout).inspect(path: plugin.path)
        }
        output.result(format.json ? report.json.serialized + "\n" : report.text)
        if let error = report.error { output.error("inspect", error) }
        if WorkerProcess.interruption != nil { throw CellhostExitCode.interrupted.error }
        let code = CellhostExitCode(report.outcome)
        if code != .success { throw code.error }
    }
}
