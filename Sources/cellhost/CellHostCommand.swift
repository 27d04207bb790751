import CellIO
import ArgumentParser
import CellRuntime
import Glibc

/// `cellhost`: UIKit's modern cell configuration model on Linux, open to plugins.
@main
struct CellHostCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "cellhost",
        abstract: "Run UIKit-style cell configurations, built-in and from plugins, through event streams.",
        subcommands: [RunCommand.self, InspectCommand.self, ValidateCommand.self,
                      RunWorkerCommand.self, InspectWorkerCommand.self, ValidateWorkerCommand.self])

    /// Usage errors exit with 2 (ArgumentParser's default is 64), as the documented exit codes say.
    static func main() {
        // A reader that stops early (`cellhost run | head`) must not kill a run before its trace
        // files are complete: terminal output to a closed pipe is dropped and the run goes on.
        signal(SIGPIPE, SIG_IGN)
        do {
            var command = try parseAsRoot()
            try command.run()
        } catch {
            let code = exitCode(for: error)
            if code == .validationFailure {
                Console.error(fullMessage(for: error) + "\n")
                Glibc.exit(ExitStatus.usage)
            }
            exit(withError: error)
        }
    }
}

/// The process exit codes of every subcommand, as `--help` documents them.
enum ExitStatus {
    static let ok: Int32 = 0
    static let badInput: Int32 = 1
    static let usage: Int32 = 2
    static let pluginLoadFailed: Int32 = 3
    static let pluginFailed: Int32 = 4
    static let outputFailed: Int32 = 5
}
