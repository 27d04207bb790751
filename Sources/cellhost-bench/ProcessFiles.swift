import CellIO
import CellRuntime
import Glibc

/// Whole-file copies for fresh plugin paths (dlopen maps a path once per process).
enum FileCopy {
    static func read(_ path: String) throws -> [UInt8] {
        guard let bytes = readFileBytes(path) else { throw BenchError("cannot read \(path)") }
        return bytes
    }

    static func write(_ bytes: [UInt8], to path: String) throws {
        guard let f = fopen(path, "wb") else { throw BenchError("cannot create \(path)") }
        defer { fclose(f) }
        guard fwrite(bytes, 1, bytes.count, f) == bytes.count else { throw BenchError("cannot write \(path)") }
    }
}

/// This process's resident set, as the kernel reports it.
enum ResidentMemory {
    static func currentKB() throws -> Int {
        let text = String(decoding: try FileCopy.read("/proc/self/status"), as: UTF8.self)
        for line in text.split(separator: "\n") where line.hasPrefix("VmRSS:") {
            if let kb = Int(line.split(separator: " ", omittingEmptySubsequences: true).dropFirst().first ?? "") { return kb }
        }
        throw BenchError("/proc/self/status has no VmRSS line")
    }
}

/// This executable's path, so the memory figure can start it again as a child.
enum Executable {
    static func path() -> String {
        var buffer = [CChar](repeating: 0, count: 4097)
        let n = readlink("/proc/self/exe", &buffer, 4096)
        guard n > 0 else { return CommandLine.arguments.first ?? "cellhost-bench" }
        return String(decoding: buffer[0..<n].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
