@testable import CellRender
import Testing

@Suite struct RecentItemsTests {
    @Test func keepsUpToItsLimitAndReplacesTheOldestFirst() {
        var recent = RecentItems<Int>(limit: 3)
        for value in 1...3 { recent.remember(value) }
        #expect(recent.entries == [1, 2, 3])
        recent.remember(4)
        recent.remember(5)
        #expect(recent.entries == [4, 5, 3])
        recent.remember(6)
        recent.remember(7)
        #expect(recent.entries == [7, 5, 6])
    }

    @Test func startsOverFromTheFirstSlotAfterRemoveAll() {
        var recent = RecentItems<Int>(limit: 2)
        for value in 1...3 { recent.remember(value) }
        #expect(recent.entries == [3, 2])
        recent.removeAll()
        #expect(recent.entries.isEmpty)
        for value in 10...12 { recent.remember(value) }
        #expect(recent.entries == [12, 11])
    }
}
