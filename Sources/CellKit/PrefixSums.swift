/// Running sums over a long array of row heights: a row's offset, a height change and "which row
/// is at y" all cost O(log n), so a list of a million rows re-lays out one row without touching
/// the others. The values sit in blocks of `blockSize`; a Fenwick tree over the blocks' sums
/// gives the sum of whole blocks, and the few values of a partial block are added to it.
///
/// Most rows of a long list keep their estimated height forever (they are never shown), so the
/// values and the tree are stored sparsely (`SparsePages`): a value never set reads as the
/// estimate, and a tree node whose blocks hold only such values reads as `estimate × their
/// length`. A list scrolled from end to end sets every value, so what stays per row is kept
/// small: a value is stored as a two-byte code of the list's distinct heights (`ValueCodes`),
/// and the tree holds one sum per block, not per row.
struct PrefixSums: Sendable {
    let count: Int
    /// The value of every index never set.
    let estimate: Double
    private static var blockShift: Int { 3 }
    private static var blockSize: Int { 1 << blockShift }
    private var codes: SparsePages<ValueCodes.Code>
    private var valueCodes = ValueCodes()
    /// The values whose code is `ValueCodes.uncoded` (a list of more distinct heights than codes).
    private var uncodedValues: SparsePages<Double>
    /// Node j (1-based) holds the sum of the values of blocks (j − lowbit(j), j].
    private var tree: SparsePages<Double>
    /// `sum(ofFirst: count)`, kept: the engine reads it twice per event (its content height)
    /// and it changes only with a value. Summed the same way, so it is the same to the last bit.
    private(set) var total: Double = 0

    /// `count` values, all `estimate`, none stored.
    init(count: Int, estimate: Double) {
        self.count = max(0, count)
        self.estimate = estimate
        codes = SparsePages(count: self.count)
        uncodedValues = SparsePages(count: 0)
        tree = SparsePages(count: Self.blockCount(self.count) + 1)
        total = sum(ofFirst: self.count)
    }

    /// The given values (on an estimate of 0).
    init(_ values: [Double]) {
        self.init(count: values.count, estimate: 0)
        for (i, v) in values.enumerated() { set(v, at: i) }
    }

    private static func blockCount(_ count: Int) -> Int { (count + blockSize - 1) >> blockShift }

    private var blockCount: Int { tree.count - 1 }

    @inline(__always)
    private func node(_ j: Int) -> Double { tree.stored(at: j) ?? Self.implicitNode(j, count: count, estimate: estimate) }

    /// What node `j` holds while no value of its blocks was set (the last block may be short).
    @inline(__always)
    private static func implicitNode(_ j: Int, count: Int, estimate: Double) -> Double {
        let first = (j - (j & -j)) << blockShift, end = min(j << blockShift, count)
        return Double(end - first) * estimate
    }

    subscript(index: Int) -> Double {
        let code = codes.stored(at: index) ?? ValueCodes.unset
        switch code {
        case ValueCodes.unset: return estimate
        case ValueCodes.uncoded: return uncodedValues.stored(at: index)!
        default: return valueCodes.value(of: code)
        }
    }

    /// Sum of the first `count` values: the whole blocks from the tree, then the rest one by one.
    func sum(ofFirst count: Int) -> Double {
        let n = max(0, min(count, self.count))
        var j = n >> Self.blockShift, total = 0.0
        while j > 0 {
            total += node(j)
            j -= j & -j
        }
        for i in ((n >> Self.blockShift) << Self.blockShift)..<n { total += self[i] }
        return total
    }

    mutating func set(_ value: Double, at index: Int) {
        let delta = value - self[index]
        guard delta != 0 else { return }
        let code = valueCodes.code(of: value)
        codes.set(code, at: index) { _ in ValueCodes.unset }
        if code == ValueCodes.uncoded {
            if uncodedValues.count == 0 { uncodedValues = SparsePages(count: count) }
            uncodedValues.set(value, at: index) { [estimate] _ in estimate }
        }
        var j = (index >> Self.blockShift) + 1
        while j <= blockCount {
            tree.set(node(j) + delta, at: j) { [count, estimate] k in Self.implicitNode(k, count: count, estimate: estimate) }
            j += j & -j
        }
        total = sum(ofFirst: count)
    }

    /// The index whose span [sum(ofFirst: i), sum(ofFirst: i + 1)) contains `y` (values must be
    /// non-negative); `count` when `y` is at or past the total.
    func index(containing y: Double) -> Int {
        guard y >= 0 else { return 0 }
        // The whole blocks that end at or before y, then the values of the next block.
        var block = 0, remaining = y
        var step = 1
        while step * 2 <= blockCount { step *= 2 }
        while step > 0 {
            let next = block + step
            if next <= blockCount {
                let n = node(next)
                if n <= remaining {
                    block = next
                    remaining -= n
                }
            }
            step /= 2
        }
        var i = block << Self.blockShift
        let end = min(i + Self.blockSize, count)
        while i < end {
            let v = self[i]
            guard v <= remaining else { break }
            remaining -= v
            i += 1
        }
        return i
    }

    /// Pages of storage written so far (values and tree), for memory tests.
    var allocatedPageCount: Int { codes.allocatedPageCount + uncodedValues.allocatedPageCount + tree.allocatedPageCount }

    /// Bytes of the pages written so far, for memory tests.
    var allocatedBytes: Int { codes.allocatedBytes + uncodedValues.allocatedBytes + tree.allocatedBytes }
}
