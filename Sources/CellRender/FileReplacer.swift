import CFileExchange
import Glibc

/// Puts a sequence of files in place, each written to a hidden partial file next to its path
/// (`PNGFrameWriter.partialName(for:)`) and moved over the path only once complete, so a reader
/// never sees half a file.
///
/// A file it replaces (an earlier run's frame) is not freed but swapped out with Linux's
/// `RENAME_EXCHANGE` and written over as the next file's partial file: on ext4, writing a new
/// file and renaming it over the one it replaces (which frees that one) cost about 260 µs for a
/// 90 KB frame, writing into a kept file and exchanging it about 25 µs (BENCHMARKS.md, change 34). A replaced file is kept only when it is a regular file this user
/// owns and may write, with no other link, so a frame hard-linked elsewhere keeps its bytes
/// there; what is not kept is removed, as a plain rename over it would. One file is kept at a
/// time, under the partial name of the file it was swapped out for, until the next file takes
/// it or `discardSpare()` removes it. Not thread-safe.
final class FileReplacer {
    /// The replaced file waiting to be written over, by its partial name.
    private var spare: String?

    deinit { discardSpare() }

    /// Writes `pieces` in order as the file at `path` (its partial file first).
    func write(_ pieces: inout [iovec], to path: String) throws(PNGError) {
        let temporary = PNGFrameWriter.partialName(for: path)
        var fd = takeSpare(as: temporary)
        let reused = fd >= 0
        if !reused { fd = open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644) }
        guard fd >= 0 else {
            throw PNGError(path: path, reason: "cannot create \(temporary): \(errorText())")
        }
        let length = pieces.reduce(0) { $0 + $1.iov_len }
        var failure = writeAll(fd, &pieces)
        // A kept file may be longer than this one.
        if failure == nil, reused, ftruncate(fd, off_t(length)) != 0 { failure = "cannot finish writing: \(errorText())" }
        if close(fd) != 0, failure == nil { failure = "cannot finish writing: \(errorText())" }
        if let failure {
            unlink(temporary)
            throw PNGError(path: path, reason: failure)
        }
        var status = stat()
        if lstat(path, &status) == 0, status.st_mode & S_IFMT == S_IFREG, cellhost_exchange_paths(temporary, path) == 0 {
            if isReusable(temporary) { spare = temporary } else { unlink(temporary) }
            return
        }
        // No file there yet, something other than a regular file, or a file system that cannot exchange.
        guard rename(temporary, path) == 0 else {
            let reason = errorText()
            unlink(temporary)
            throw PNGError(path: path, reason: "cannot rename finished PNG into place: \(reason)")
        }
    }

    /// Removes the kept file, if any.
    func discardSpare() {
        if let spare { unlink(spare) }
        spare = nil
    }

    /// The kept file, moved to `temporary` and opened for writing; -1 when there is none or it
    /// cannot be used (it is removed then).
    private func takeSpare(as temporary: String) -> Int32 {
        guard let kept = spare else { return -1 }
        spare = nil
        guard kept == temporary || rename(kept, temporary) == 0 else {
            unlink(kept)
            return -1
        }
        let fd = open(temporary, O_WRONLY | O_CLOEXEC | O_NOFOLLOW)
        if fd < 0 { unlink(temporary) }
        return fd
    }

    /// Whether the file at `path` may be written over: regular, this user's, writable by its
    /// owner, and linked nowhere else.
    private func isReusable(_ path: String) -> Bool {
        var status = stat()
        return lstat(path, &status) == 0 && status.st_mode & S_IFMT == S_IFREG && status.st_nlink == 1
            && status.st_uid == geteuid() && status.st_mode & S_IWUSR != 0
    }
}

private func errorText() -> String { String(cString: strerror(errno)) }

/// `writev` until every piece is written (short writes resumed); a failure reason or nil.
private func writeAll(_ fd: Int32, _ pieces: inout [iovec]) -> String? {
    var first = 0
    while first < pieces.count {
        let batch = min(pieces.count - first, 1024)
        let written = pieces.withUnsafeMutableBufferPointer { writev(fd, $0.baseAddress! + first, Int32(batch)) }
        if written < 0 {
            if errno == EINTR { continue }
            return "cannot write: \(errorText())"
        }
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
    return nil
}
