import Glibc

/// Writing to the terminal without the C `stdout`/`stderr` globals (not concurrency-safe in
/// Swift 6): whole strings straight to descriptors 1 and 2, retried on partial writes.
public enum Console {
    public static func out(_ text: String) { write(1, text) }
    public static func error(_ text: String) { write(2, text) }

    public static var outputIsTerminal: Bool { isatty(1) == 1 }
    public static var errorIsTerminal: Bool { isatty(2) == 1 }

    private static func write(_ fd: Int32, _ text: String) {
        var text = text
        text.withUTF8 { buffer in
            var offset = 0
            while offset < buffer.count {
                let n = Glibc.write(fd, buffer.baseAddress! + offset, buffer.count - offset)
                if n < 0 { if errno == EINTR { continue }; return }
                offset += n
            }
        }
    }
}
