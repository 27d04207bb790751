import CellProcess
import Glibc

/// The validation worker's fd 1, turned into a pipe the worker reads itself. The worker speaks
/// to its supervisor over the channel alone, so whatever arrives here was written by the
/// plugin, into a descriptor it does not own; reading it between steps tells which call wrote.
/// Both ends are non-blocking, so a plugin that writes more than the pipe holds gets EAGAIN
/// instead of hanging, and the worker never waits to read.
final class StandardOutputWatch {
    private let readEnd: Int32

    /// Replaces fd 1 with the pipe, and makes stdio's stdout unbuffered so a plugin's `printf`
    /// arrives during the call that made it. Nil when the pipe cannot be made (fd 1 is left alone).
    init?() {
        var ends: [Int32] = [-1, -1]
        guard pipe(&ends) == 0 else { return nil }
        for end in ends { _ = fcntl(end, F_SETFL, fcntl(end, F_GETFL) | O_NONBLOCK) }
        _ = fcntl(ends[0], F_SETFD, FD_CLOEXEC)
        fflush(nil)
        guard dup2(ends[1], STDOUT_FILENO) >= 0 else {
            close(ends[0]); close(ends[1])
            return nil
        }
        close(ends[1])
        if let stream = Self.stdioStandardOutput() { setvbuf(stream, nil, _IONBF, 0) }
        readEnd = ends[0]
    }

    /// stdio's `stdout` stream, looked up by name: Swift 6 refuses to name the C global, which
    /// is not concurrency-safe. This runs once, before the check starts any thread.
    private static func stdioStandardOutput() -> UnsafeMutablePointer<FILE>? {
        dlsym(nil, "stdout")?.load(as: UnsafeMutablePointer<FILE>?.self)
    }

    deinit { close(readEnd) }

    /// What was written since the last call, quoted as the channel's faults are (escaped,
    /// bounded), or nil when nothing was.
    func take() -> String? {
        var written: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let n = read(readEnd, &buffer, buffer.count)
            guard n > 0 else { break }
            written += buffer.prefix(n)
        }
        return written.isEmpty ? nil : ChannelFrame.quoted(written)
    }
}
