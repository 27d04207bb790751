import Testing
@testable import CellKit

@Suite struct ListViewTests {
    let measurer = FixedAdvanceTextMeasurer()

    func makeList(items: Int, appearance: ListAppearance = .plain, viewport: Double = 440) -> ListView {
        ListView.itemsWithHeader(items, appearance: appearance, viewport: viewport, measurer: measurer)
    }

    @Test func onlyVisibleRowsHaveLiveViews() {
        let list = makeList(items: 1000)
        let change = list.layoutVisibleRows()
        #expect(list.liveCells.count + list.liveHeaderFooters.count == list.visibleRows.count)
        #expect(list.liveCells.count < 15)
        #expect(change.entered.allSatisfy { !$0.reused })
        // Self-sized rows: a one-line cell is the 44-point minimum row height.
        #expect(list.layout.frame(of: .item(ListIndexPath(section: 0, item: 0)))!.height == 44)
    }

    @Test func scrolledAwayViewsServeTheRowsScrollingIn() throws {
        let list = makeList(items: 1000)
        list.layoutVisibleRows()
        let created = list.createdViewCount
        let cellsBefore = list.liveCells.count
        let firstCell = try #require(list.liveCells[ListIndexPath(section: 0, item: 0)])
        let firstView = try #require(firstCell.contentView)
        list.contentOffset = 2000
        let change = list.layoutVisibleRows()
        #expect(!change.left.isEmpty && change.entered.contains { $0.reused })
        #expect(list.liveCells[ListIndexPath(section: 0, item: 0)] == nil)
        // Cells and their content views were reused, not created.
        #expect(list.createdViewCount - created == max(0, list.liveCells.count - cellsBefore))
        #expect(list.liveCells.values.contains { $0 === firstCell })
        #expect(firstCell.contentView === firstView)
        let shown = firstCell.contentConfiguration as? ListContentConfiguration
        #expect(shown?.text != "Item 0")
    }

    @Test func aMillionItemsNeedOnlyTheVisibleCells() {
        let list = makeList(items: 1_000_000, viewport: 844)
        list.contentOffset = 30_000_000
        list.layoutVisibleRows()
        #expect(list.liveCells.count <= 21)
        #expect(list.layout.contentHeight > 43_000_000)
        let paths = list.liveCells.keys.sorted()
        #expect(paths.first!.item > 600_000)
        #expect(list.createdViewCount <= 22)
    }

    @Test func measuringAllRowsGivesTheExactContentHeight() {
        let list = makeList(items: 50)
        list.measureAllRows()
        let header = list.layout.frame(of: .header(section: 0))!.height
        #expect(list.layout.contentHeight == header + 50 * 44)
        #expect(list.liveCells.isEmpty)
    }

    @Test func traitChangesReachLiveCellsAndResizeRows() throws {
        let list = makeList(items: 100)
        list.layoutVisibleRows()
        list.traits = TraitCollection(preferredContentSizeCategory: .accessibilityExtraExtraExtraLarge)
        let cell = try #require(list.liveCells[ListIndexPath(section: 0, item: 0)])
        #expect(cell.traitCollection.preferredContentSizeCategory == .accessibilityExtraExtraExtraLarge)
        #expect(cell.traitCollection.listEnvironment == .plain)
        list.layoutVisibleRows()
        #expect(list.layout.frame(of: .item(ListIndexPath(section: 0, item: 0)))!.height > 80)
    }

    @Test func insetGroupedRowsDrawInsideTheirSectionClip() throws {
        let list = makeList(items: 3, appearance: .insetGrouped)
        list.layoutVisibleRows()
        let drawing = try #require(list.draw(.item(ListIndexPath(section: 0, item: 1))))
        guard case .pushClip(let rect, let radius) = drawing.commands.first else {
            Issue.record("no clip: \(drawing.commands)"); return
        }
        #expect(radius == 10 && rect.minY == -44 && rect.height == 132 && rect.width == 350)
        #expect(drawing.commands.last == .popClip)
        #expect(list.layout.frame(of: .item(ListIndexPath(section: 0, item: 1)))!.minX == 20)
    }
}

@Suite struct ListReloadTests {
    @Test func reloadingRecyclesLiveViewsAndLaysOutTheNewShape() {
        let list = ListView(appearance: .grouped, width: 390, viewportHeight: 300,
                            sections: [ListSectionShape(itemCount: 20)], measurer: FixedAdvanceTextMeasurer(),
                            configureCell: { cell, path in
                                var content = cell.defaultContentConfiguration()
                                content.text = "Row \(path.item)"
                                cell.contentConfiguration = content
                            })
        list.layoutVisibleRows()
        let live = list.liveCells.count
        list.reload(sections: [ListSectionShape(itemCount: 2), ListSectionShape(itemCount: -3)], width: 320)
        #expect(list.liveCells.isEmpty && list.pooledViewCount == live)
        #expect(list.layout.width == 320 && list.layout.sections[1].itemCount == 0)
        let change = list.layoutVisibleRows()
        #expect(change.entered.count == 2 && change.entered.allSatisfy(\.reused))
        #expect(list.layout.frame(of: .item(ListIndexPath(section: 0, item: 1)))!.width == 320)
    }
}

extension ListView {
    /// One section of `items` rows ("Item n") under a header ("Section n"), 390 points wide.
    static func itemsWithHeader(_ items: Int, appearance: ListAppearance, viewport: Double,
                                measurer: any TextMeasuring) -> ListView {
        ListView(appearance: appearance, width: 390, viewportHeight: viewport,
                 sections: [ListSectionShape(itemCount: items, hasHeader: true)], measurer: measurer,
                 configureCell: { cell, path in
                     var content = cell.defaultContentConfiguration()
                     content.text = "Item \(path.item)"
                     cell.contentConfiguration = content
                 },
                 configureHeaderFooter: { view, section in
                     var content = view.defaultContentConfiguration()
                     content.text = "Section \(section)"
                     view.contentConfiguration = content
                 })
    }
}
