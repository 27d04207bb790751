import ArgumentParser

/// `cellhost`: UIKit's modern cell configuration model on Linux, open to plugins.
@main
struct CellHostCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "cellhost",
        abstract: "Run UIKit-style cell configurations, built-in and from plugins, through event streams.",
        subcommands: [InspectCommand.self, InspectWorkerCommand.self])
}
