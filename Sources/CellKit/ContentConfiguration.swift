/// The protocol pair at the heart of the model (UIKit's `UIContentConfiguration` / `UIContentView`).
/// A configuration is a value describing how content looks in one state; a content view renders
/// one. Built-in and plugin configurations conform alike and go through the same cell machinery.

public protocol ContentConfiguration: Sendable {
    /// A reverse-DNS identifier of the configuration's type ("com.cellhost.list-content",
    /// a plugin's own id). Traces name types by it.
    var typeIdentifier: String { get }

    /// A fresh view that renders this configuration.
    func makeContentView() -> any ContentView

    /// A copy restyled for `state`. Never mutates `self`; properties the user customised
    /// ("locked") keep their values.
    func updated(for state: any ConfigurationState) -> Self

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
    /// again (a highlight toggled on and off restyles twice, not on every toggle). The default
    /// answers false: only a type that knows its restyle can promise it (a plugin, through
    /// `CELLHOST_CONFIG_PURE_RESTYLE`).
    var restyleIsPure: Bool { get }

    /// Every property with its value and whether it was customised, in a stable order, so traces
    /// can say what `updated(for:)` changed and what stayed locked.
    var inspectableProperties: [InspectableProperty] { get }

    /// The customised properties only, in the same order: what a trace can still report about a
    /// configuration that a pass left as it was (a locked value, or one an event set).
    var customizedProperties: [InspectableProperty] { get }

    /// Value equality across the existential, used to skip work when nothing changed.
    func isEqual(to other: any ContentConfiguration) -> Bool

    /// Whether equal values list equal properties: true for table-described types, whose
    /// synthesised equality covers every value and customisation flag, so traces read one list
    /// for stages that compare equal. A requirement, not an `is` cast: the cast looks up the
    /// conformance at run time on every pass.
    var listsPropertiesByValue: Bool { get }

    /// Whether `other` is this very value (one shared storage), whose properties read the same
    /// without reading them again: a configuration that compares by identity only (a plugin's)
    /// is still read once for stages that are one value.
    func isIdentical(to other: any ContentConfiguration) -> Bool

    /// A copy with the property at dotted path `name` set to `value` and marked customised
    /// (locked), as an event stream's `set` or a plugin setter does. Unknown names and values of
    /// the wrong type throw instead of being ignored, so a typo in a stream is reported.
    func setting(_ name: String, to value: PropertyValue) throws(ConfigurationPropertyError) -> Self

    /// A copy after running the named action with `arguments` (plugin configurations declare
    /// actions; built-in configurations have none and throw `.unknownAction`).
    func performing(_ action: String, arguments: [PropertyValue]) throws(ConfigurationPropertyError) -> Self
}

extension ContentConfiguration {
    public func updated(forCellState state: CellConfigurationState) -> Self { updated(for: state) }

    public func restylesAlike(_ a: CellConfigurationState, _ b: CellConfigurationState) -> Bool { false }

    public var restyleIsPure: Bool { false }

    public var listsPropertiesByValue: Bool { false }

    public func isIdentical(to other: any ContentConfiguration) -> Bool { false }

    public var customizedProperties: [InspectableProperty] { inspectableProperties.filter(\.isCustomized) }

    public func performing(_ action: String, arguments: [PropertyValue]) throws(ConfigurationPropertyError) -> Self {
        throw .unknownAction(action, typeIdentifier: typeIdentifier)
    }
}

extension ContentConfiguration where Self: PropertyInspectable {
    public var listsPropertiesByValue: Bool { true }

    /// Read through the table's flags, not filtered out of every property's value. The same as
    /// `PropertyInspectable`'s, restated: with two protocol defaults the conformance is ambiguous.
    public var customizedProperties: [InspectableProperty] {
        withUnsafePointer(to: self) { Self.propertyTable.readCustomized(at: UnsafeRawPointer($0)) }
    }
}

/// Why a property set or an action on a configuration was refused; the sentence names both.
public enum ConfigurationPropertyError: Error, Hashable, Sendable, CustomStringConvertible {
    case unknownProperty(String, typeIdentifier: String)
    case typeMismatch(property: String, expected: String, got: String)
    case invalidValue(property: String, reason: String)
    case unknownAction(String, typeIdentifier: String)
    case actionFailed(action: String, reason: String)

    public var description: String {
        switch self {
        case .unknownProperty(let name, let type): "\(type) has no property '\(name)'"
        case .typeMismatch(let name, let expected, let got): "property '\(name)' takes \(expected), not \(got)"
        case .invalidValue(let name, let reason): "property '\(name)': \(reason)"
        case .unknownAction(let name, let type): "\(type) has no action '\(name)'"
        case .actionFailed(let name, let reason): "action '\(name)' failed: \(reason)"
        }
    }
}

extension ContentConfiguration where Self: Equatable {
    public func isEqual(to other: any ContentConfiguration) -> Bool {
        (other as? Self).map { $0 == self } ?? false
    }
}

/// What a content view needs from its surroundings to lay out and draw.
public struct LayoutContext: Sendable {
    public var traits: TraitCollection
    public var textMeasurer: any TextMeasuring
    /// The colour `nil` tints resolve to (the view's `tintColor`).
    public var tintColor: Color
    /// The layout margins of the view that holds the content view (the cell's), which win on the
    /// axes a configuration preserves (`axesPreservingSuperviewLayoutMargins`).
    public var superviewLayoutMargins: DirectionalEdgeInsets

    public init(traits: TraitCollection, textMeasurer: any TextMeasuring, tintColor: Color = .tintColor,
                superviewLayoutMargins: DirectionalEdgeInsets = .zero) {
        self.traits = traits
        self.textMeasurer = textMeasurer
        self.tintColor = tintColor
        self.superviewLayoutMargins = superviewLayoutMargins
    }
}

public protocol ContentView: AnyObject {
    /// The applied configuration. Setting it applies the new one at once (no second set needed).
    var configuration: any ContentConfiguration { get set }

    /// Whether this view can take `configuration` (reuse) or the cell must build a new view
    /// (replace). The default is "same configuration type" (iOS 16 semantics).
    func supports(_ configuration: any ContentConfiguration) -> Bool

    /// Self-sizing: the size the content wants at `targetSize.width` (height is computed; UIKit's
    /// `systemLayoutSizeFitting` with required horizontal, fitting vertical priority).
    func sizeThatFits(_ targetSize: Size, context: LayoutContext) -> Size

    /// Records the drawing of the current configuration into `list`, in view coordinates with
    /// the view's bounds at the origin.
    func draw(in bounds: Rect, context: LayoutContext, into list: inout DisplayList)

    /// Where the row's separator starts, measured from the leading edge at `width` (UIKit's
    /// `separatorLayoutGuide`: aligned with the text). Nil: the cell's leading layout margin.
    func separatorLeadingInset(width: Double, context: LayoutContext) -> Double?

    /// Whether `draw(in:context:into:)` now would record exactly what this view's last `draw`
    /// recorded (and its separator inset is what it was): a cell redrawn for a new background then
    /// re-records only the background. False by default — only a view that knows its drawing
    /// follows from its configuration and the context alone can answer true.
    func drawsAsLastRecorded(in bounds: Rect, context: LayoutContext) -> Bool

    /// Whether `drawsAsLastRecorded` can ever answer true. A cell whose content view cannot skips
    /// the question and everything it compares before asking it. False by default.
    var keepsLastRecording: Bool { get }
}

extension ContentView {
    public func separatorLeadingInset(width: Double, context: LayoutContext) -> Double? { nil }

    public func drawsAsLastRecorded(in bounds: Rect, context: LayoutContext) -> Bool { false }

    public var keepsLastRecording: Bool { false }

    public func supports(_ configuration: any ContentConfiguration) -> Bool {
        type(of: configuration) == type(of: self.configuration)
            && configuration.typeIdentifier == self.configuration.typeIdentifier
    }
}

/// One property of a configuration as traces show it.
public struct InspectableProperty: Hashable, Sendable {
    /// A dotted path: "textProperties.color", "backgroundColor", "count".
    public var name: String
    public var value: PropertyValue
    /// Set explicitly by the user, so `updated(for:)` leaves it alone.
    public var isCustomized: Bool

    public init(name: String, value: PropertyValue, isCustomized: Bool) {
        self.name = name
        self.value = value
        self.isCustomized = isCustomized
    }
}

extension Array where Element == InspectableProperty {
    /// Whether both are one stored list (the same elements, not merely equal ones).
    func sharesStorage(with other: [InspectableProperty]) -> Bool {
        count == other.count && withUnsafeBufferPointer { x in other.withUnsafeBufferPointer { y in x.baseAddress == y.baseAddress } }
    }
}

/// A property value in a form every sink (terminal, JSONL, plugin ABI) can print.
public enum PropertyValue: Hashable, Sendable, CustomStringConvertible {
    case none
    case bool(Bool)
    case int(Int64)
    case double(Double)
    case string(String)
    case color(Color)
    case size(Size)
    case insets(DirectionalEdgeInsets)
    case font(Font)
    case image(Image)
    case transformer(ColorTransformer)
    /// Anything else, by its description (enums such as alignment).
    case symbolic(String)

    /// The kind of value, as error messages and schemas name it.
    public var kindName: String {
        switch self {
        case .none: "nil"
        case .bool: "bool"
        case .int: "int"
        case .double: "double"
        case .string: "string"
        case .color: "color"
        case .size: "size"
        case .insets: "insets"
        case .font: "font"
        case .image: "image"
        case .transformer: "color transformer"
        case .symbolic: "symbol"
        }
    }

    public var description: String {
        switch self {
        case .none: "nil"
        case .bool(let b): String(b)
        case .int(let i): String(i)
        case .double(let d): formatPoints(d)
        case .string(let s): "\"\(s)\""
        case .color(let c): c.description
        case .size(let s): s.description
        case .insets(let i): i.description
        case .font(let f): f.description
        case .image(let i): i.description
        case .transformer(let t): t.name
        case .symbolic(let s): s
        }
    }
}
