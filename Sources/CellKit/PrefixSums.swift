/// Running sums over a long array of row heights (a Fenwick tree): a row's offset, a height
/// change and "which row is at y" all cost O(log n), so a list of a million rows re-lays out one
/// row without touching the others.
struct PrefixSums: Sendable {
    private var tree: [Double]
    private(set) var values: [Double]

    init(_ values: [Double]) {
        self.values = values
        tree = [0] + values
        let n = values.count
        if n > 0 {
            for i in 1...n {
                let parent = i + (i & -i)
                if parent <= n { tree[parent] += tree[i] }
            }
        }
    }

    var count: Int { values.count }

    /// Sum of the first `count` values.
    func sum(ofFirst count: Int) -> Double {
        var i = min(count, values.count), total = 0.0
        while i > 0 {
            total += tree[i]
            i -= i & -i
        }
        return total
    }

    var total: Double { sum(ofFirst: values.count) }

    mutating func set(_ value: Double, at index: Int) {
        let delta = value - values[index]
        guard delta != 0 else { return }
        values[index] = value
        var i = index + 1
        while i < tree.count {
            tree[i] += delta
            i += i & -i
        }
    }

    /// The index whose span [sum(ofFirst: i), sum(ofFirst: i + 1)) contains `y` (values must be
    /// non-negative); `count` when `y` is at or past the total.
    func index(containing y: Double) -> Int {
        guard y >= 0 else { return 0 }
        var position = 0, remaining = y
        var step = 1
        while step * 2 <= values.count { step *= 2 }
        while step > 0 {
            let next = position + step
            if next <= values.count && tree[next] <= remaining {
                position = next
                remaining -= tree[next]
            }
            step /= 2
        }
        return position
    }
}
