import CellIO
import Glibc

/// What `swift build` made and where the package's own files are, as every test target finds
/// them: a test bundle runs from the build directory, next to the `cellhost` tool,
/// `cellhost-bench` and the sample plugins' `.so` files.
public enum BuiltProducts {
    /// The package root, from this file's location (Tests/CellTestSupport/BuiltProducts.swift).
    public static let packageRoot: String = {
        var parts = #filePath.split(separator: "/", omittingEmptySubsequences: false)
        parts.removeLast(3)
        return parts.joined(separator: "/")
    }()

    /// The folder of the running test bundle, which is the build directory.
    public static let buildDirectory: String = {
        var buffer = [CChar](repeating: 0, count: 4096)
        let n = readlink("/proc/self/exe", &buffer, buffer.count - 1)
        let exe = String(decoding: buffer.prefix(max(0, n)).map { UInt8(bitPattern: $0) }, as: UTF8.self)
        return String(exe[..<(exe.lastIndex(of: "/") ?? exe.endIndex)])
    }()

    /// The built command-line tool.
    public static var cellhost: String { buildDirectory + "/cellhost" }

    /// The built benchmark.
    public static var bench: String { buildDirectory + "/cellhost-bench" }

    /// A sample plugin built as a loadable library: `samplePlugin("BadgeCell")` is `libBadgeCell.so`.
    public static func samplePlugin(_ product: String) -> String { "\(buildDirectory)/lib\(product).so" }

    /// A fresh folder under /tmp whose name starts with `prefix`.
    public static func temporaryDirectory(prefix: String) -> String {
        guard let directory = makeTemporaryDirectory(prefix: prefix) else {
            fatalError("cannot create a temporary folder under /tmp: \(String(cString: strerror(errno)))")
        }
        return directory
    }
}
