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
    /// Text in runs with their own attributes (a plain string travels as `.string`).
    case attributed(AttributedText)
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
        case .attributed: "attributed text"
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
        case .attributed(let a): a.description
        case .symbolic(let s): s
        }
    }
}
