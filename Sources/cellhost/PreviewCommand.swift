import ArgumentParser
import CellIO
import CellPreview
import Dispatch
import Glibc

/// `cellhost preview`: a live report of a plugin's run that follows the plugin as it is rebuilt.
struct PreviewCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "preview",
        abstract: "Serve a live HTML report of a plugin's run that reloads when the plugin or the stream changes.",
        discussion: """
            Runs the stream (or the embedded default) through the plugin in a worker process and \
            serves the run's report.html on http://127.0.0.1:PORT/. The plugin file and the stream \
            are watched: when either changes, the stream runs again in a fresh worker and the open \
            page loads the new run by itself. A change that fails to load or crashes is shown on \
            the page, and the last good run stays. Ctrl-C stops the server.

            \(CellhostExitCode.table)
            """)

    @Option(help: ArgumentHelp("The plugin .so to run and watch.", valueName: "path"))
    var plugin: String

    @Option(help: ArgumentHelp("The event stream (JSON Lines) to run and watch; default: the embedded stream.", valueName: "file"))
    var events: String?

    @Option(help: ArgumentHelp("The port to listen on (0: any free port).", valueName: "n"))
    var port: Int = 8080

    @Option(help: ArgumentHelp("The address to listen on; only this machine can connect to the default.", valueName: "address"))
    var host: String = "127.0.0.1"

    @OptionGroup var output: OutputOptions

    func validate() throws {
        if access(plugin, R_OK) != 0 {
            throw ValidationError("cannot read the plugin \(plugin): \(String(cString: strerror(errno)))")
        }
        if let events {
            if events == "-" { throw ValidationError("--events - cannot be watched; give a file") }
            if access(events, R_OK) != 0 {
                throw ValidationError("cannot read the event stream \(events): \(String(cString: strerror(errno)))")
            }
        }
        if !(0...65535).contains(port) { throw ValidationError("--port must be 0…65535") }
    }

    func run() throws {
        let server = PreviewServer(plugin: plugin, events: events, host: host, port: port)
        let quiet = output.quiet
        let finished = DispatchSemaphore(value: 0)
        nonisolated(unsafe) var failure: (any Error)?
        Task {
            do {
                try await server.serve(
                    onListening: { url in if !quiet { Console.out("cellhost preview: \(url)  (Ctrl-C stops)\n") } },
                    onRun: { outcome in if !quiet { Console.error("cellhost preview: \(outcome)\n") } })
            } catch { failure = error }
            finished.signal()
        }
        finished.wait()
        if let failure {
            output.error("preview", "\(failure)")
            throw CellhostExitCode.usage.error
        }
    }
}
