#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// A file written under a temporary name and renamed into place when committed, so a reader never
/// sees half a file — and a run that stops early still leaves complete files behind, because the
/// sinks close their JSON before committing. Writes are buffered (stdio, 256 KiB).
public final class AtomicFile {
    public let path: String
    private let temporaryPath: String
    private var file: UnsafeMutablePointer<FILE>?

    public init(path: String) throws(SinkError) {
        self.path = path
        temporaryPath = "\(path).tmp-\(getpid())"
        guard let f = fopen(temporaryPath, "w") else {
            throw SinkError("cannot write \(path): \(String(cString: strerror(errno)))")
        }
        setvbuf(f, nil, _IOFBF, 256 << 10)
        file = f
    }

    public func write(_ text: String) {
        guard let file else { return }
        var text = text
        text.withUTF8 { _ = fwrite($0.baseAddress, 1, $0.count, file) }
    }

    /// Flushes, closes and renames into place.
    public func commit() throws(SinkError) {
        guard let f = file else { return }
        file = nil
        let failed = fflush(f) != 0 || ferror(f) != 0
        fclose(f)
        if failed {
            unlink(temporaryPath)
            throw SinkError("writing \(path) failed: \(String(cString: strerror(errno)))")
        }
        guard rename(temporaryPath, path) == 0 else {
            throw SinkError("cannot move \(temporaryPath) to \(path): \(String(cString: strerror(errno)))")
        }
    }

    deinit {
        if let f = file {
            fclose(f)
            unlink(temporaryPath)
        }
    }
}

public struct SinkError: Error, CustomStringConvertible, Equatable {
    public var description: String
    public init(_ d: String) { description = d }
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
