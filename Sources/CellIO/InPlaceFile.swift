import Glibc

/// A file written under its final name while it grows, for the traces: a reader may follow it as
/// the run goes on, and a process killed outright (SIGKILL, when nothing can be finished) leaves
/// it valid up to the last record it handed over, never a hidden partial file beside it.
///
/// Whatever was at the path goes first (unlinked: a file hard-linked elsewhere keeps its bytes
/// there, a symbolic link is removed rather than written through). The owner encodes records
/// into `out`, says where each ends (`recordEnded()`), and `flush()`es when it is about to wait;
/// the bytes go to the kernel only as whole records, in batches of at least `batchBytes` or at
/// a flush, so the file on disk always ends at a record boundary. A failed write ends the
/// writing and `close()` removes the file and reports it, so no file that stops short of what a
/// live process meant to write stays under the name. Not thread-safe.
public final class InPlaceFile {
    public let path: String
    /// Where the owner encodes records; its bytes go to the file at a batch's end or a flush.
    public let out: JSONByteWriter
    /// Open until closed, then -1.
    private var descriptor: Int32
    /// The errno of the first failed write; 0 while none failed.
    private var failure: Int32 = 0
    /// Bytes that make a batch worth a write of its own.
    public static let batchBytes = 64 << 10

    public init(path: String) throws(SinkError) {
        self.path = path
        HostWriteMark.remove(path)
        descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC | O_NOFOLLOW, 0o644)
        guard descriptor >= 0 else { throw SinkError("\(path): cannot create: \(errorText(errno))") }
        out = JSONByteWriter(capacity: InPlaceFile.batchBytes + InPlaceFile.batchBytes / 4)
    }

    deinit { if descriptor >= 0 { Glibc.close(descriptor) } }

    /// Marks the end of a record in `out`: a full batch goes to the file now.
    @inlinable public func recordEnded() {
        if out.count >= InPlaceFile.batchBytes { flush() }
    }

    /// Hands the records in `out` to the kernel: from here on they survive the process.
    public func flush() {
        guard out.count > 0 else { return }
        if descriptor >= 0, failure == 0 { failure = writeWhole(descriptor, out.bytes).failure }
        out.removeAll()
    }

    /// Flushes and closes the file; after a failed write the file is removed and the failure thrown.
    public func close() throws(SinkError) {
        guard descriptor >= 0 else { return }
        flush()
        var reason = failure == 0 ? nil : "cannot write: \(errorText(failure))"
        if Glibc.close(descriptor) != 0, reason == nil { reason = "cannot finish writing: \(errorText(errno))" }
        descriptor = -1
        if let reason {
            HostWriteMark.remove(path)
            throw SinkError("\(path): \(reason)")
        }
    }
}

/// Writes all of `bytes` to `descriptor`, resuming short writes and those a signal interrupted:
/// how many bytes went, and the errno that stopped it (0 when all went).
func writeWhole(_ descriptor: Int32, _ bytes: UnsafeRawBufferPointer) -> (written: Int, failure: Int32) {
    var offset = 0
    while offset < bytes.count {
        let n = Glibc.write(descriptor, bytes.baseAddress! + offset, bytes.count - offset)
        if n < 0 {
            if errno != EINTR { return (offset, errno) }
        } else {
            offset += n
        }
    }
    return (offset, 0)
}
