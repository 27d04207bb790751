import Glibc

/// Drains a worker's three pipes: splits the channel into lines, keeps only the tail of stdout
/// and stderr (a flooding plugin must not exhaust the supervisor's memory), and counts what the
/// worker printed so flooding can be detected.
struct OutputReader {
    enum Stream { case channel, stdout, stderr }

    let limits: WorkerLimits
    private var pending: [UInt8] = []
    private var buffer = [UInt8](repeating: 0, count: 64 * 1024)
    var stdoutTail = TailBuffer(capacity: 8 * 1024)
    var stderrTail = TailBuffer(capacity: 8 * 1024)
    /// Bytes written to stdout + stderr so far.
    private(set) var captured = 0

    init(limits: WorkerLimits) { self.limits = limits }

    /// Reads what is available on `fd`; false at end of file.
    mutating func read(_ fd: Int32, _ stream: Stream, onLine: (String) -> Void) -> Bool {
        let n = buffer.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
        if n < 0 { return errno == EINTR || errno == EAGAIN }
        if n == 0 { return false }
        let chunk = buffer[0..<n]
        switch stream {
        case .channel:
            var start = pending.count
            pending.append(contentsOf: chunk)
            var lineStart = 0
            while let nl = pending[start...].firstIndex(of: 0x0A) {
                onLine(String(decoding: pending[lineStart..<nl], as: UTF8.self))
                lineStart = nl + 1
                start = lineStart
            }
            pending.removeFirst(lineStart)
        case .stdout:
            captured += n
            stdoutTail.append(chunk)
        case .stderr:
            captured += n
            stderrTail.append(chunk)
        }
        return true
    }

    /// Delivers a last line the worker wrote without a newline before it ended.
    mutating func flushChannel(_ onLine: (String) -> Void) {
        if !pending.isEmpty { onLine(String(decoding: pending, as: UTF8.self)) }
        pending.removeAll()
    }
}

/// The last `capacity` bytes of a stream.
struct TailBuffer {
    let capacity: Int
    private var bytes: [UInt8] = []
    private(set) var dropped = 0

    init(capacity: Int) { self.capacity = capacity }

    mutating func append(_ chunk: ArraySlice<UInt8>) {
        bytes.append(contentsOf: chunk)
        if bytes.count > 2 * capacity {
            let excess = bytes.count - capacity
            dropped += excess
            bytes.removeFirst(excess)
        }
    }

    var text: String {
        let kept = bytes.suffix(capacity)
        let skipped = dropped + (bytes.count - kept.count)
        let body = String(decoding: kept, as: UTF8.self)
        return skipped > 0 ? "[… \(skipped) earlier bytes not kept]\n" + body : body
    }
}
