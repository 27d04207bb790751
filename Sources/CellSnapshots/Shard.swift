/// `--shard I/N`: the captures whose id hashes to I of N. A capture's shard depends on its id
/// alone (stream path, capture name, combination), never on its position, so adding a stream
/// moves no other capture, and N machines of a CI matrix split the work with no coordinator.
public struct Shard: Sendable, Equatable, CustomStringConvertible {
    /// 1-based.
    public var index: Int
    public var count: Int

    public init(index: Int, count: Int) throws(SnapshotError) {
        guard count >= 1 else { throw SnapshotError("--shard I/N needs N ≥ 1, not \(count)") }
        guard (1...count).contains(index) else { throw SnapshotError("--shard \(index)/\(count): I must be 1…\(count)") }
        self.index = index
        self.count = count
    }

    /// Parses `I/N`, as `--shard 2/4`.
    public init(parsing text: String) throws(SnapshotError) {
        let parts = text.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 2, let i = Int(parts[0]), let n = Int(parts[1]) else {
            throw SnapshotError("--shard takes I/N (this machine's shard of N, like 2/4), not \"\(text)\"")
        }
        try self.init(index: i, count: n)
    }

    public var description: String { "\(index)/\(count)" }

    public func includes(_ captureID: String) -> Bool {
        Int(Shard.hash(captureID) % UInt64(count)) == index - 1
    }

    /// FNV-1a over the id's UTF-8: the same on every machine and every run (Swift's `Hasher` is
    /// seeded per process).
    static func hash(_ id: String) -> UInt64 {
        var h: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in id.utf8 {
            h ^= UInt64(byte)
            h = h &* 0x100_0000_01b3
        }
        return h
    }
}
