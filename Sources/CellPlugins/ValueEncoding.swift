import CFFI

/// One value type of the plugin ABI, as its type encoding names it ("q", "{Color=dddd}", …).
/// Encodings are parsed once, when a plugin loads; calls then use the parsed form.
public enum ValueEncoding: String, Hashable, Sendable, CaseIterable, CustomStringConvertible {
    case bool = "B"
    case int64 = "q"
    case double = "d"
    case string = "*"
    case color = "{Color=dddd}"
    case size = "{Size=dd}"
    case insets = "{Insets=dddd}"
    case transformer = "@T"

    public var description: String { rawValue }

    /// The C type a plugin author writes for it, for signatures in `inspect`.
    public var cTypeName: String {
        switch self {
        case .bool: "bool"
        case .int64: "int64_t"
        case .double: "double"
        case .string: "const char *"
        case .color: "cellhost_color"
        case .size: "cellhost_size"
        case .insets: "cellhost_insets"
        case .transformer: "cellhost_color_transformer"
        }
    }

    /// The `PropertyValue.kindName` of the values it takes.
    public var kindName: String {
        switch self {
        case .bool: "bool"
        case .int64: "int"
        case .double: "double"
        case .string: "string"
        case .color: "color"
        case .size: "size"
        case .insets: "insets"
        case .transformer: "color transformer"
        }
    }

    /// Parses a concatenation of encodings ("dB" → [.double, .bool]).
    /// Throws the offending remainder when something does not parse.
    public static func parseList(_ text: String) throws(EncodingParseError) -> [ValueEncoding] {
        if let list = parseASCII(text) { return list }
        var rest = Substring(text)
        var result: [ValueEncoding] = []
        while !rest.isEmpty {
            guard let match = allCases.first(where: { rest.hasPrefix($0.rawValue) }) else {
                throw EncodingParseError(encoding: text, remainder: String(rest))
            }
            result.append(match)
            rest = rest.dropFirst(match.rawValue.count)
        }
        return result
    }

    /// The encodings of `text` matched on UTF-8 bytes (every encoding is ASCII), or nil when
    /// something does not match: then `parseList` takes the `Character` path, whose remainder
    /// the error quotes.
    private static func parseASCII(_ text: String) -> [ValueEncoding]? {
        var result: [ValueEncoding] = []
        var rest = text.utf8[...]
        while let first = rest.first {
            let match: ValueEncoding? = switch first {
            case UInt8(ascii: "B"): .bool
            case UInt8(ascii: "q"): .int64
            case UInt8(ascii: "d"): .double
            case UInt8(ascii: "*"): .string
            case UInt8(ascii: "@"): .transformer
            case UInt8(ascii: "{"): [ValueEncoding.color, .size, .insets].first { rest.starts(with: $0.rawValue.utf8) }
            default: nil
            }
            guard let match, rest.starts(with: match.rawValue.utf8) else { return nil }
            result.append(match)
            rest = rest.dropFirst(match.rawValue.utf8.count)
        }
        return result
    }

    /// Parses exactly one encoding.
    public static func parseSingle(_ text: String) throws(EncodingParseError) -> ValueEncoding {
        if let encoding = ValueEncoding(rawValue: text) { return encoding }
        let list = try parseList(text)
        guard list.count == 1 else { throw EncodingParseError(encoding: text, remainder: list.isEmpty ? "" : text) }
        return list[0]
    }

    /// The libffi description of the C type.
    var ffiType: UnsafeMutablePointer<ffi_type> {
        switch self {
        case .bool: cffi_type_uint8()
        case .int64: cffi_type_sint64()
        case .double: cffi_type_double()
        case .string, .transformer: cffi_type_pointer()
        case .color, .insets: FFIStructTypes.shared.fourDoubles
        case .size: FFIStructTypes.shared.twoDoubles
        }
    }
}

public struct EncodingParseError: Error, Hashable, Sendable, CustomStringConvertible {
    public var encoding: String
    public var remainder: String
    public var description: String {
        remainder.isEmpty
            ? "encoding \"\(encoding)\" must name exactly one type"
            : "encoding \"\(encoding)\" does not parse at \"\(remainder)\" (known: B q d * {Color=dddd} {Size=dd} {Insets=dddd} @T)"
    }
}

/// The `ffi_type`s of the by-value structs, built once. Colour and insets are both four doubles.
final class FFIStructTypes: @unchecked Sendable {
    static let shared = FFIStructTypes()
    let fourDoubles: UnsafeMutablePointer<ffi_type>
    let twoDoubles: UnsafeMutablePointer<ffi_type>

    private init() {
        fourDoubles = FFIStructTypes.makeStruct(doubles: 4)
        twoDoubles = FFIStructTypes.makeStruct(doubles: 2)
    }

    /// A struct of `doubles` doubles; the element list is NULL-terminated as libffi wants.
    /// Lives until the process ends (cifs point into it).
    private static func makeStruct(doubles: Int) -> UnsafeMutablePointer<ffi_type> {
        let elements = UnsafeMutablePointer<UnsafeMutablePointer<ffi_type>?>.allocate(capacity: doubles + 1)
        for i in 0..<doubles { elements[i] = cffi_type_double() }
        elements[doubles] = nil
        let type = UnsafeMutablePointer<ffi_type>.allocate(capacity: 1)
        type.initialize(to: ffi_type())
        type.pointee.size = 0
        type.pointee.alignment = 0
        type.pointee.type = cffi_struct_type_id()
        type.pointee.elements = elements
        return type
    }
}
