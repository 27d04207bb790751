/// A value describing how content looks in one state (UIKit's `UIContentConfiguration`).
///
/// An author writes two things: `makeContentView()` and `updated(for:)`. Everything else the
/// host asks of a configuration has a default, so a type written against this protocol alone
/// goes through the whole cell machinery: it is restyled, applied to a reused or replaced view,
/// drawn and traced. Built-in and plugin configurations conform alike. Speed hints a type may
/// add live in the opt-in refinement `ContentConfigurationFastPaths`.
public protocol ContentConfiguration: Sendable {
    /// A fresh view that renders this configuration.
    func makeContentView() -> any ContentView

    /// A copy restyled for `state`. Never mutates `self`; properties the user customised
    /// ("locked") keep their values.
    func updated(for state: any ConfigurationState) -> Self

    /// A reverse-DNS identifier of the configuration's type ("com.cellhost.list-content", a
    /// plugin's own id). Traces name types by it. Default: the type's full Swift name.
    var typeIdentifier: String { get }

    /// Every property with its value and whether it was customised, in a stable order, so traces
    /// can say what `updated(for:)` changed and what stayed locked. Default: the stored
    /// properties, by reflection, none of them customised.
    var inspectableProperties: [InspectableProperty] { get }

    /// Value equality across the existential: a cell that would hand its view an equal value
    /// leaves the view alone. Default: `==` for an `Equatable` type, otherwise never equal (the
    /// view is always given the new value, which is correct, only slower).
    func isEqual(to other: any ContentConfiguration) -> Bool

    /// A copy with the property at dotted path `name` set to `value` and marked customised
    /// (locked), as an event stream's `set` or a plugin setter does. Unknown names and values of
    /// the wrong type throw instead of being ignored, so a typo in a stream is reported.
    /// Default: every name is unknown.
    func setting(_ name: String, to value: PropertyValue) throws(ConfigurationPropertyError) -> Self

    /// A copy after running the named action with `arguments` (plugin configurations declare
    /// actions). Default: every action is unknown.
    func performing(_ action: String, arguments: [PropertyValue]) throws(ConfigurationPropertyError) -> Self
}

extension ContentConfiguration {
    public var typeIdentifier: String { String(reflecting: Self.self) }

    /// Reflection lists what a type stores without the type saying anything, so a trace of a
    /// configuration written against the core protocol still shows what `updated(for:)` changed.
    /// Nothing is marked customised: only a type that tracks customisation can know.
    public var inspectableProperties: [InspectableProperty] {
        Mirror(reflecting: self).children.compactMap { child in
            child.label.map { InspectableProperty(name: $0, value: reflectedPropertyValue(child.value), isCustomized: false) }
        }
    }

    public func isEqual(to other: any ContentConfiguration) -> Bool { false }

    public func setting(_ name: String, to value: PropertyValue) throws(ConfigurationPropertyError) -> Self {
        throw .unknownProperty(name, typeIdentifier: typeIdentifier)
    }

    public func performing(_ action: String, arguments: [PropertyValue]) throws(ConfigurationPropertyError) -> Self {
        throw .unknownAction(action, typeIdentifier: typeIdentifier)
    }
}

extension ContentConfiguration where Self: Equatable {
    public func isEqual(to other: any ContentConfiguration) -> Bool {
        (other as? Self).map { $0 == self } ?? false
    }
}

/// A table-described configuration lists and sets its properties through its table. Restated
/// here: with the core protocol's defaults beside `PropertyInspectable`'s, neither is more
/// specific and the conformance would be ambiguous.
extension ContentConfiguration where Self: PropertyInspectable {
    public var inspectableProperties: [InspectableProperty] { propertiesFromTable() }

    public func setting(_ name: String, to value: PropertyValue) throws(ConfigurationPropertyError) -> Self {
        try settingThroughTable(name, to: value)
    }
}

/// A reflected stored value as a trace prints it: a convertible value as itself, nil as
/// `.none`, anything else by its description.
private func reflectedPropertyValue(_ value: Any) -> PropertyValue {
    if let convertible = value as? any PropertyValueConvertible { return convertible.propertyValue }
    let mirror = Mirror(reflecting: value)
    if mirror.displayStyle == .optional {
        guard let wrapped = mirror.children.first else { return .none }
        return reflectedPropertyValue(wrapped.value)
    }
    return .symbolic(String(describing: value))
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
