import CellIO
import Glibc

/// Snapshot files appear whole or not at all (`FileReplacer`): a run stopped while recording
/// must never leave a truncated reference that the next run reads as a mismatch.
enum WholeFile {
    static func write(_ bytes: [UInt8], to path: String) throws(SnapshotError) {
        let replacer = FileReplacer()
        defer { replacer.discardSpare() }
        var bytes = bytes
        let failure: FileWriteError? = bytes.withUnsafeMutableBytes { raw in
            var pieces = [iovec(iov_base: raw.baseAddress, iov_len: raw.count)]
            do throws(FileWriteError) { try replacer.write(&pieces, to: path) } catch { return error }
            return nil
        }
        if let failure { throw SnapshotError("cannot write \(failure.description)") }
    }

    static func write(_ text: String, to path: String) throws(SnapshotError) {
        try write(Array(text.utf8), to: path)
    }

    static func exists(_ path: String) -> Bool { access(path, F_OK) == 0 }

    static func remove(_ path: String) { unlink(path) }
}
