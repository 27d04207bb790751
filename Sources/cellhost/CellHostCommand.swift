import ArgumentParser
import CellIO
import CellValidation
import Glibc

/// `cellhost`: UIKit's modern cell configuration model on Linux, open to plugins. The commands
/// only parse, call the libraries and print; every failure leaves as a `CellhostExitCode`.
@main
struct CellHostCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "cellhost",
        abstract: "Run UIKit-style cell configurations, built-in and from plugins, through event streams.",
        discussion: CellhostExitCode.table,
        version: CellhostVersion.description,
        subcommands: [RunCommand.self, InspectCommand.self, ValidateCommand.self, SDKCommand.self, NewCommand.self,
                      SymbolsCommand.self, TestCommand.self, PreviewCommand.self,
                      RunWorkerCommand.self, InspectWorkerCommand.self, ValidateWorkerCommand.self])

    /// Usage errors exit with `CellhostExitCode.usage` (ArgumentParser's own is 64), as the table says.
    static func main() {
        // A reader that stops early (`cellhost run | head`) must not kill a run before its trace
        // files are complete: terminal output to a closed pipe is dropped and the run goes on.
        signal(SIGPIPE, SIG_IGN)
        do {
            var command = try parseAsRoot()
            try command.run()
        } catch {
            if exitCode(for: error) == .validationFailure {
                Console.error(fullMessage(for: error) + "\n")
                exit(withError: CellhostExitCode.usage.error)
            }
            exit(withError: error)
        }
    }
}
