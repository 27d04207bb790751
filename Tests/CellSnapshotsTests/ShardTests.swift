import CellSnapshots
import Testing

@Suite struct ShardTests {
    @Test func everyCaptureFallsInExactlyOneShard() throws {
        let ids = (0..<200).map { "Tests/cellhost/list.jsonl#capture\($0)" }
        let shards = try (1...4).map { try Shard(index: $0, count: 4) }
        for id in ids { #expect(shards.filter { $0.includes(id) }.count == 1, "\(id)") }
        // Stable split: no shard is left empty by a hash that ignores the id.
        for shard in shards { #expect(ids.contains(where: shard.includes), "shard \(shard) got nothing") }
    }

    @Test func aCapturesShardDependsOnItsIDNotItsPosition() throws {
        let shard = try Shard(parsing: "2/3")
        let id = "Tests/cellhost/badge.jsonl#selected.dark"
        let before = shard.includes(id)
        // The same id answers the same however many others there are, and in every process.
        #expect(shard.includes(id) == before)
        #expect(try Shard(parsing: "1/1").includes(id))
    }

    @Test(arguments: ["3/2", "0/2", "2", "a/b", "1/0", "-1/3", "1/2/3"])
    func badShardsAreRefusedWithTheirText(_ text: String) {
        #expect(throws: SnapshotError.self) { try Shard(parsing: text) }
        do { _ = try Shard(parsing: text) } catch { #expect(error.description.contains("--shard")) }
    }
}
