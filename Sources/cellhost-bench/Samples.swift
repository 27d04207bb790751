/// Timed samples of one operation: a warm-up that is thrown away, then repeated measurements,
/// sorted once so percentiles are exact order statistics (no interpolation).
struct Samples {
    /// Seconds, ascending.
    let sorted: [Double]

    init(_ values: [Double]) { sorted = values.sorted() }

    /// Runs `body` `warmUp` times unmeasured, then `count` times measured.
    static func measure(warmUp: Int, count: Int, _ body: () throws -> Void) rethrows -> Samples {
        for _ in 0..<warmUp { try body() }
        var values: [Double] = []
        values.reserveCapacity(count)
        let clock = ContinuousClock()
        for _ in 0..<count {
            let start = clock.now
            try body()
            values.append((clock.now - start).seconds)
        }
        return Samples(values)
    }

    /// The value at or below which `p` percent of samples lie (nearest rank).
    func percentile(_ p: Double) -> Double {
        precondition(!sorted.isEmpty, "no samples")
        let rank = Int((p / 100 * Double(sorted.count)).rounded(.up))
        return sorted[min(sorted.count - 1, max(0, rank - 1))]
    }

    var p50: Double { percentile(50) }
    var p99: Double { percentile(99) }
}

extension Duration {
    var seconds: Double {
        let c = components
        return Double(c.seconds) + Double(c.attoseconds) / 1e18
    }
}
