import Testing
@testable import CellKit

/// The layout stores only heights that differ from the estimate; these check that it answers
/// exactly as a plain array of every height with its running sums would.
@Suite struct SparseLayoutTests {
    /// A small deterministic generator, so a failure reproduces.
    struct Generator {
        var state: UInt64
        mutating func next(_ bound: Int) -> Int {
            state = state &* 6364136223846793005 &+ 1442695040888963407
            return Int((state >> 33) % UInt64(bound))
        }
    }

    func plainSum(_ values: [Double], _ n: Int) -> Double { values.prefix(n).reduce(0, +) }

    @Test func implicitEstimatesEqualAPlainPrefixSumArrayUnderRandomChanges() {
        for count in [1, 2, 511, 512, 513, 3000] {
            var random = Generator(state: UInt64(count))
            var values = Array(repeating: 44.0, count: count)
            var sums = PrefixSums(count: count, estimate: 44)
            var dense = PrefixSums(values)
            for _ in 0..<400 {
                let i = random.next(count)
                // Quarter points keep every plain sum exact, so equality is exact too.
                let v = Double(random.next(400)) / 4
                values[i] = v
                sums.set(v, at: i)
                dense.set(v, at: i)
                let n = random.next(count + 1)
                #expect(sums.sum(ofFirst: n) == plainSum(values, n))
                #expect(sums.sum(ofFirst: n) == dense.sum(ofFirst: n))
                #expect(sums[i] == v)
                // The kept total follows every set.
                #expect(sums.total == sums.sum(ofFirst: count) && dense.total == dense.sum(ofFirst: count))
                let y = Double(random.next(Int(plainSum(values, count)) + 10))
                let found = sums.index(containing: y)
                #expect(found == dense.index(containing: y))
                if found < count {
                    #expect(plainSum(values, found) <= y && y < plainSum(values, found + 1))
                } else {
                    #expect(y >= plainSum(values, count))
                }
            }
            #expect(sums.total == plainSum(values, count))
        }
    }

    @Test func aMillionRowsStoreOnlyThePagesTheirChangesTouch() {
        var sums = PrefixSums(count: 1_000_000, estimate: 44)
        #expect(sums.allocatedPageCount == 0)
        #expect(sums.total == 44_000_000)
        #expect(sums.index(containing: 44 * 500_000 + 1) == 500_000)
        for i in 0..<20 { sums.set(60, at: i) }
        // The values' page plus the tree nodes above the first twenty: one page per power of two
        // beyond the first page (at most 12 for a million), far from the 3,900 a dense array needs.
        #expect(sums.allocatedPageCount <= 14)
        #expect(sums.sum(ofFirst: 20) == 1200)
        #expect(sums.total == 44_000_000 + 20 * 16)
        #expect(sums.index(containing: 1200) == 20)
    }

    @Test func layoutOfAMillionItemsMatchesItsDenseTwinAfterMeasuringAndInvalidating() {
        let shapes = [ListSectionShape(itemCount: 3, hasHeader: true), ListSectionShape(itemCount: 1_000_000, hasFooter: true),
                      ListSectionShape(itemCount: 700, hasHeader: true, hasFooter: true)]
        var layout = ListLayout(appearance: .insetGrouped, width: 390, sections: shapes)
        #expect(layout.allocatedPageCount < 40)
        // Heights every slot would have as a plain array: header 38, spacing 20, items 44, footer 38, none 0.
        var plain: [Double] = []
        for s in shapes {
            plain.append(s.hasHeader ? 38 : 20)
            plain += Array(repeating: 44, count: s.itemCount)
            plain.append(s.hasFooter ? 38 : 0)
        }
        #expect(layout.contentHeight == plain.reduce(0, +))
        var random = Generator(state: 7)
        var touched: [Int] = []
        for _ in 0..<300 {
            let slot = random.next(plain.count)
            guard layout.row(atSlot: slot) != nil else { continue }
            let h = Double(20 + random.next(200)) / 2
            layout.setMeasuredHeight(h, forSlot: slot)
            plain[slot] = h
            touched.append(slot)
        }
        var offsets = [0.0]
        offsets.reserveCapacity(plain.count + 1)
        for h in plain { offsets.append(offsets[offsets.count - 1] + h) }
        for slot in touched + [0, 1, 4, 5, 1_000_004, plain.count - 1] {
            let frame = layout.frame(ofSlot: slot)
            #expect(frame.minY == offsets[slot])
            #expect(frame.height == plain[slot])
        }
        #expect(touched.allSatisfy { layout.isMeasured(slot: $0) })
        let top = offsets[500_000]
        let visible = layout.visibleSlots(viewportHeight: 844, contentOffset: top)
        #expect(visible.lowerBound == 500_000)
        layout.invalidateMeasurements()
        #expect(touched.allSatisfy { !layout.isMeasured(slot: $0) })
        #expect(layout.isMeasured(slot: 4), "the empty header slot of the second section keeps its fixed spacing")
        #expect(!layout.isMeasured(slot: 0))
        #expect(layout.contentHeight == offsets[plain.count], "heights stay as the new estimates")
    }

    @Test func moreDistinctHeightsThanCodesStayExact() {
        // Every value distinct, so past the two-byte codes values are stored as they are.
        let count = 70_000
        var random = Generator(state: 11)
        var values = Array(repeating: 44.0, count: count)
        var sums = PrefixSums(count: count, estimate: 44)
        for k in 0..<count {
            let i = k * 7_919 % count  // every index once, spread out
            values[i] = Double(i) / 4 + 0.25
            sums.set(values[i], at: i)
        }
        var offsets = [0.0]
        for v in values { offsets.append(offsets[offsets.count - 1] + v) }
        #expect(sums.total == offsets[count])
        for _ in 0..<2_000 {
            let n = random.next(count + 1)
            #expect(sums.sum(ofFirst: n) == offsets[n])
            if n < count {
                #expect(sums[n] == values[n])
                #expect(sums.index(containing: offsets[n]) == n)
                #expect(sums.index(containing: offsets[n] + values[n] / 2) == n)
            }
        }
    }

    @Test func aListScrolledFromEndToEndKeepsAFewBytesPerRow() {
        // A million items of three templates, every one measured as a scroll to the end would.
        let items = 1_000_000
        let templateHeights: [Double] = [63, 63, 44]
        var layout = ListLayout(appearance: .insetGrouped, width: 390, sections: [ListSectionShape(itemCount: items, hasHeader: true)])
        var plain: [Double] = [38]
        plain.reserveCapacity(items + 2)
        for item in 0..<items {
            let h = templateHeights[item % 3]
            layout.setMeasuredHeight(h, forSlot: item + 1)
            plain.append(h)
        }
        plain.append(0)
        // A two-byte code and an eighth of a block sum per height, a byte per measured mark.
        #expect(layout.allocatedBytes <= 4 * (items + 2) + 4 * 4096)
        var offsets = [0.0]
        offsets.reserveCapacity(plain.count + 1)
        for h in plain { offsets.append(offsets[offsets.count - 1] + h) }
        #expect(layout.contentHeight == offsets[plain.count])
        var random = Generator(state: 5)
        for _ in 0..<2_000 {
            let slot = random.next(plain.count)
            #expect(layout.frame(ofSlot: slot).minY == offsets[slot])
            #expect(layout.frame(ofSlot: slot).height == plain[slot])
            let top = offsets[slot] + Double(random.next(Int(plain[slot]) + 1))
            let visible = layout.visibleSlots(viewportHeight: 844, contentOffset: top)
            guard !visible.isEmpty else {
                #expect(top >= offsets[plain.count])
                continue
            }
            #expect(offsets[visible.lowerBound] <= top && top < offsets[visible.lowerBound + 1] || plain[visible.lowerBound] == 0)
            #expect(offsets[visible.upperBound - 1] < top + 844)
            #expect(visible.upperBound == plain.count || offsets[visible.upperBound] >= top + 844)
        }
    }
}
