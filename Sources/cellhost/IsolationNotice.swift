import CellIO
import CellProcess

/// One line on stderr when plugins run with less isolation than the worker sandbox gives:
/// printed even with `--quiet`, because it changes what a plugin can do to the machine, and
/// `--quiet` hides only what does not.
enum IsolationNotice {
    static func print(_ subcommand: String, inProcess: Bool = false, sandboxed: Bool = true) {
        let line: String? = if inProcess {
            "--in-process: plugins run inside cellhost itself, without the worker's sandbox, memory limit or crash isolation"
        } else if !sandboxed {
            "--no-sandbox: plugins run in the worker without its sandbox (any file, socket, process or signal) or memory limit"
        } else {
            WorkerSandbox.weakerIsolation
        }
        if let line { Console.error("cellhost \(subcommand): \(line)\n") }
    }
}
