import CellProcess
import Glibc

/// Runs a command line as an author types it: `/bin/sh -c` inside a folder, with the build
/// folder first on PATH so `cellhost` is the tool under test. End-to-end tests of what the docs
/// and the SDK tell authors to type go through here.
public enum Shell {
    /// How a command ended: its exit status (nil when it did not exit: killed or timed out, and
    /// then `error` says so), and what it printed on each stream.
    public struct Outcome: Sendable {
        public var status: Int32?
        public var output: String
        public var error: String
    }

    /// `path` replaces PATH (default: the build folder, then the inherited PATH); `environment`
    /// adds variables.
    public static func run(_ script: String, in directory: String, seconds: Double = 300, path: String? = nil,
                           environment: [String: String] = [:]) throws -> Outcome {
        let inherited = getenv("PATH").map { String(cString: $0) } ?? "/usr/bin:/bin"
        var variables = environment
        variables["PATH"] = path ?? "\(BuiltProducts.buildDirectory):\(inherited)"
        let result = try WorkerProcess(executable: "/bin/sh", arguments: ["-c", "cd '\(directory)' && \(script)"],
                                       environment: variables)
            .run(limits: WorkerLimits(totalSeconds: seconds, outputBytes: 16 << 20)) { _ in }
        guard case .exited(let code) = result.termination else {
            return Outcome(status: nil, output: result.standardOutput, error: "\(result.termination): \(result.standardError)")
        }
        return Outcome(status: code, output: result.standardOutput, error: result.standardError)
    }
}
