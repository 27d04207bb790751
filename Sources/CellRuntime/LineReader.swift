import Glibc

/// Reads a file or standard input one line at a time, returning each line as soon as it is
/// complete, so a stream piped into `cellhost run --events -` is processed while it is written.
public final class LineReader {
    private let file: UnsafeMutablePointer<FILE>
    private let ownsFile: Bool
    private var buffer: UnsafeMutablePointer<CChar>?
    private var capacity = 0

    /// `path` "-" reads standard input.
    public init(path: String) throws(EventStreamError) {
        if path == "-" {
            // A stream of its own on descriptor 0 (the C `stdin` global is not concurrency-safe).
            guard let f = fdopen(dup(0), "r") else {
                throw EventStreamError(source: "<stdin>", line: 0, message: "cannot read standard input: \(String(cString: strerror(errno)))")
            }
            file = f
            ownsFile = true
        } else {
            guard let f = fopen(path, "r") else {
                throw EventStreamError(source: path, line: 0, message: "cannot open the event stream: \(String(cString: strerror(errno)))")
            }
            file = f
            ownsFile = true
        }
    }

    /// The next line's bytes without its newline, or nil at the end: valid until the next call,
    /// so a long stream is read without a string per line (`EventStreamParser.parse(line:…)`
    /// takes bytes and reads bytes that are not UTF-8 as a string would).
    public func nextLineBytes() -> UnsafeBufferPointer<UInt8>? {
        let n = getline(&buffer, &capacity, file)
        guard n >= 0, let buffer else { return nil }
        var length = n
        if length > 0 && buffer[length - 1] == 0x0A { length -= 1 }
        return UnsafeBufferPointer(start: UnsafeRawPointer(buffer).assumingMemoryBound(to: UInt8.self), count: length)
    }

    deinit {
        free(buffer)
        if ownsFile { fclose(file) }
    }
}
