/// A small JSON value with ordered object keys, its parser and its writer.
///
/// Event streams are written by hand and traces are read by people: keys keep the order they were
/// written in, numbers keep whether they were integers, and parse errors carry a column so a
/// stream's author sees exactly where a line went wrong. Foundation's `JSONSerialization` loses all
/// three (and on Linux turns `true` into a number), so cellhost reads and writes JSON itself.
public enum JSON: Hashable, Sendable {
    case null
    case bool(Bool)
    case int(Int64)
    case double(Double)
    case string(String)
    case array([JSON])
    /// Key/value pairs in source order. Duplicate keys are rejected by the parser.
    case object([(String, JSON)])

    public static func == (a: JSON, b: JSON) -> Bool {
        switch (a, b) {
        case (.null, .null): true
        case (.bool(let x), .bool(let y)): x == y
        case (.int(let x), .int(let y)): x == y
        case (.double(let x), .double(let y)): x == y
        case (.int(let x), .double(let y)), (.double(let y), .int(let x)): Double(x) == y
        case (.string(let x), .string(let y)): x == y
        case (.array(let x), .array(let y)): x == y
        case (.object(let x), .object(let y)):
            x.count == y.count && zip(x, y).allSatisfy { $0.0 == $1.0 && $0.1 == $1.1 }
        default: false
        }
    }

    public func hash(into hasher: inout Hasher) {
        switch self {
        case .null: hasher.combine(0)
        case .bool(let b): hasher.combine(b)
        case .int(let i): hasher.combine(Double(i))
        case .double(let d): hasher.combine(d)
        case .string(let s): hasher.combine(s)
        case .array(let a): hasher.combine(a)
        case .object(let o): for (k, v) in o { hasher.combine(k); hasher.combine(v) }
        }
    }

    public subscript(key: String) -> JSON? {
        if case .object(let pairs) = self { return pairs.first(where: { $0.0 == key })?.1 }
        return nil
    }

    public var objectPairs: [(String, JSON)]? { if case .object(let o) = self { o } else { nil } }
    public var arrayValue: [JSON]? { if case .array(let a) = self { a } else { nil } }
    public var stringValue: String? { if case .string(let s) = self { s } else { nil } }
    public var boolValue: Bool? { if case .bool(let b) = self { b } else { nil } }
    public var intValue: Int64? {
        switch self {
        case .int(let i): i
        case .double(let d) where d.rounded() == d && abs(d) < 9e15: Int64(d)
        default: nil
        }
    }
    public var doubleValue: Double? {
        switch self {
        case .int(let i): Double(i)
        case .double(let d): d
        default: nil
        }
    }

    /// How error messages name the kind of a value.
    public var kindName: String {
        switch self {
        case .null: "null"
        case .bool: "a boolean"
        case .int, .double: "a number"
        case .string: "a string"
        case .array: "an array"
        case .object: "an object"
        }
    }
}

// MARK: - Parsing

/// Where and why a JSON text is not valid; `column` counts characters from 1.
public struct JSONSyntaxError: Error, Hashable, Sendable, CustomStringConvertible {
    public var column: Int
    public var reason: String
    public var description: String { "column \(column): \(reason)" }
}

extension JSON {
    /// Parses one complete JSON text (one line of a JSON Lines file).
    public static func parse(_ text: String) throws(JSONSyntaxError) -> JSON {
        var text = text
        return try text.withUTF8 { parse(utf8: $0) }.get()
    }

    /// Parses one complete JSON text given as its UTF-8 bytes, read in place.
    public static func parse(utf8 bytes: UnsafeBufferPointer<UInt8>) -> Result<JSON, JSONSyntaxError> {
        var parser = JSONParser(bytes: bytes)
        return Result { () throws(JSONSyntaxError) in try parser.parseDocument() }
    }
}

/// A recursive-descent parser over a text's UTF-8 bytes. Strings without escapes and integers
/// are read straight from the bytes; only escapes, fractions and exponents take slower paths.
private struct JSONParser {
    let bytes: UnsafeBufferPointer<UInt8>
    var index = 0
    var depth = 0

    init(bytes: UnsafeBufferPointer<UInt8>) { self.bytes = bytes }

    /// Character column of the byte at `index` (UTF-8 continuation bytes do not count).
    func column(at position: Int) -> Int {
        var column = 1
        var i = 0
        while i < position && i < bytes.count {
            if bytes[i] & 0xC0 != 0x80 { column += 1 }
            i += 1
        }
        return column
    }

    func fail(_ reason: String, at position: Int? = nil) -> JSONSyntaxError {
        JSONSyntaxError(column: column(at: position ?? index), reason: reason)
    }

    mutating func parseDocument() throws(JSONSyntaxError) -> JSON {
        skipWhitespace()
        guard index < bytes.count else { throw fail("the line is empty") }
        let value = try parseValue()
        skipWhitespace()
        if index < bytes.count { throw fail("unexpected \(describe(bytes[index])) after the end of the value") }
        return value
    }

    mutating func skipWhitespace() {
        while index < bytes.count, bytes[index] == 0x20 || bytes[index] == 0x09 || bytes[index] == 0x0A || bytes[index] == 0x0D {
            index += 1
        }
    }

    func describe(_ byte: UInt8) -> String {
        if byte >= 0x20 && byte < 0x7F { return "'\(Character(Unicode.Scalar(byte)))'" }
        return "byte 0x\(String(byte, radix: 16))"
    }

    mutating func parseValue() throws(JSONSyntaxError) -> JSON {
        guard index < bytes.count else { throw fail("the line ends where a value should be") }
        switch bytes[index] {
        case UInt8(ascii: "{"): return try parseObject()
        case UInt8(ascii: "["): return try parseArray()
        case UInt8(ascii: "\""): return .string(try parseString())
        case UInt8(ascii: "t"): try expectWord("true"); return .bool(true)
        case UInt8(ascii: "f"): try expectWord("false"); return .bool(false)
        case UInt8(ascii: "n"): try expectWord("null"); return .null
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return try parseNumber()
        case UInt8(ascii: "'"): throw fail("strings take double quotes, not single quotes")
        default: throw fail("expected a value, found \(describe(bytes[index]))")
        }
    }

    mutating func expectWord(_ word: StaticString) throws(JSONSyntaxError) {
        let start = index
        let count = word.utf8CodeUnitCount
        let matches = word.withUTF8Buffer { w in
            index + count <= bytes.count && (0..<count).allSatisfy { bytes[index + $0] == w[$0] }
        }
        guard matches else {
            var end = index
            while end < bytes.count, (bytes[end] >= 0x61 && bytes[end] <= 0x7A) || (bytes[end] >= 0x41 && bytes[end] <= 0x5A) {
                end += 1
            }
            let found = String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<min(bytes.count, max(end, start + 1))]), as: UTF8.self)
            throw fail("'\(found)' is not a JSON value (strings need double quotes)", at: start)
        }
        index += count
    }

    mutating func parseObject() throws(JSONSyntaxError) -> JSON {
        depth += 1
        defer { depth -= 1 }
        guard depth < 64 else { throw fail("nesting deeper than 64 levels") }
        index += 1
        var pairs: [(String, JSON)] = []
        skipWhitespace()
        if index < bytes.count, bytes[index] == UInt8(ascii: "}") { index += 1; return .object(pairs) }
        while true {
            skipWhitespace()
            guard index < bytes.count else { throw fail("the line ends inside an object (missing '}')") }
            guard bytes[index] == UInt8(ascii: "\"") else {
                throw fail("expected a key in double quotes, found \(describe(bytes[index]))")
            }
            let keyStart = index
            let key = try parseString()
            if pairs.contains(where: { $0.0 == key }) { throw fail("key \"\(key)\" appears twice", at: keyStart) }
            skipWhitespace()
            guard index < bytes.count, bytes[index] == UInt8(ascii: ":") else {
                throw fail("expected ':' after key \"\(key)\"")
            }
            index += 1
            skipWhitespace()
            pairs.append((key, try parseValue()))
            skipWhitespace()
            guard index < bytes.count else { throw fail("the line ends inside an object (missing '}')") }
            if bytes[index] == UInt8(ascii: ",") {
                index += 1
                skipWhitespace()
                if index < bytes.count, bytes[index] == UInt8(ascii: "}") { throw fail("trailing ',' before '}'") }
                continue
            }
            if bytes[index] == UInt8(ascii: "}") { index += 1; return .object(pairs) }
            throw fail("expected ',' or '}' in an object, found \(describe(bytes[index]))")
        }
    }

    mutating func parseArray() throws(JSONSyntaxError) -> JSON {
        depth += 1
        defer { depth -= 1 }
        guard depth < 64 else { throw fail("nesting deeper than 64 levels") }
        index += 1
        var values: [JSON] = []
        skipWhitespace()
        if index < bytes.count, bytes[index] == UInt8(ascii: "]") { index += 1; return .array(values) }
        while true {
            skipWhitespace()
            values.append(try parseValue())
            skipWhitespace()
            guard index < bytes.count else { throw fail("the line ends inside an array (missing ']')") }
            if bytes[index] == UInt8(ascii: ",") {
                index += 1
                skipWhitespace()
                if index < bytes.count, bytes[index] == UInt8(ascii: "]") { throw fail("trailing ',' before ']'") }
                continue
            }
            if bytes[index] == UInt8(ascii: "]") { index += 1; return .array(values) }
            throw fail("expected ',' or ']' in an array, found \(describe(bytes[index]))")
        }
    }

    mutating func parseString() throws(JSONSyntaxError) -> String {
        let start = index
        index += 1
        // The common string: no escape, decoded from the bytes in one go.
        var end = index
        while end < bytes.count {
            let b = bytes[end]
            if b == UInt8(ascii: "\"") {
                index = end + 1
                return String(decoding: UnsafeBufferPointer(rebasing: bytes[(start + 1)..<end]), as: UTF8.self)
            }
            if b == UInt8(ascii: "\\") || b < 0x20 { break }
            end += 1
        }
        // Escapes: the string's UTF-8 is assembled, then decoded once. Each escape adds a whole
        // scalar, so invalid bytes between escapes are replaced exactly as they would be alone.
        var utf8: [UInt8] = []
        utf8.reserveCapacity(end - index + 16)
        while index < bytes.count {
            let b = bytes[index]
            if b == UInt8(ascii: "\"") {
                index += 1
                return String(decoding: utf8, as: UTF8.self)
            }
            if b < 0x20 { throw fail("control character inside a string (escape it)") }
            if b == UInt8(ascii: "\\") {
                index += 1
                guard index < bytes.count else { break }
                let e = bytes[index]
                index += 1
                switch e {
                case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): utf8.append(e)
                case UInt8(ascii: "b"): utf8.append(0x08)
                case UInt8(ascii: "f"): utf8.append(0x0C)
                case UInt8(ascii: "n"): utf8.append(0x0A)
                case UInt8(ascii: "r"): utf8.append(0x0D)
                case UInt8(ascii: "t"): utf8.append(0x09)
                case UInt8(ascii: "u"):
                    var code = try parseHex4()
                    if (0xD800..<0xDC00).contains(code) {
                        guard index + 1 < bytes.count, bytes[index] == UInt8(ascii: "\\"), bytes[index + 1] == UInt8(ascii: "u")
                        else { throw fail("unpaired surrogate in \\u escape") }
                        index += 2
                        let low = try parseHex4()
                        guard (0xDC00..<0xE000).contains(low) else { throw fail("unpaired surrogate in \\u escape") }
                        code = 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00)
                    }
                    guard let scalar = Unicode.Scalar(code) else { throw fail("invalid \\u escape") }
                    utf8.append(contentsOf: UTF8.encode(scalar)!)
                default: throw fail("unknown escape '\\\(Character(Unicode.Scalar(e)))'", at: index - 2)
                }
                continue
            }
            utf8.append(b)
            index += 1
        }
        throw fail("string not closed (missing '\"')", at: start)
    }

    mutating func parseHex4() throws(JSONSyntaxError) -> UInt32 {
        guard index + 4 <= bytes.count else { throw fail("incomplete \\u escape") }
        var v: UInt32 = 0
        for _ in 0..<4 {
            let b = bytes[index]
            let d: UInt32
            switch b {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): d = UInt32(b - UInt8(ascii: "0"))
            case UInt8(ascii: "a")...UInt8(ascii: "f"): d = UInt32(b - UInt8(ascii: "a") + 10)
            case UInt8(ascii: "A")...UInt8(ascii: "F"): d = UInt32(b - UInt8(ascii: "A") + 10)
            default: throw fail("invalid hex digit in \\u escape")
            }
            v = v * 16 + d
            index += 1
        }
        return v
    }

    mutating func parseNumber() throws(JSONSyntaxError) -> JSON {
        let start = index
        var isInteger = true
        if bytes[index] == UInt8(ascii: "-") { index += 1 }
        func digits(_ p: inout JSONParser) -> Int {
            let s = p.index
            while p.index < p.bytes.count, p.bytes[p.index] >= 0x30, p.bytes[p.index] <= 0x39 { p.index += 1 }
            return p.index - s
        }
        guard digits(&self) > 0 else { throw fail("expected digits in a number", at: start) }
        if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
            isInteger = false
            index += 1
            guard digits(&self) > 0 else { throw fail("expected digits after '.'") }
        }
        if index < bytes.count, bytes[index] == UInt8(ascii: "e") || bytes[index] == UInt8(ascii: "E") {
            isInteger = false
            index += 1
            if index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") { index += 1 }
            guard digits(&self) > 0 else { throw fail("expected digits in the exponent") }
        }
        // Up to 18 digits cannot overflow an Int64: read them directly.
        let negative = bytes[start] == UInt8(ascii: "-")
        if isInteger, index - start - (negative ? 1 : 0) <= 18 {
            var value: Int64 = 0
            for i in (start + (negative ? 1 : 0))..<index { value = value * 10 + Int64(bytes[i] - 0x30) }
            return .int(negative ? -value : value)
        }
        let text = String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<index]), as: UTF8.self)
        if isInteger, let i = Int64(text) { return .int(i) }
        guard let d = Double(text) else { throw fail("'\(text)' is not a number", at: start) }
        return .double(d)
    }
}

// MARK: - Writing

extension JSON {
    /// Compact single-line JSON, keys in order: one JSON Lines record.
    public var serialized: String {
        var out = ""
        write(to: &out)
        return out
    }

    public func write(to out: inout String) {
        switch self {
        case .null: out += "null"
        case .bool(let b): out += b ? "true" : "false"
        case .int(let i): out += String(i)
        case .double(let d): JSON.writeNumber(d, to: &out)
        case .string(let s): JSON.writeString(s, to: &out)
        case .array(let values):
            out += "["
            for (i, v) in values.enumerated() {
                if i > 0 { out += "," }
                v.write(to: &out)
            }
            out += "]"
        case .object(let pairs):
            out += "{"
            for (i, (k, v)) in pairs.enumerated() {
                if i > 0 { out += "," }
                JSON.writeString(k, to: &out)
                out += ":"
                v.write(to: &out)
            }
            out += "}"
        }
    }

    /// Doubles without a fraction print as integers; NaN and infinities (not JSON) print as null.
    public static func writeNumber(_ d: Double, to out: inout String) {
        guard d.isFinite else { out += "null"; return }
        if d.rounded() == d && abs(d) < 1e15 { out += String(Int64(d)) } else { out += String(d) }
    }

    public static func writeString(_ s: String, to out: inout String) {
        out += "\""
        var needsEscape = false
        for b in s.utf8 where b < 0x20 || b == 0x22 || b == 0x5C { needsEscape = true; break }
        if !needsEscape {
            out += s
        } else {
            for scalar in s.unicodeScalars {
                switch scalar {
                case "\"": out += "\\\""
                case "\\": out += "\\\\"
                case "\n": out += "\\n"
                case "\r": out += "\\r"
                case "\t": out += "\\t"
                case let c where c.value < 0x20:
                    let hex = String(c.value, radix: 16)
                    out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
                default: out.unicodeScalars.append(scalar)
                }
            }
        }
        out += "\""
    }
}
