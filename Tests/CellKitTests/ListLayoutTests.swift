import Testing
@testable import CellKit

@Suite struct ListLayoutTests {
    @Test func prefixSumsAgreeWithPlainSums() {
        var values = (0..<200).map { Double(($0 * 37) % 11) }
        var sums = PrefixSums(values)
        for (i, v) in [(3, 40.0), (150, 0), (199, 7.5), (0, 2)] {
            sums.set(v, at: i)
            values[i] = v
        }
        for n in [0, 1, 5, 100, 200] {
            #expect(sums.sum(ofFirst: n) == values.prefix(n).reduce(0, +))
        }
        for y in stride(from: 0.0, to: values.reduce(0, +), by: 13.7) {
            let i = sums.index(containing: y)
            #expect(values.prefix(i).reduce(0, +) <= y && y < values.prefix(i + 1).reduce(0, +))
        }
        #expect(sums.index(containing: 1e9) == values.count)
    }

    @Test func rowsStackWithHeadersFootersAndSpacing() {
        var layout = ListLayout(appearance: .insetGrouped, width: 390, sections: [
            ListSectionShape(itemCount: 2, hasHeader: true),
            ListSectionShape(itemCount: 1, hasFooter: true),
        ])
        #expect(layout.slotCount == 7)
        #expect(layout.row(atSlot: 0) == .header(section: 0))
        #expect(layout.row(atSlot: 3) == nil)  // no footer in section 0
        #expect(layout.row(atSlot: 4) == nil)  // no header in section 1: spacing
        #expect(layout.row(atSlot: 6) == .footer(section: 1))
        #expect(layout.slot(of: .item(ListIndexPath(section: 1, item: 0))) == 5)
        #expect(layout.slot(of: .item(ListIndexPath(section: 1, item: 1))) == nil)
        // 38 header + 2×44 + 20 spacing + 44 + 38 footer.
        #expect(layout.contentHeight == 38 + 88 + 20 + 44 + 38)
        let second = layout.frame(of: .item(ListIndexPath(section: 0, item: 1)))!
        #expect(second == Rect(x: 20, y: 82, width: 350, height: 44))
        layout.setMeasuredHeight(60, forSlot: 1)
        #expect(layout.frame(of: .item(ListIndexPath(section: 0, item: 1)))!.minY == 98)
        #expect(layout.isMeasured(slot: 1) && !layout.isMeasured(slot: 2))
    }

    @Test func visibleRowsFollowTheViewportAndOffset() {
        let layout = ListLayout(appearance: .plain, width: 390, sections: [ListSectionShape(itemCount: 100)])
        let top = layout.visibleRows(viewportHeight: 440, contentOffset: 0)
        #expect(top == (0..<10).map { .item(ListIndexPath(section: 0, item: $0)) })
        let scrolled = layout.visibleRows(viewportHeight: 440, contentOffset: 22)
        #expect(scrolled.first == .item(ListIndexPath(section: 0, item: 0)))
        #expect(scrolled.last == .item(ListIndexPath(section: 0, item: 10)))
        #expect(layout.visibleRows(viewportHeight: 440, contentOffset: 10_000).isEmpty)
    }

    @Test func insetGroupedItemsClipToTheirSectionsRoundedShape() throws {
        let layout = ListLayout(appearance: .insetGrouped, width: 390, sections: [ListSectionShape(itemCount: 3)])
        let middle = try #require(layout.sectionClip(forSlot: 2))
        #expect(middle.rect == Rect(x: 0, y: -44, width: 350, height: 132))
        #expect(middle.cornerRadius == 10)
        #expect(ListLayout(appearance: .plain, width: 390, sections: [ListSectionShape(itemCount: 3)]).sectionClip(forSlot: 2) == nil)
    }
}
