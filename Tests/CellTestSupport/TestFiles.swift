import Glibc

/// Writes `contents` to `path`, replacing it: tests make stream files, sources and deliberately
/// malformed libraries this way.
public func writeFile(_ contents: String, to path: String) {
    guard let file = fopen(path, "w") else { fatalError("cannot write \(path): \(String(cString: strerror(errno)))") }
    fputs(contents, file)
    fclose(file)
}
