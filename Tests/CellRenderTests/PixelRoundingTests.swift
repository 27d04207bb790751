import Testing
@testable import CellRender

/// `roundedToInt` must be `Int(rounded())` for every value a pixel edge can take: halves
/// (away from zero), values just short of a half, negatives and values too large to have a
/// fraction.
@Suite struct PixelRoundingTests {
    @Test func roundsAsRoundedDoes() {
        var g = SeededGenerator(state: 23)
        var values: [Double] = [0, -0.0, 0.5, -0.5, 1.5, -1.5, 2.5, -2.5, 0.49999999999999994, -0.49999999999999994,
                                0.5000000000000001, 1e15 + 0.5, -(1e15 + 0.5), 4_503_599_627_370_495.5, 9_007_199_254_740_992,
                                -9_007_199_254_740_992, 1e18, -1e18, .ulpOfOne, -.leastNonzeroMagnitude]
        for _ in 0..<2000 {
            let whole = Double(Int.random(in: -5000...5000, using: &g))
            values.append(whole + Double(Int.random(in: 0..<24, using: &g)) / 24)
            values.append(whole + Double(Int.random(in: 0..<8, using: &g)) / 8)
            values.append(Double.random(in: -3000...3000, using: &g) * 3 + 0.4)
            values.append(whole + 0.5)
            values.append((whole + 0.5).nextDown)
            values.append((whole + 0.5).nextUp)
        }
        for v in values {
            #expect(v.roundedToInt == Int(v.rounded()), "\(v)")
        }
    }
}
