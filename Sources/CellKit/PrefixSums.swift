/// Running sums over a long array of row heights (a Fenwick tree): a row's offset, a height
/// change and "which row is at y" all cost O(log n), so a list of a million rows re-lays out one
/// row without touching the others.
///
/// Most rows of a long list keep their estimated height forever (they are never shown), so the
/// values and the tree are stored sparsely (`SparsePages`): a value never set reads as the
/// estimate, and a tree node whose range holds only such values reads as `estimate × its range
/// length`. A million-row list whose first screen was measured stores a few pages, not 16 MB.
struct PrefixSums: Sendable {
    let count: Int
    /// The value of every index never set.
    let estimate: Double
    private var storedValues: SparsePages<Double>
    /// Node i (1-based) holds the sum of values (i − lowbit(i), i].
    private var tree: SparsePages<Double>
    /// `sum(ofFirst: count)`, kept: the engine reads it twice per event (its content height)
    /// and it changes only with a value. Summed the same way, so it is the same to the last bit.
    private(set) var total: Double = 0

    /// `count` values, all `estimate`, none stored.
    init(count: Int, estimate: Double) {
        self.count = max(0, count)
        self.estimate = estimate
        storedValues = SparsePages(count: self.count)
        tree = SparsePages(count: self.count + 1)
        total = sum(ofFirst: self.count)
    }

    /// The given values, all stored (dense).
    init(_ values: [Double]) {
        self.init(count: values.count, estimate: 0)
        for (i, v) in values.enumerated() { storedValues.set(v, at: i) { _ in 0 } }
        // Linear-time build: each node passes its sum on to its parent once.
        for i in 0...count { tree.set(i == 0 ? 0 : values[i - 1], at: i) { _ in 0 } }
        if count > 0 {
            for i in 1...count {
                let parent = i + (i & -i)
                if parent <= count { tree.set(node(parent) + node(i), at: parent) { _ in 0 } }
            }
        }
        total = sum(ofFirst: count)
    }

    @inline(__always)
    private func node(_ i: Int) -> Double { tree.stored(at: i) ?? implicitNode(i) }

    @inline(__always)
    private func implicitNode(_ i: Int) -> Double { Double(i & -i) * estimate }

    subscript(index: Int) -> Double { storedValues.stored(at: index) ?? estimate }

    /// Sum of the first `count` values.
    func sum(ofFirst count: Int) -> Double {
        var i = min(count, self.count), total = 0.0
        while i > 0 {
            total += node(i)
            i -= i & -i
        }
        return total
    }

    mutating func set(_ value: Double, at index: Int) {
        let delta = value - self[index]
        guard delta != 0 else { return }
        storedValues.set(value, at: index) { [estimate] _ in estimate }
        var i = index + 1
        while i <= count {
            tree.set(node(i) + delta, at: i) { [estimate] j in Double(j & -j) * estimate }
            i += i & -i
        }
        total = sum(ofFirst: count)
    }

    /// The index whose span [sum(ofFirst: i), sum(ofFirst: i + 1)) contains `y` (values must be
    /// non-negative); `count` when `y` is at or past the total.
    func index(containing y: Double) -> Int {
        guard y >= 0 else { return 0 }
        var position = 0, remaining = y
        var step = 1
        while step * 2 <= count { step *= 2 }
        while step > 0 {
            let next = position + step
            if next <= count {
                let n = node(next)
                if n <= remaining {
                    position = next
                    remaining -= n
                }
            }
            step /= 2
        }
        return position
    }

    /// Pages of storage written so far (values and tree), for memory tests.
    var allocatedPageCount: Int { storedValues.allocatedPageCount + tree.allocatedPageCount }
}
