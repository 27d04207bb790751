import ArgumentParser
import CellIO

/// `--quiet`, and where a subcommand's words go: results to stdout, notes (progress, where files
/// were written) to stderr, errors to stderr. Invariant: with `--quiet` only errors are printed;
/// the exit code and the files asked for still tell the outcome.
struct OutputOptions: ParsableArguments {
    @Flag(help: "Print nothing but errors.")
    var quiet = false

    func result(_ text: String) { if !quiet { Console.out(text) } }
    func note(_ text: String) { if !quiet { Console.error(text) } }
    /// Always printed: one line naming the subcommand, then the message.
    func error(_ subcommand: String, _ message: String) { Console.error("cellhost \(subcommand): \(message)\n") }
}

/// `--timeout`: how long a plugin may go without answering before it is stopped. Each subcommand
/// says in its discussion what one step is (loading, an event, a call) and what the default is.
struct TimeoutOption: ParsableArguments {
    @Option(help: ArgumentHelp("Seconds a plugin may spend on one step (loading, an event, a call) before it is stopped.",
                               valueName: "seconds"))
    var timeout: Double?

    func validate() throws {
        if let timeout, !(timeout > 0) { throw ValidationError("--timeout must be a positive number of seconds") }
    }
}

/// The plugin a subcommand examines.
struct PluginArgument: ParsableArguments {
    @Argument(help: "The plugin library (.so).")
    var path: String
}

/// `--json`: the report as one JSON document on stdout, for scripts; its schema is named in the
/// subcommand's help and published in SDK/schema.
struct JSONOption: ParsableArguments {
    @Flag(help: "Print the report as JSON instead of text.")
    var json = false
}
