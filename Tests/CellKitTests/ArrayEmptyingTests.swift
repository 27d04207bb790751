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
}
