import CellIO
import Glibc

/// Which streams `cellhost test` runs: every `*.jsonl` under the paths given (a file is taken
/// as it is), or without paths `Tests/cellhost/` when it exists, else the current folder's
/// `*.cellhost.jsonl`. Reference folders (`__Snapshots__`) are never searched. Sorted, so
/// the run and its report come out in the same order everywhere.
public enum StreamDiscovery {
    public static let defaultFolder = "Tests/cellhost"
    public static let snapshotsFolder = "__Snapshots__"

    public static func streams(in paths: [String]) throws(SnapshotError) -> [String] {
        var found: [String] = []
        if paths.isEmpty {
            if isDirectory(defaultFolder) {
                found = jsonlFiles(under: defaultFolder)
            } else {
                found = (directoryEntries(".") ?? []).filter { $0.hasSuffix(".cellhost.jsonl") }.sorted()
            }
            guard !found.isEmpty else {
                throw SnapshotError("no streams to test: \(defaultFolder)/ does not exist and the current folder has no *.cellhost.jsonl")
            }
            return found
        }
        for path in paths {
            if isDirectory(path) {
                let streams = jsonlFiles(under: path)
                guard !streams.isEmpty else { throw SnapshotError("\(path): no *.jsonl streams in this folder") }
                found += streams
            } else if access(path, R_OK) == 0 {
                found.append(path)
            } else {
                throw SnapshotError("cannot read \(path): \(String(cString: strerror(errno)))")
            }
        }
        var seen = Set<String>()
        return found.filter { seen.insert($0).inserted }
    }

    static func jsonlFiles(under folder: String) -> [String] {
        var result: [String] = []
        let base = folder.hasSuffix("/") ? String(folder.dropLast()) : folder
        for entry in (directoryEntries(base) ?? []).sorted() where !entry.hasPrefix(".") && entry != snapshotsFolder {
            let path = base + "/" + entry
            if isDirectory(path) { result += jsonlFiles(under: path) } else if entry.hasSuffix(".jsonl") { result.append(path) }
        }
        return result
    }

    static func isDirectory(_ path: String) -> Bool {
        var info = stat()
        return stat(path, &info) == 0 && (info.st_mode & S_IFMT) == S_IFDIR
    }
}
