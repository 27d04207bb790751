import Testing
import CellKit

/// Working lists are emptied between events and refilled in the storage they already have.
@Suite struct ArrayEmptyingTests {
    @Test(arguments: [0, 1, 2, 17])
    func emptyingKeepsTheStorage(count: Int) {
        var list = (0..<count).map { "element \($0) with heap storage" }
        list.reserveCapacity(32)
        let capacity = list.capacity
        list.removeAllKeepingStorage()
        #expect(list.isEmpty)
        #expect(list.capacity == capacity)
        list.append("again")
        #expect(list == ["again"])
    }

    /// A list handed out and dropped is refilled in the same storage; one still held is left as
    /// it was, and the refill gets storage of its own.
    @Test func refillingReusesOnlyStorageNobodyHolds() {
        var kept: [String] = []
        func fill(_ words: [String]) -> [String] {
            var list = kept.takeForRefill()
            list += words
            kept = list
            return list
        }
        // Storage that held twenty elements, refilled with one, still has room for twenty.
        _ = fill((0..<20).map { "element \($0) with heap storage" })
        let refilledAfterDrop = fill(["c"])
        #expect(refilledAfterDrop == ["c"])
        #expect(refilledAfterDrop.capacity >= 20)
        let held = fill(["d", "e"])
        let refilled = fill(["f"])
        #expect(held == ["d", "e"])
        #expect(refilled == ["f"])
    }
}
