import Glibc

/// A whole file's bytes; nil when it cannot be opened or read, or grows past `limit` bytes
/// (so a hostile path such as /dev/zero cannot exhaust memory).
public func readFileBytes(_ path: String, limit: Int = Int.max) -> [UInt8]? {
    guard let file = fopen(path, "rb") else { return nil }
    defer { fclose(file) }
    var bytes: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 1 << 16)
    while true {
        let n = fread(&buffer, 1, buffer.count, file)
        if n == 0 { break }
        bytes.append(contentsOf: buffer[0..<n])
        if bytes.count > limit { return nil }
    }
    return ferror(file) == 0 ? bytes : nil
}

/// A whole text file, decoded as UTF-8 (invalid sequences replaced); nil when it cannot be read.
public func readTextFile(_ path: String) -> String? {
    readFileBytes(path).map { String(decoding: $0, as: UTF8.self) }
}
