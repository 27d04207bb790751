import Glibc

/// What says a file changed: its inode, size and modification time. An editor or linker that
/// writes a new file and renames it over the old one changes the inode even when size and time
/// agree; one that writes in place changes the size or the time.
public struct FileStamp: Sendable, Equatable {
    var inode: UInt64
    var size: Int64
    var modifiedSeconds: Int
    var modifiedNanoseconds: Int

    /// The file's stamp now; nil when it is missing (mid-rename) or unreadable.
    public init?(path: String) {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        inode = UInt64(info.st_ino)
        size = Int64(info.st_size)
        modifiedSeconds = info.st_mtim.tv_sec
        modifiedNanoseconds = info.st_mtim.tv_nsec
    }
}

/// The stamps of the files a preview watches, compared as one.
public struct WatchedFiles: Sendable, Equatable {
    public var stamps: [FileStamp?]

    public init(paths: [String]) { stamps = paths.map { FileStamp(path: $0) } }
}
