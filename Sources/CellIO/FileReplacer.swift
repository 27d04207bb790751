import CFileExchange
import Glibc

/// Puts files in place so that a reader never sees half a file: each is written to its partial
/// file (`partialName(for:)`: hidden, next to its path, named for this process) and moved over the
/// path only once complete. A process that dies while writing leaves the partial file behind,
/// never a partial file under the path; `partialPrefix(for:)` finds what any process left.
///
/// A file it replaces (an earlier run's frame, say) is not freed but swapped out with Linux's
/// `RENAME_EXCHANGE` and written over as the next file's partial file: writing into a file the
/// file system already holds and exchanging it avoids allocating and freeing its blocks for
/// every file of a sequence. A replaced file is kept only when it is a regular file this user
/// owns and may write, with no other link, so a file hard-linked elsewhere keeps its bytes there;
/// what is not kept is removed, as a plain rename over it would. A symbolic link or anything
/// else that is not a regular file is renamed over, never written through; a folder in the way
/// is an error and stays where it is. One file is kept at a time, under the partial name of the
/// file it was swapped out for, until the next file takes it or `discardSpare()` removes it.
/// Not thread-safe.
public final class FileReplacer {
    /// The replaced file waiting to be written over, by its partial name.
    private var spare: String?

    public init() {}

    deinit { discardSpare() }

    /// Where `path` is written until complete: `.NAME.partial-PID` next to it.
    public static func partialName(for path: String) -> String {
        partialPrefix(for: path) + "\(getpid())"
    }

    /// The start of every process's partial name for `path`.
    public static func partialPrefix(for path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "." + path + ".partial-" }
        return String(path[...slash]) + "." + path[path.index(after: slash)...] + ".partial-"
    }

    /// Opens the partial file of `path` for writing: the kept replaced file when there is one,
    /// else a new file. Put it in place with `putInPlace(_:)`; released before that, it is removed.
    public func create(_ path: String) throws(FileWriteError) -> PartialFile {
        let partialPath = FileReplacer.partialName(for: path)
        var descriptor = takeSpare(as: partialPath)
        let reused = descriptor >= 0
        if !reused { descriptor = HostWriteMark.open(partialPath, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644) }
        guard descriptor >= 0 else {
            throw FileWriteError(path: path, reason: "cannot create \(partialPath): \(errorText(errno))")
        }
        return PartialFile(path: path, partialPath: partialPath, descriptor: descriptor, reusesReplacedFile: reused)
    }

    /// Closes `file` and moves it over its path, keeping what it replaced for the next file when
    /// that may be written over. When a write failed or the move fails, the partial file is
    /// removed and whatever was at the path stays.
    public func putInPlace(_ file: PartialFile) throws(FileWriteError) {
        let descriptor = file.descriptor
        precondition(descriptor >= 0, "\(file.path) was already put in place")
        file.descriptor = -1
        var failure = file.failure == 0 ? nil : "cannot write: \(errorText(file.failure))"
        // A kept file may be longer than this one.
        if failure == nil, file.reusesReplacedFile, ftruncate(descriptor, off_t(file.length)) != 0 {
            failure = "cannot finish writing: \(errorText(errno))"
        }
        if close(descriptor) != 0, failure == nil { failure = "cannot finish writing: \(errorText(errno))" }
        if let failure {
            HostWriteMark.remove(file.partialPath)
            throw FileWriteError(path: file.path, reason: failure)
        }
        var status = stat()
        if lstat(file.path, &status) == 0, status.st_mode & S_IFMT == S_IFREG,
           cellhost_exchange_paths(file.partialPath, file.path) == 0 {
            if isReusable(file.partialPath) { spare = file.partialPath } else { HostWriteMark.remove(file.partialPath) }
            return
        }
        // No file there yet, something other than a regular file, or a file system that cannot exchange.
        guard HostWriteMark.rename(file.partialPath, file.path) == 0 else {
            let reason = errorText(errno)
            HostWriteMark.remove(file.partialPath)
            throw FileWriteError(path: file.path, reason: "cannot rename the finished file into place: \(reason)")
        }
    }

    /// Writes `pieces` in order as the file at `path`, through its partial file.
    public func write(_ pieces: inout [iovec], to path: String) throws(FileWriteError) {
        let file = try create(path)
        file.write(&pieces)
        try putInPlace(file)
    }

    /// Removes the kept file, if any.
    public func discardSpare() {
        if let spare { HostWriteMark.remove(spare) }
        spare = nil
    }

    /// The kept file, moved to `partialPath` and opened for writing; -1 when there is none or it
    /// cannot be used (it is removed then).
    private func takeSpare(as partialPath: String) -> Int32 {
        guard let kept = spare else { return -1 }
        spare = nil
        guard kept == partialPath || HostWriteMark.rename(kept, partialPath) == 0 else {
            HostWriteMark.remove(kept)
            return -1
        }
        let descriptor = HostWriteMark.open(partialPath, O_WRONLY | O_CLOEXEC | O_NOFOLLOW)
        if descriptor < 0 { HostWriteMark.remove(partialPath) }
        return descriptor
    }

    /// Whether the file at `path` may be written over: regular, this user's, writable by its
    /// owner, and linked nowhere else.
    private func isReusable(_ path: String) -> Bool {
        var status = stat()
        return lstat(path, &status) == 0 && status.st_mode & S_IFMT == S_IFREG && status.st_nlink == 1
            && status.st_uid == geteuid() && status.st_mode & S_IWUSR != 0
    }
}

/// A file that could not be written or put in place, naming the file and the reason.
public struct FileWriteError: Error, CustomStringConvertible, Equatable {
    public var path: String
    public var reason: String
    public var description: String { "\(path): \(reason)" }
}

func errorText(_ code: Int32) -> String { String(cString: strerror(code)) }
