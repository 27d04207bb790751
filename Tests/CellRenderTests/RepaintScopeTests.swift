import CellKit
import Foundation
import Testing
@testable import CellRender

/// How much of a frame a change repaints, which long event streams depend on: a full 1170×2532
/// frame of 16 cells rasters every cell, a frame where one cell changed rasters that cell and a
/// small part of the pixels, and the full frame still encodes as PNG. The work done is asserted,
/// never the clock: timings are `cellhost-bench` figures.
@Suite struct RepaintScopeTests {
    static let viewport = Size(width: 390, height: 844)

    private func makeList(highlighting highlighted: Int?) -> (ListView, Compositor) {
        let items = (0..<16).map { "Message \($0): a row with some text" }
        let list = ListView(appearance: .insetGrouped, width: Self.viewport.width, viewportHeight: Self.viewport.height,
                            sections: [ListSectionShape(itemCount: items.count)], measurer: Fixtures.engine,
                            configureCell: { cell, path in
                                var content = cell.defaultContentConfiguration()
                                content.text = items[path.item]
                                content.secondaryText = nil
                                content.image = Image(systemName: ["envelope", "star.fill", "folder", "trash"][path.item % 4])
                                cell.contentConfiguration = content
                                cell.isHighlighted = path.item == highlighted
                            })
        list.measureAllRows()
        list.layoutVisibleRows()
        let compositor = Compositor(viewport: Self.viewport, scale: 3, background: .systemGroupedBackground,
                                    textEngine: Fixtures.engine)
        return (list, compositor)
    }

    private func place(_ list: ListView, into compositor: Compositor) -> Int {
        var count = 0
        for row in list.visibleRows {
            guard case .item(let path) = row, let frame = list.layout.frame(of: row), let content = list.draw(row) else { continue }
            compositor.setLayer(path.item, frame: frame, content: content)
            count += 1
        }
        return count
    }

    @Test func oneCellChangeRepaintsOnlyThatCell() throws {
        let (list, compositor) = makeList(highlighting: nil)
        let cells = place(list, into: compositor)
        #expect(cells >= 14, "the viewport should show about 16 cells, shows \(cells)")
        #expect(compositor.pixelWidth == 1170 && compositor.pixelHeight == 2532)

        let full = compositor.renderFrame()
        #expect(full.pixelsTouched == 1170 * 2532)
        #expect(full.layersRastered == cells)

        for cell in list.liveCells.values { cell.isSelected = true }
        _ = place(list, into: compositor)
        let warm = compositor.renderFrame()
        #expect(warm.layersRastered == cells)

        var singles: [FrameReport] = []
        for i in 0..<6 {
            list.liveCells[ListIndexPath(section: 0, item: 3)]!.isSelected = i % 2 == 1
            _ = place(list, into: compositor)
            singles.append(compositor.renderFrame())
        }
        for single in singles {
            #expect(single.layersRastered == 1)
            #expect(single.pixelsTouched < full.pixelsTouched / 10, "one cell repaints a small part: \(single)")
        }

        let frame = compositor.snapshot()
        let path = Fixtures.temporaryDirectory + "/full-frame.png"
        try frame.writePNG(path: path)
        let size = try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int ?? 0
        #expect(size > 10_000)
    }
}
