/// A property of a `PluginCell`, by name and key path; the key path's type picks the encoding.
public struct CellProperty<Cell>: Sendable {
    enum Access: @unchecked Sendable {
        case bool(WritableKeyPath<Cell, Bool>)
        case int64(WritableKeyPath<Cell, Int64>)
        case double(WritableKeyPath<Cell, Double>)
        case string(WritableKeyPath<Cell, String>)
        case color(WritableKeyPath<Cell, cellhost_color>)
        case size(WritableKeyPath<Cell, cellhost_size>)
        case insets(WritableKeyPath<Cell, cellhost_insets>)
        case transformer(WritableKeyPath<Cell, cellhost_color_transformer?>)

        var encoding: String {
            switch self {
            case .bool: "B"
            case .int64: "q"
            case .double: "d"
            case .string: "*"
            case .color: "{Color=dddd}"
            case .size: "{Size=dd}"
            case .insets: "{Insets=dddd}"
            case .transformer: "@T"
            }
        }

        /// Copies this property's value from `source` into `target` (restoring a locked value).
        func copy(from source: Cell, into target: inout Cell) {
            switch self {
            case .bool(let k): target[keyPath: k] = source[keyPath: k]
            case .int64(let k): target[keyPath: k] = source[keyPath: k]
            case .double(let k): target[keyPath: k] = source[keyPath: k]
            case .string(let k): target[keyPath: k] = source[keyPath: k]
            case .color(let k): target[keyPath: k] = source[keyPath: k]
            case .size(let k): target[keyPath: k] = source[keyPath: k]
            case .insets(let k): target[keyPath: k] = source[keyPath: k]
            case .transformer(let k): target[keyPath: k] = source[keyPath: k]
            }
        }
    }

    public let name: String
    let access: Access

    public static func bool(_ name: String, _ keyPath: WritableKeyPath<Cell, Bool>) -> Self { Self(name: name, access: .bool(keyPath)) }
    public static func int64(_ name: String, _ keyPath: WritableKeyPath<Cell, Int64>) -> Self { Self(name: name, access: .int64(keyPath)) }
    public static func double(_ name: String, _ keyPath: WritableKeyPath<Cell, Double>) -> Self { Self(name: name, access: .double(keyPath)) }
    public static func string(_ name: String, _ keyPath: WritableKeyPath<Cell, String>) -> Self { Self(name: name, access: .string(keyPath)) }
    public static func color(_ name: String, _ keyPath: WritableKeyPath<Cell, cellhost_color>) -> Self { Self(name: name, access: .color(keyPath)) }
    public static func size(_ name: String, _ keyPath: WritableKeyPath<Cell, cellhost_size>) -> Self { Self(name: name, access: .size(keyPath)) }
    public static func insets(_ name: String, _ keyPath: WritableKeyPath<Cell, cellhost_insets>) -> Self { Self(name: name, access: .insets(keyPath)) }
    public static func transformer(_ name: String, _ keyPath: WritableKeyPath<Cell, cellhost_color_transformer?>) -> Self {
        Self(name: name, access: .transformer(keyPath))
    }
}

/// An action of a `PluginCell`: a named mutation with typed arguments. Return false to refuse
/// the arguments (log why with `Host.log`). Supported argument lists: none, (Int64), (Double),
/// (Bool), (String), (Double, Bool).
public struct CellAction<Cell>: Sendable {
    enum Body: @unchecked Sendable {
        case none((inout Cell) -> Bool)
        case int64((inout Cell, Int64) -> Bool)
        case double((inout Cell, Double) -> Bool)
        case bool((inout Cell, Bool) -> Bool)
        case string((inout Cell, String) -> Bool)
        case doubleBool((inout Cell, Double, Bool) -> Bool)

        var encoding: String {
            switch self {
            case .none: ""
            case .int64: "q"
            case .double: "d"
            case .bool: "B"
            case .string: "*"
            case .doubleBool: "dB"
            }
        }
    }

    public let name: String
    let argumentNames: [String]
    let body: Body

    public static func action(_ name: String, _ body: @escaping (inout Cell) -> Bool) -> Self {
        Self(name: name, argumentNames: [], body: .none(body))
    }
    public static func action(_ name: String, argument: String, _ body: @escaping (inout Cell, Int64) -> Bool) -> Self {
        Self(name: name, argumentNames: [argument], body: .int64(body))
    }
    public static func action(_ name: String, argument: String, _ body: @escaping (inout Cell, Double) -> Bool) -> Self {
        Self(name: name, argumentNames: [argument], body: .double(body))
    }
    public static func action(_ name: String, argument: String, _ body: @escaping (inout Cell, Bool) -> Bool) -> Self {
        Self(name: name, argumentNames: [argument], body: .bool(body))
    }
    public static func action(_ name: String, argument: String, _ body: @escaping (inout Cell, String) -> Bool) -> Self {
        Self(name: name, argumentNames: [argument], body: .string(body))
    }
    public static func action(_ name: String, arguments first: String, _ second: String,
                              _ body: @escaping (inout Cell, Double, Bool) -> Bool) -> Self {
        Self(name: name, argumentNames: [first, second], body: .doubleBool(body))
    }
}
