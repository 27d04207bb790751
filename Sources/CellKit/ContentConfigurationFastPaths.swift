/// Speed hints a content configuration may give the host, beyond what `ContentConfiguration`
/// asks. Adopting it is optional and changes no result, only how much work gets there: every
/// requirement has a default that promises nothing, and a type answers only what it knows about
/// itself. A cell looks the adoption up once, when a value is set (a restyle returns `Self`, so
/// the type can change only then), never on each pass.
public protocol ContentConfigurationFastPaths: ContentConfiguration {
    /// `updated(for: state)` for a cell's state, which the update pass of every cell asks for. A
    /// cell state does not fit inside an existential, so passing it as `any ConfigurationState`
    /// allocates a box on every pass; a type that can read the state directly implements this.
    /// The default calls `updated(for:)`.
    func updated(forCellState state: CellConfigurationState) -> Self

    /// Whether `updated(for: a)` and `updated(for: b)` restyle alike: every state input
    /// `updated(for:)` reads is the same in both, and a restyle applied twice for one state gives
    /// what applying it once does. A cell then keeps a configuration it already restyled for `a`
    /// instead of restyling it again for `b` (a highlight restyles the background, not the text).
    /// The default answers false: only a type that knows what its restyle reads can say yes.
    func restylesAlike(_ a: CellConfigurationState, _ b: CellConfigurationState) -> Bool

    /// Whether `updated(for:)` is pure: its result depends only on the values set on the
    /// configuration and on the state, so for a configuration and every configuration restyled
    /// from it, equal states give equal results, and restyling has no other effect. A cell then
    /// hands back a restyle it made for an equal state of the same set value instead of restyling
    /// again (a highlight toggled on and off restyles twice, not on every toggle). As the promise
    /// covers every restyle of a value, a cell reads it once per value set. The default answers
    /// false: only a type that knows its restyle can promise it (a plugin, through
    /// `CELLHOST_CONFIG_PURE_RESTYLE`).
    var restyleIsPure: Bool { get }

    /// Whether equal values list equal properties: true for table-described types, whose
    /// synthesised equality covers every value and customisation flag, so traces read one list
    /// for stages that compare equal.
    var listsPropertiesByValue: Bool { get }

    /// The customised properties only, in `inspectableProperties` order: what a trace can still
    /// report about a configuration that a pass left as it was (a locked value, or one an event
    /// set). The default filters `inspectableProperties`.
    var customizedProperties: [InspectableProperty] { get }

    /// Whether `other` is this very value (one shared storage), whose properties read the same
    /// without reading them again: a configuration that compares by identity only (a plugin's)
    /// is still read once for stages that are one value. The default answers false.
    func isIdentical(to other: any ContentConfiguration) -> Bool
}

extension ContentConfigurationFastPaths {
    public func updated(forCellState state: CellConfigurationState) -> Self { updated(for: state) }

    public func restylesAlike(_ a: CellConfigurationState, _ b: CellConfigurationState) -> Bool { false }

    public var restyleIsPure: Bool { false }

    public var listsPropertiesByValue: Bool { false }

    public var customizedProperties: [InspectableProperty] { inspectableProperties.filter(\.isCustomized) }

    public func isIdentical(to other: any ContentConfiguration) -> Bool { false }
}

extension ContentConfigurationFastPaths where Self: PropertyInspectable {
    public var listsPropertiesByValue: Bool { true }

    /// Read through the table's flags, not filtered out of every property's value. Restated:
    /// with this protocol's default beside `PropertyInspectable`'s the conformance is ambiguous.
    public var customizedProperties: [InspectableProperty] { customizedPropertiesFromTable() }
}
