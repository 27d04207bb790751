import Glibc

/// A file written in records and put in place when committed, through `FileReplacer` (its
/// partial file, hidden next to it, is renamed over the path only once complete), so a reader
/// never sees half a file: the report page, a validate report, JUnit XML. (The traces grow in
/// place instead, `InPlaceFile`.) Writes are buffered (64 KiB) and the buffer only ever goes to
/// disk as whole `write` calls, so after a `flush()` the partial file ends at a record boundary.
public final class AtomicFile {
    public let path: String
    private let replacer = FileReplacer()
    /// Open until committed.
    private var file: PartialFile?
    private var buffer: [UInt8] = []
    private static let capacity = 64 << 10

    public init(path: String) throws(SinkError) {
        self.path = path
        do throws(FileWriteError) { file = try replacer.create(path) } catch { throw SinkError(error.description) }
        buffer.reserveCapacity(AtomicFile.capacity)
    }

    /// Appends `text`; callers write one whole record (or the whole head or tail of a file) a call.
    public func write(_ text: String) {
        var text = text
        text.withUTF8 { write(UnsafeRawBufferPointer($0)) }
    }

    /// Appends `bytes`, one whole record (or the whole head or tail of a file).
    public func write(_ bytes: UnsafeRawBufferPointer) {
        guard let file else { return }
        if buffer.count + bytes.count > AtomicFile.capacity { flush() }
        if bytes.count >= AtomicFile.capacity { file.write(bytes) } else { buffer.append(contentsOf: bytes) }
    }

    /// Hands what is buffered to the kernel: after it, the partial file survives a SIGKILL.
    public func flush() {
        if let file { buffer.withUnsafeBytes { file.write($0) } }
        buffer.removeAll(keepingCapacity: true)
    }

    /// Flushes, closes and puts the file in place; what it replaced is removed.
    public func commit() throws(SinkError) {
        guard let file else { return }
        flush()
        self.file = nil
        defer { replacer.discardSpare() }
        do throws(FileWriteError) { try replacer.putInPlace(file) } catch { throw SinkError(error.description) }
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
        if HostWriteMark.makeFolder(current, 0o755) != 0 && errno != EEXIST {
            throw SinkError("cannot create directory \(current): \(String(cString: strerror(errno)))")
        }
    }
}
