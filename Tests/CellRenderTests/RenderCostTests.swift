import CellKit
import Foundation
import Testing
@testable import CellRender

/// The baseline costs the tool's long event streams depend on: a full 1170×2532 frame of 16
/// cells, a frame where one cell changed, and encoding a full frame as PNG. Figures are printed
/// (debug builds are slower than release); the assertions check the work done, not the clock.
@Suite struct RenderCostTests {
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

    private func milliseconds(_ d: Duration) -> Double {
        Double(d.components.seconds) * 1000 + Double(d.components.attoseconds) / 1e15
    }

    @Test func fullFrameSingleCellFrameAndPNGEncode() throws {
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
        let clock = ContinuousClock()
        let encode = try clock.measure { try frame.writePNG(path: path) }
        let size = try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int ?? 0
        #expect(size > 10_000)

        let singleMedianRaster = singles.map { milliseconds($0.rasterDuration) }.sorted()[singles.count / 2]
        let singleMedianComposite = singles.map { milliseconds($0.compositeDuration) }.sorted()[singles.count / 2]
        print(String(format: "COST first full frame 1170x2532, %d cells (cold caches): raster %.1f ms, composite %.1f ms", cells,
                     milliseconds(full.rasterDuration), milliseconds(full.compositeDuration)))
        print(String(format: "COST full frame again, every cell changed (warm caches): raster %.1f ms, composite %.1f ms",
                     milliseconds(warm.rasterDuration), milliseconds(warm.compositeDuration)))
        print(String(format: "COST single-cell frame: %d px, raster %.2f ms, composite %.2f ms (median of %d)",
                     singles[0].pixelsTouched, singleMedianRaster, singleMedianComposite, singles.count))
        print(String(format: "COST PNG encode of the full frame: %.1f ms, %d bytes", milliseconds(encode), size))
    }
}
