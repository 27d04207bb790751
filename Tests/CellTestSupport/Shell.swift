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

    public static func run(_ script: String, in directory: String, seconds: Double = 300) throws -> Outcome {
        let inherited = getenv("PATH").map { String(cString: $0) } ?? "/usr/bin:/bin"
        let result = try WorkerProcess(executable: "/bin/sh", arguments: ["-c", "cd '\(directory)' && \(script)"],
                                       environment: ["PATH": "\(BuiltProducts.buildDirectory):\(inherited)"])
            .run(limits: WorkerLimits(totalSeconds: seconds)) { _ in }
        guard case .exited(let code) = result.termination else {
            return Outcome(status: nil, output: result.standardOutput, error: "\(result.termination): \(result.standardError)")
        }
        return Outcome(status: code, output: result.standardOutput, error: result.standardError)
    }
}
