/// The bounds the host accepts for values that come from outside it — a plugin's sizes and
/// canvas arguments, an event stream's paddings, margins and fonts. Past them the compositor
/// would allocate without limit or convert a non-finite number to an integer (a trap), so
/// callers refuse such values with a message naming where they came from. Stated once so the
/// event schema, the stream parser and the plugin checks agree.
public enum ValueBounds {
    /// Largest magnitude of a length, coordinate, radius or stroke width a plugin hands the host.
    public static let length = 1_000_000.0
    /// Largest magnitude of a number set on the host's own configurations (paddings, margins,
    /// insets, radii, stroke widths, line counts): the largest viewport, so a cell laid out with
    /// any of them still fits a frame the compositor draws in bounded time.
    public static let configuredNumber = 10_000.0
    /// Largest font or symbol point size.
    public static let pointSize = 1_000.0
    /// Longest text, in UTF-8 bytes.
    public static let textBytes = 100_000

    /// nil when `value` is a usable length (finite, |value| ≤ `length`, and ≥ 0 when
    /// `nonNegative`); otherwise why not, e.g. "inf is not finite".
    public static func lengthProblem(_ value: Double, nonNegative: Bool = false, limit: Double = length) -> String? {
        guard value.isFinite else { return "\(value) is not finite" }
        if nonNegative && value < 0 { return "\(value) is negative" }
        guard abs(value) <= limit else { return "\(value) is beyond ±\(Int(limit)) pt" }
        return nil
    }

    /// nil when `value` may be set on a host configuration (|value| ≤ `configuredNumber`).
    public static func configuredProblem(_ value: Double) -> String? { lengthProblem(value, limit: configuredNumber) }

    /// nil when `value` is a usable count (|value| ≤ `configuredNumber`).
    public static func countProblem(_ value: Int) -> String? {
        abs(Double(value)) <= configuredNumber ? nil : "\(value) is beyond ±\(Int(configuredNumber))"
    }

    /// nil when `value` is a usable point size (0 through `pointSize`).
    public static func pointSizeProblem(_ value: Double) -> String? {
        guard value.isFinite else { return "\(value) is not finite" }
        guard value >= 0, value <= pointSize else { return "\(value) is outside 0…\(Int(pointSize)) pt" }
        return nil
    }

    /// nil when a text of `bytes` UTF-8 bytes is usable.
    public static func textProblem(bytes: Int) -> String? {
        bytes <= textBytes ? nil : "a text of \(bytes) bytes is longer than \(textBytes)"
    }
}
