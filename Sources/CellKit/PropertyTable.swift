/// One description of a configuration's settable properties serves inspection (traces),
/// setting by dotted name (event streams, plugins) and type checking, for content and background
/// configurations alike.

/// A value type that can be read into and written from a `PropertyValue`.
public protocol PropertyValueConvertible: Hashable, Sendable {
    var propertyValue: PropertyValue { get }
    /// How error messages name the expected kind ("color", "double", "one of left, right").
    static var propertyKindName: String { get }
    /// The value for `value`, nil when `value` is of the wrong kind. Throws when the kind is
    /// right but the content is not (an unknown colour name).
    static func converting(_ value: PropertyValue, property: String) throws(ConfigurationPropertyError) -> Self?
}

/// A property at a dotted path, read and written through its `Customizable` storage. The full
/// name is built once, so reading every property of a configuration allocates no strings.
public struct PropertyDescriptor<Root>: Sendable {
    public let name: String
    public var kindName: String { lens.kindName }
    let lens: any PropertyLens<Root>

    /// `validate` returns a reason when a value of the right kind is out of range.
    public init<V: PropertyValueConvertible>(
        _ name: String, _ keyPath: WritableKeyPath<Root, Customizable<V>> & Sendable,
        validate: (@Sendable (V) -> String?)? = nil
    ) {
        self.name = name
        lens = CustomizableLens(keyPath: keyPath, validate: validate)
    }

    init(name: String, lens: any PropertyLens<Root>) {
        self.name = name
        self.lens = lens
    }

    func read(_ root: Root) -> InspectableProperty {
        let (value, isCustomized) = lens.read(root)
        return InspectableProperty(name: name, value: value, isCustomized: isCustomized)
    }

    func write(_ root: inout Root, _ value: PropertyValue) throws(ConfigurationPropertyError) {
        try lens.write(&root, value, name: name)
    }
}

/// Typed access to one customizable property, behind an existential so tables can mix types and
/// nest: a nested table composes key paths instead of copying the inner value per read.
protocol PropertyLens<Root>: Sendable {
    associatedtype Root
    var kindName: String { get }
    func read(_ root: Root) -> (PropertyValue, Bool)
    func write(_ root: inout Root, _ value: PropertyValue, name: String) throws(ConfigurationPropertyError)
    func rebased<Outer>(onto path: WritableKeyPath<Outer, Root>) -> any PropertyLens<Outer>
}

/// Key paths are immutable values; composed ones lose the static `Sendable` of literals only.
struct CustomizableLens<Root, V: PropertyValueConvertible>: PropertyLens, @unchecked Sendable {
    let keyPath: WritableKeyPath<Root, Customizable<V>>
    let validate: (@Sendable (V) -> String?)?

    var kindName: String { V.propertyKindName }

    func read(_ root: Root) -> (PropertyValue, Bool) {
        let stored = root[keyPath: keyPath]
        return (stored.value.propertyValue, stored.isCustomized)
    }

    func write(_ root: inout Root, _ value: PropertyValue, name: String) throws(ConfigurationPropertyError) {
        guard let converted = try V.converting(value, property: name) else {
            throw .typeMismatch(property: name, expected: V.propertyKindName, got: value.kindName)
        }
        if let reason = validate?(converted) { throw .invalidValue(property: name, reason: reason) }
        root[keyPath: keyPath].wrappedValue = converted
    }

    func rebased<Outer>(onto path: WritableKeyPath<Outer, Root>) -> any PropertyLens<Outer> {
        CustomizableLens<Outer, V>(keyPath: path.appending(path: keyPath), validate: validate)
    }
}

/// Every property of a type, in display order, with lookup by name.
public struct PropertyTable<Root>: Sendable {
    public let descriptors: [PropertyDescriptor<Root>]
    private let indexByName: [String: Int]

    public init(_ descriptors: [PropertyDescriptor<Root>]) {
        self.descriptors = descriptors
        indexByName = Dictionary(uniqueKeysWithValues: descriptors.enumerated().map { ($1.name, $0) })
    }

    public subscript(name: String) -> PropertyDescriptor<Root>? { indexByName[name].map { descriptors[$0] } }

    /// The same table for a type that holds `Root` at `keyPath`, names prefixed ("textProperties.").
    public func nested<Outer>(under prefix: String, at keyPath: WritableKeyPath<Outer, Root> & Sendable)
        -> [PropertyDescriptor<Outer>]
    {
        descriptors.map { inner in
            PropertyDescriptor<Outer>(name: prefix + "." + inner.name, lens: inner.lens.rebased(onto: keyPath))
        }
    }
}

/// A type whose properties are described by a `PropertyTable`: it gets `inspectableProperties`
/// and `setting(_:to:)` from the table (and so satisfies those `ContentConfiguration` requirements).
public protocol PropertyInspectable {
    static var propertyTable: PropertyTable<Self> { get }
    var typeIdentifier: String { get }
}

extension PropertyInspectable {
    public var inspectableProperties: [InspectableProperty] {
        Self.propertyTable.descriptors.map { $0.read(self) }
    }

    /// The current value of one property, nil for an unknown name.
    public func inspectableProperty(named name: String) -> InspectableProperty? {
        Self.propertyTable[name]?.read(self)
    }

    public func setting(_ name: String, to value: PropertyValue) throws(ConfigurationPropertyError) -> Self {
        guard let descriptor = Self.propertyTable[name] else {
            throw .unknownProperty(name, typeIdentifier: typeIdentifier)
        }
        var copy = self
        try descriptor.write(&copy, value)
        return copy
    }
}

// MARK: - Conversions

extension String: PropertyValueConvertible {
    public var propertyValue: PropertyValue { .string(self) }
    public static var propertyKindName: String { "string" }
    public static func converting(_ value: PropertyValue, property: String) -> String? {
        if case .string(let s) = value { s } else { nil }
    }
}

extension Bool: PropertyValueConvertible {
    public var propertyValue: PropertyValue { .bool(self) }
    public static var propertyKindName: String { "bool" }
    public static func converting(_ value: PropertyValue, property: String) -> Bool? {
        if case .bool(let b) = value { b } else { nil }
    }
}

extension Double: PropertyValueConvertible {
    public var propertyValue: PropertyValue { .double(self) }
    public static var propertyKindName: String { "double" }
    public static func converting(_ value: PropertyValue, property: String) -> Double? {
        switch value {
        case .double(let d): d
        case .int(let i): Double(i)
        default: nil
        }
    }
}

extension Int: PropertyValueConvertible {
    public var propertyValue: PropertyValue { .int(Int64(self)) }
    public static var propertyKindName: String { "int" }
    public static func converting(_ value: PropertyValue, property: String) -> Int? {
        switch value {
        case .int(let i): Int(exactly: i)
        case .double(let d) where d == d.rounded() && abs(d) < 1e15: Int(d)
        default: nil
        }
    }
}

extension Color: PropertyValueConvertible {
    public var propertyValue: PropertyValue { .color(self) }
    public static var propertyKindName: String { "color" }
    /// Accepts a colour, a system colour name ("label") or a hex string ("#FF8800").
    public static func converting(_ value: PropertyValue, property: String) throws(ConfigurationPropertyError) -> Color? {
        switch value {
        case .color(let c): return c
        case .string(let s):
            guard let c = Color(parsing: s) else {
                throw .invalidValue(property: property, reason: "'\(s)' is neither a system colour name nor #RGB/#RRGGBB/#RRGGBBAA")
            }
            return c
        default: return nil
        }
    }
}

extension Size: PropertyValueConvertible {
    public var propertyValue: PropertyValue { .size(self) }
    public static var propertyKindName: String { "size" }
    public static func converting(_ value: PropertyValue, property: String) -> Size? {
        if case .size(let s) = value { s } else { nil }
    }
}

extension Point: PropertyValueConvertible {
    /// Points travel as sizes (width = x, height = y): the value kinds stay few.
    public var propertyValue: PropertyValue { .size(Size(width: x, height: y)) }
    public static var propertyKindName: String { "size" }
    public static func converting(_ value: PropertyValue, property: String) -> Point? {
        if case .size(let s) = value { Point(x: s.width, y: s.height) } else { nil }
    }
}

extension DirectionalEdgeInsets: PropertyValueConvertible {
    public var propertyValue: PropertyValue { .insets(self) }
    public static var propertyKindName: String { "insets" }
    /// Accepts insets, or one number for all four edges.
    public static func converting(_ value: PropertyValue, property: String) -> DirectionalEdgeInsets? {
        switch value {
        case .insets(let i): i
        case .double(let d): DirectionalEdgeInsets(all: d)
        case .int(let i): DirectionalEdgeInsets(all: Double(i))
        default: nil
        }
    }
}

extension Font: PropertyValueConvertible {
    public var propertyValue: PropertyValue { .font(self) }
    public static var propertyKindName: String { "font" }
    /// Accepts a font, a point size (system font) or a text style name ("headline", at Large).
    public static func converting(_ value: PropertyValue, property: String) throws(ConfigurationPropertyError) -> Font? {
        switch value {
        case .font(let f): return f
        case .double, .int:
            let size = Double.converting(value, property: property)!
            guard size > 0 else { throw .invalidValue(property: property, reason: "a font size must be positive") }
            return .systemFont(ofSize: size)
        case .string(let s):
            guard let style = TextStyle(rawValue: s) else {
                throw .invalidValue(property: property, reason: "'\(s)' is not a text style (\(TextStyle.allCases.map(\.rawValue).joined(separator: ", ")))")
            }
            return .preferredFont(forTextStyle: style)
        default: return nil
        }
    }
}

extension Image: PropertyValueConvertible {
    public var propertyValue: PropertyValue { .image(self) }
    public static var propertyKindName: String { "image" }
    /// Accepts an image or a string: a path (contains "/" or ends in ".png") names a PNG file,
    /// anything else a symbol.
    public static func converting(_ value: PropertyValue, property: String) throws(ConfigurationPropertyError) -> Image? {
        switch value {
        case .image(let i): return i
        case .string(let s):
            guard !s.isEmpty else { throw .invalidValue(property: property, reason: "an image name cannot be empty") }
            return s.contains("/") || s.lowercased().hasSuffix(".png") ? Image(path: s) : Image(systemName: s)
        default: return nil
        }
    }
}

extension ColorTransformer: PropertyValueConvertible {
    public var propertyValue: PropertyValue { .transformer(self) }
    public static var propertyKindName: String { "color transformer" }
    /// Accepts a transformer or the name of a built-in one.
    public static func converting(_ value: PropertyValue, property: String) throws(ConfigurationPropertyError) -> ColorTransformer? {
        switch value {
        case .transformer(let t): return t
        case .string(let s):
            guard let t = ColorTransformer.builtIn[s] else {
                throw .invalidValue(property: property, reason: "'\(s)' is not a built-in transformer (\(ColorTransformer.builtIn.keys.sorted().joined(separator: ", ")))")
            }
            return t
        default: return nil
        }
    }
}

extension Optional: PropertyValueConvertible where Wrapped: PropertyValueConvertible {
    public var propertyValue: PropertyValue { map(\.propertyValue) ?? .none }
    public static var propertyKindName: String { Wrapped.propertyKindName + " or nil" }
    public static func converting(_ value: PropertyValue, property: String) throws(ConfigurationPropertyError) -> Self? {
        if case .none = value { return .some(nil) }
        return try Wrapped.converting(value, property: property).map { .some($0) }
    }
}

/// String-backed enums travel as symbols and accept their raw value as a string or a symbol.
public protocol SymbolicPropertyValue: PropertyValueConvertible, RawRepresentable<String>, CaseIterable {}

extension SymbolicPropertyValue {
    public var propertyValue: PropertyValue { .symbolic(rawValue) }
    public static var propertyKindName: String { "one of " + allCases.map(\.rawValue).joined(separator: ", ") }
    public static func converting(_ value: PropertyValue, property: String) throws(ConfigurationPropertyError) -> Self? {
        switch value {
        case .symbolic(let s), .string(let s):
            guard let v = Self(rawValue: s) else {
                throw .invalidValue(property: property, reason: "'\(s)' is not \(propertyKindName)")
            }
            return v
        default: return nil
        }
    }
}

extension TextAlignment: SymbolicPropertyValue {}
extension LineBreakMode: SymbolicPropertyValue {}
extension ContentMode: SymbolicPropertyValue {}
