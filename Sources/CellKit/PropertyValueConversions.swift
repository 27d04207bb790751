/// How model values travel as `PropertyValue`s: what each type reads as, and which spellings
/// (names, numbers, strings) a set by name accepts for it.

extension PropertyValue {
    /// An int or double as a double, unbounded (point sizes have bounds of their own); nil otherwise.
    var number: Double? {
        switch self {
        case .double(let d): d
        case .int(let i): Double(i)
        default: nil
        }
    }
}

extension String: PropertyValueConvertible {
    public var propertyValue: PropertyValue { .string(self) }
    public static var propertyKindName: String { "string" }
    public static func converting(_ value: PropertyValue, property: String) throws(ConfigurationPropertyError) -> String? {
        guard case .string(let s) = value else { return nil }
        if let problem = ValueBounds.textProblem(bytes: s.utf8.count) { throw .invalidValue(property: property, reason: problem) }
        return s
    }
    public static func acceptsEveryString(upToBytes byteCount: Int) -> Bool {
        ValueBounds.textProblem(bytes: byteCount) == nil
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
    /// Every double the host's configurations hold is a length, a factor or an alpha, so one
    /// bound serves (`ValueBounds.configuredNumber`).
    public static func converting(_ value: PropertyValue, property: String) throws(ConfigurationPropertyError) -> Double? {
        let d: Double
        switch value {
        case .double(let v): d = v
        case .int(let i): d = Double(i)
        default: return nil
        }
        if let problem = ValueBounds.configuredProblem(d) { throw .invalidValue(property: property, reason: problem) }
        return d
    }
}

extension Int: PropertyValueConvertible {
    public var propertyValue: PropertyValue { .int(Int64(self)) }
    public static var propertyKindName: String { "int" }
    /// The host's integer properties count lines and the like, held to `ValueBounds.configuredNumber` too.
    public static func converting(_ value: PropertyValue, property: String) throws(ConfigurationPropertyError) -> Int? {
        let i: Int?
        switch value {
        case .int(let v): i = Int(exactly: v)
        case .double(let d) where d == d.rounded() && abs(d) < 1e15: i = Int(d)
        default: return nil
        }
        if let i, let problem = ValueBounds.countProblem(i) { throw .invalidValue(property: property, reason: problem) }
        return i
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
    public static func converting(_ value: PropertyValue, property: String) throws(ConfigurationPropertyError) -> Size? {
        guard case .size(let s) = value else { return nil }
        if let problem = ValueBounds.configuredProblem(s.width).map({ "width " + $0 }) ?? ValueBounds.configuredProblem(s.height).map({ "height " + $0 }) {
            throw .invalidValue(property: property, reason: problem)
        }
        return s
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
    public static func converting(_ value: PropertyValue, property: String) throws(ConfigurationPropertyError) -> DirectionalEdgeInsets? {
        let insets: DirectionalEdgeInsets
        switch value {
        case .insets(let i): insets = i
        case .double(let d): insets = DirectionalEdgeInsets(all: d)
        case .int(let i): insets = DirectionalEdgeInsets(all: Double(i))
        default: return nil
        }
        for (edge, length) in [("top", insets.top), ("leading", insets.leading), ("bottom", insets.bottom), ("trailing", insets.trailing)] {
            if let problem = ValueBounds.configuredProblem(length) { throw .invalidValue(property: property, reason: "\(edge) \(problem)") }
        }
        return insets
    }
}

extension Font: PropertyValueConvertible {
    public var propertyValue: PropertyValue { .font(self) }
    public static var propertyKindName: String { "font" }
    /// Accepts a font, a point size (system font) or a text style name ("headline", at Large).
    public static func converting(_ value: PropertyValue, property: String) throws(ConfigurationPropertyError) -> Font? {
        switch value {
        case .font(let f):
            if let problem = ValueBounds.pointSizeProblem(f.pointSize) { throw .invalidValue(property: property, reason: "point size " + problem) }
            return f
        case .double, .int:
            let size = value.number!
            guard size > 0 else { throw .invalidValue(property: property, reason: "a font size must be positive") }
            if let problem = ValueBounds.pointSizeProblem(size) { throw .invalidValue(property: property, reason: "point size " + problem) }
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
    /// A switch, not `map(\.propertyValue)`: a key path in a generic context is built at run time
    /// on every read, and every trace reads every property.
    public var propertyValue: PropertyValue {
        switch self {
        case .some(let wrapped): wrapped.propertyValue
        case .none: .none
        }
    }
    public static var propertyKindName: String { Wrapped.propertyKindName + " or nil" }
    public static func converting(_ value: PropertyValue, property: String) throws(ConfigurationPropertyError) -> Self? {
        if case .none = value { return .some(nil) }
        return try Wrapped.converting(value, property: property).map { .some($0) }
    }
    public static func acceptsEveryString(upToBytes byteCount: Int) -> Bool {
        Wrapped.acceptsEveryString(upToBytes: byteCount)
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
