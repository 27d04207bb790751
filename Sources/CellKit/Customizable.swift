/// A configuration property that remembers whether the user set it: UIKit's "locked" rule.
///
/// Every write through the property (`config.textProperties.color = .red`, `setting(_:to:)`, a
/// plugin setter) marks it customised; `updated(for:)` and the style factories write through
/// `restyle(_:)`, which leaves a customised value alone. Customisation is recorded by the setter
/// itself, never guessed by comparing with defaults, so a user value that happens to equal the
/// default stays locked too.
@propertyWrapper
public struct Customizable<Value: Hashable & Sendable>: Hashable, Sendable {
    public private(set) var value: Value
    /// Set explicitly by the user, so state restyling no longer touches it.
    public private(set) var isCustomized: Bool

    public init(wrappedValue: Value) {
        value = wrappedValue
        isCustomized = false
    }

    public var wrappedValue: Value {
        get { value }
        set {
            value = newValue
            isCustomized = true
        }
    }

    /// `$property` exposes the flag and `restyle(_:)` next to the plain value.
    public var projectedValue: Customizable<Value> {
        get { self }
        set { self = newValue }
    }

    /// Applies a style or state default; a customised value is kept (the locked rule).
    public mutating func restyle(_ newValue: Value) {
        if !isCustomized { value = newValue }
    }

    /// Changes the value without touching the flag, for adjustments that apply to customised
    /// values too (a font that follows the content size category).
    public mutating func adjust(_ newValue: Value) {
        value = newValue
    }
}
