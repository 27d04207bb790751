/// A small deterministic generator (a 64-bit LCG), so a randomised test's failure reproduces
/// from its seed.
public struct SeededRandom {
    public var state: UInt64

    public init(state: UInt64) { self.state = state }

    /// A value in `0..<bound`.
    public mutating func next(_ bound: Int) -> Int {
        state = state &* 6364136223846793005 &+ 1442695040888963407
        return Int((state >> 33) % UInt64(bound))
    }
}
