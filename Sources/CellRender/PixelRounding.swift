extension Double {
    /// `Int(rounded())` (to nearest, halves away from zero) without the libm `round` call behind
    /// `rounded()`, for pixel edges computed on every draw: truncation gives the whole part and
    /// the remainder, which subtracting it leaves exact, decides the rest. Traps where
    /// `Int(rounded())` does (NaN, infinities, beyond `Int`).
    @inline(__always) var roundedToInt: Int {
        let whole = Int(self)
        let fraction = self - Double(whole)
        return fraction >= 0.5 ? whole + 1 : fraction <= -0.5 ? whole - 1 : whole
    }
}
