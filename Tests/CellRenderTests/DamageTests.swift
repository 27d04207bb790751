import CellKit
import Testing
@testable import CellRender

/// What a frame reports as repainted: the pixels added, each once, never outside the framebuffer.
@Suite struct DamageTests {
    static let bounds = PixelRect(x: 0, y: 0, width: 100, height: 80)

    @Test func nothingAddedIsNoDamage() {
        let damage = Damage(bounds: Self.bounds)
        #expect(damage.isEmpty)
        #expect(damage.rects.isEmpty)
        #expect(damage.area == 0)
        #expect(damage.extents == .zero)
        #expect(!damage.add(PixelRect(x: 10, y: 10, width: 0, height: 5)), "an empty rect damages nothing")
        #expect(damage.isEmpty)
    }

    @Test func overlappingRectsCountEachPixelOnce() {
        let damage = Damage(bounds: Self.bounds)
        damage.add(PixelRect(x: 0, y: 0, width: 10, height: 10))
        damage.add(PixelRect(x: 5, y: 5, width: 10, height: 10))
        #expect(damage.area == 100 + 100 - 25)
        #expect(damage.extents == PixelRect(x: 0, y: 0, width: 15, height: 15))
        let rects = damage.rects
        #expect(rects.reduce(0) { $0 + $1.area } == damage.area, "the rects cover the region once")
        for (i, a) in rects.enumerated() {
            for b in rects[(i + 1)...] { #expect(a.intersection(b).isEmpty, "\(a) and \(b) overlap") }
        }
    }

    @Test func theSameRectTwiceIsOneRect() {
        let damage = Damage(bounds: Self.bounds)
        let row = PixelRect(x: 0, y: 20, width: 100, height: 30)
        damage.add(row)
        damage.add(row)
        #expect(damage.rects == [row])
        #expect(damage.area == 3000)
    }

    @Test func touchingRectsOfOneBandMerge() {
        let damage = Damage(bounds: Self.bounds)
        damage.add(PixelRect(x: 0, y: 10, width: 40, height: 20))
        damage.add(PixelRect(x: 40, y: 10, width: 60, height: 20))
        #expect(damage.rects == [PixelRect(x: 0, y: 10, width: 100, height: 20)])
    }

    @Test func damageIsClippedToTheFramebuffer() {
        let damage = Damage(bounds: Self.bounds)
        #expect(damage.add(PixelRect(x: 90, y: -10, width: 30, height: 20)))
        #expect(damage.rects == [PixelRect(x: 90, y: 0, width: 10, height: 10)])
        #expect(!damage.add(PixelRect(x: 100, y: 0, width: 10, height: 10)), "wholly outside: nothing added")
        #expect(damage.area == 100)
        damage.addWhole()
        #expect(damage.rects == [Self.bounds])
        #expect(damage.area == 8000)
    }

    @Test func pointsCoverWholePixelsAtTheScale() {
        let damage = Damage(bounds: Self.bounds)
        damage.add(covering: Rect(x: 10.25, y: 5, width: 10, height: 4.5), scale: 2)
        #expect(damage.rects == [PixelRect(x: 20, y: 10, width: 21, height: 9)], "edges rounded outward")
    }

    @Test func rectsAddedAfterAReadJoinWhatWasRead() {
        let damage = Damage(bounds: Self.bounds)
        damage.add(PixelRect(x: 0, y: 0, width: 10, height: 10))
        damage.add(PixelRect(x: 20, y: 0, width: 10, height: 10))
        #expect(damage.area == 200)
        damage.add(PixelRect(x: 10, y: 0, width: 10, height: 10))
        #expect(damage.rects == [PixelRect(x: 0, y: 0, width: 30, height: 10)], "the gap filled: one band, one rect")
        #expect(damage.extents == PixelRect(x: 0, y: 0, width: 30, height: 10))
    }

    @Test func oneRectReadsBackAsItIs() {
        let damage = Damage(bounds: Self.bounds)
        let rect = PixelRect(x: 3, y: 4, width: 5, height: 6)
        damage.add(rect)
        #expect(damage.rects == [rect] && damage.area == 30 && damage.extents == rect)
        var seen: [PixelRect] = []
        damage.forEachRect { seen.append($0) }
        #expect(seen == [rect])
    }

    @Test func removingAllStartsTheNextFrameEmpty() {
        let damage = Damage(bounds: Self.bounds)
        damage.add(PixelRect(x: 0, y: 0, width: 50, height: 50))
        damage.removeAll()
        #expect(damage.isEmpty && damage.area == 0)
        damage.add(PixelRect(x: 1, y: 2, width: 3, height: 4))
        #expect(damage.rects == [PixelRect(x: 1, y: 2, width: 3, height: 4)])
    }
}
