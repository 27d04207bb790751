import Glibc

/// A file written under a temporary name and renamed into place when committed, so a reader never
/// sees half a file — and a run that stops early still leaves complete files behind, because the
/// sinks close their JSON before committing. Writes are buffered (64 KiB) and the buffer only
/// ever goes to disk as whole `write` calls; sinks `flush()` at the end of every event, so even a
/// process killed outright (SIGKILL, when nothing can be committed) leaves a temporary file that
/// holds every complete event and ends at a record boundary.
public final class AtomicFile {
    public let path: String
    private let temporaryPath: String
    private var descriptor: Int32
    private var buffer: [UInt8] = []
    private var failure: Int32 = 0
    private static let capacity = 64 << 10

    public init(path: String) throws(SinkError) {
        self.path = path
        temporaryPath = "\(path).tmp-\(getpid())"
        descriptor = open(temporaryPath, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else {
            throw SinkError("cannot write \(path): \(String(cString: strerror(errno)))")
        }
        buffer.reserveCapacity(AtomicFile.capacity)
    }

    /// Appends `text`; callers write one whole record (or the whole head or tail of a file) a call.
    public func write(_ text: String) {
        guard descriptor >= 0 else { return }
        var text = text
        text.withUTF8 { bytes in
            if buffer.count + bytes.count > AtomicFile.capacity { flush() }
            if bytes.count >= AtomicFile.capacity { writeAll(bytes) } else { buffer.append(contentsOf: bytes) }
        }
    }

    /// Hands what is buffered to the kernel: after it, the temporary file survives a SIGKILL.
    public func flush() {
        buffer.withUnsafeBufferPointer { writeAll($0) }
        buffer.removeAll(keepingCapacity: true)
    }

    private func writeAll(_ bytes: UnsafeBufferPointer<UInt8>) {
        var offset = 0
        while offset < bytes.count && failure == 0 {
            let n = Glibc.write(descriptor, bytes.baseAddress! + offset, bytes.count - offset)
            if n < 0 {
                if errno != EINTR { failure = errno }
            } else {
                offset += n
            }
        }
    }

    /// Flushes, closes and renames into place.
    public func commit() throws(SinkError) {
        guard descriptor >= 0 else { return }
        flush()
        let closed = close(descriptor)
        descriptor = -1
        if failure == 0 && closed != 0 { failure = errno }
        if failure != 0 {
            unlink(temporaryPath)
            throw SinkError("writing \(path) failed: \(String(cString: strerror(failure)))")
        }
        guard rename(temporaryPath, path) == 0 else {
            throw SinkError("cannot move \(temporaryPath) to \(path): \(String(cString: strerror(errno)))")
        }
    }

    deinit {
        if descriptor >= 0 {
            close(descriptor)
            unlink(temporaryPath)
        }
    }
}

public struct SinkError: Error, CustomStringConvertible, Equatable {
    public var description: String
    public init(_ d: String) { description = d }
}

/// A new, empty, private directory under /tmp named `prefix-XXXXXX` (mkdtemp); nil when /tmp
/// cannot take one.
public func makeTemporaryDirectory(prefix: String) -> String? {
    var template = Array("/tmp/\(prefix)-XXXXXX".utf8CString)
    return template.withUnsafeMutableBufferPointer { mkdtemp($0.baseAddress!).map { String(cString: $0) } }
}

/// Creates `path` and its missing parents (mkdir -p).
public func makeDirectories(_ path: String) throws(SinkError) {
    var current = path.hasPrefix("/") ? "" : "."
    for component in path.split(separator: "/") {
        current += "/" + component
        if mkdir(current, 0o755) != 0 && errno != EEXIST {
            throw SinkError("cannot create directory \(current): \(String(cString: strerror(errno)))")
        }
    }
}
