import Glibc

/// The worker's end of the message channel: newline-delimited records to the supervisor.
/// Records are written whole with one `write` loop, so the supervisor never sees half a record
/// from a worker that dies between two of them.
public final class WorkerChannel: @unchecked Sendable {
    private let fd: Int32

    /// The channel the supervisor opened for this process, or nil when not run as a worker.
    public static func fromEnvironment() -> WorkerChannel? {
        guard let raw = getenv(WorkerProcess.channelEnvironmentKey), let fd = Int32(String(cString: raw)),
              fcntl(fd, F_GETFD) >= 0
        else { return nil }
        // A supervisor that has gone away must not kill the worker with SIGPIPE mid-write.
        signal(SIGPIPE, SIG_IGN)
        return WorkerChannel(descriptor: fd)
    }

    public init(descriptor: Int32) { fd = descriptor }

    /// Sends one record; a newline inside `line` would split it, so callers send single-line JSON.
    /// Returns false when the supervisor is gone.
    @discardableResult
    public func send(_ line: String) -> Bool {
        var bytes = Array(line.utf8)
        bytes.append(0x0A)
        var offset = 0
        while offset < bytes.count {
            let n = bytes.withUnsafeBytes { write(fd, $0.baseAddress! + offset, $0.count - offset) }
            if n < 0 {
                if errno == EINTR { continue }
                return false
            }
            offset += n
        }
        return true
    }
}
