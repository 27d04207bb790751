import Glibc

/// A file being written under its partial name (`FileReplacer.partialName(for:)`), put in place
/// by the `FileReplacer` that created it. Every write is handed to the kernel whole (short
/// writes resumed), so the partial file a killed process leaves ends where a write ended. After
/// a failed write the rest are skipped and `putInPlace` reports the failure. Released without
/// being put in place, the file is closed and removed.
public final class PartialFile {
    /// Where the file goes once complete.
    public let path: String
    /// Where it is written until then.
    public let partialPath: String
    /// Open for writing until put in place, then -1.
    var descriptor: Int32
    /// Whether this is a replaced file written over, which may hold more bytes than are written now.
    let reusesReplacedFile: Bool
    /// Bytes written so far.
    public private(set) var length = 0
    /// The errno of the first failed write; 0 while none failed.
    private(set) var failure: Int32 = 0

    init(path: String, partialPath: String, descriptor: Int32, reusesReplacedFile: Bool) {
        self.path = path
        self.partialPath = partialPath
        self.descriptor = descriptor
        self.reusesReplacedFile = reusesReplacedFile
    }

    deinit {
        if descriptor >= 0 {
            close(descriptor)
            HostWriteMark.remove(partialPath)
        }
    }

    /// Appends `bytes`.
    public func write(_ bytes: UnsafeRawBufferPointer) {
        guard failure == 0, descriptor >= 0 else { return }
        let result = writeWhole(descriptor, bytes)
        failure = result.failure
        length += result.written
    }

    /// Appends `pieces` in order with gathered writes; the pieces are consumed (left pointing at
    /// what was not written).
    public func write(_ pieces: inout [iovec]) {
        var first = 0
        while first < pieces.count && failure == 0 && descriptor >= 0 {
            let batch = min(pieces.count - first, 1024)  // Linux's IOV_MAX: more pieces a call are refused
            let written = pieces.withUnsafeMutableBufferPointer { writev(descriptor, $0.baseAddress! + first, Int32(batch)) }
            if written < 0 {
                if errno != EINTR { failure = errno }
                continue
            }
            length += written
            var remaining = written
            while first < pieces.count && remaining >= pieces[first].iov_len {
                remaining -= pieces[first].iov_len
                first += 1
            }
            if remaining > 0 {
                pieces[first].iov_base = pieces[first].iov_base! + remaining
                pieces[first].iov_len -= remaining
            }
        }
    }
}
