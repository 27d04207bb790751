import Glibc
import Synchronization

/// How the host's own output files are told from a plugin's writes in a sandboxed worker: the
/// host opens, renames and removes them with the `*at` calls on this descriptor and an absolute path (the kernel ignores the
/// folder then, so the descriptor is only a mark), and the worker's notification filter lets
/// calls on it through without asking the supervisor, so writing a frame costs no round trip.
/// Landlock still confines those writes to the output folder. AT_FDCWD until the worker sets it.
public enum HostWriteMark {
    private static let descriptor = Atomic<Int32>(AT_FDCWD)

    /// Set once, before the sandbox is entered and before any thread starts.
    public static func set(_ fd: Int32) { descriptor.store(fd, ordering: .relaxed) }

    /// `open(path, flags, mode)` as the host's own output write.
    public static func open(_ path: String, _ flags: Int32, _ mode: mode_t = 0) -> Int32 {
        let mark = path.hasPrefix("/") ? descriptor.load(ordering: .relaxed) : AT_FDCWD
        return openat(mark, path, flags, mode)
    }

    /// `rename(from, to)` as the host putting an output file in place.
    @discardableResult
    public static func rename(_ from: String, _ to: String) -> Int32 {
        let mark = from.hasPrefix("/") && to.hasPrefix("/") ? descriptor.load(ordering: .relaxed) : AT_FDCWD
        return renameat(mark, from, mark, to)
    }

    /// `unlink(path)` as the host removing an output file of its own.
    @discardableResult
    public static func remove(_ path: String) -> Int32 {
        let mark = path.hasPrefix("/") ? descriptor.load(ordering: .relaxed) : AT_FDCWD
        return unlinkat(mark, path, 0)
    }

    /// `mkdir(path, mode)` as the host making an output folder.
    public static func makeFolder(_ path: String, _ mode: mode_t) -> Int32 {
        let mark = path.hasPrefix("/") ? descriptor.load(ordering: .relaxed) : AT_FDCWD
        return mkdirat(mark, path, mode)
    }
}
