/// One line of the benchmark's output: what was measured against what, the ratio, the target,
/// and whether it was met. Every figure prints exactly one such line, so scripts (and the smoke
/// test) can read the result by its last word.
struct FigureLine {
    var name: String
    var measured: String
    var reference: String
    var ratio: Double?
    var target: String
    var met: Bool

    var text: String {
        let ratioText = ratio.map { "ratio \(Format.fixed($0, 2))×" } ?? "ratio —"
        return "\(name): \(measured); reference \(reference); \(ratioText); target \(target); \(met ? "met" : "missed")"
    }
}

/// Number formatting without Foundation.
enum Format {
    static func fixed(_ value: Double, _ digits: Int) -> String {
        guard value.isFinite else { return "\(value)" }
        var scale = 1.0
        for _ in 0..<digits { scale *= 10 }
        let scaled = Int((abs(value) * scale).rounded())
        let whole = scaled / Int(scale), fraction = scaled % Int(scale)
        var text = (value < 0 ? "-" : "") + String(whole)
        if digits > 0 {
            let f = String(fraction)
            text += "." + String(repeating: "0", count: digits - f.count) + f
        }
        return text
    }

    /// A duration in the unit that keeps it readable: ns, µs or ms.
    static func time(_ seconds: Double) -> String {
        if seconds < 1e-6 { return fixed(seconds * 1e9, 1) + " ns" }
        if seconds < 1e-3 { return fixed(seconds * 1e6, 1) + " µs" }
        return fixed(seconds * 1e3, 2) + " ms"
    }

    static func count(_ value: Double) -> String {
        let digits = String(Int(value.rounded()))
        var out = ""
        for (i, c) in digits.reversed().enumerated() {
            if i > 0 && i % 3 == 0 { out.append(",") }
            out.append(c)
        }
        return String(out.reversed())
    }
}
