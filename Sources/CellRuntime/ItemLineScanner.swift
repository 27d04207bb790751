import CellKit
import Glibc

/// The commonest scene line, `{"item": {"id": "r1", "style": "cell", "set": {"text": "…"}}}`,
/// read straight from its bytes: a list of a million items written one per line is mostly these,
/// and building a JSON tree and then an item description from it for each was most of loading
/// it. A line is taken only when it has nothing else: an `item` object holding `id`, optionally
/// `style` and `set`, set values that are strings without escapes, whole numbers of up to 18
/// digits, `true` or `false`, and no key twice. Anything else (a note, another field, an escape,
/// a fraction, a syntax error) is not taken: the line goes through the full parser, which
/// reports its mistakes. What is taken reads exactly as the full parser reads it.
struct ItemLineScanner: Sendable {
    /// A value in `set`, as the full parser reads it (strings as byte ranges into the line).
    enum Value: Equatable, Sendable {
        case string(Range<Int>)
        case int(Int64)
        case bool(Bool)

        /// The value as the full parser reads it from `line` (the line it was scanned in).
        func propertyValue(in line: UnsafeBufferPointer<UInt8>) -> PropertyValue {
            switch self {
            case .string(let range): .string(String(decoding: UnsafeBufferPointer(rebasing: line[range]), as: UTF8.self))
            case .int(let n): .int(n)
            case .bool(let b): .bool(b)
            }
        }
    }

    /// The line last taken: byte ranges of its id, its style, and each `set` name and value.
    private(set) var id: Range<Int> = 0..<0
    private(set) var style: Range<Int>?
    private(set) var names: [Range<Int>] = []
    private(set) var values: [Value] = []

    /// Whether `line` is an item line of the common form; its parts are then in `id`, `style`,
    /// `names` and `values`.
    mutating func scan(_ line: UnsafeBufferPointer<UInt8>) -> Bool {
        names.removeAll(keepingCapacity: true)
        values.removeAll(keepingCapacity: true)
        style = nil
        var cursor = Cursor(bytes: line)
        var sawID = false, sawSet = false
        guard cursor.take("{"), cursor.key() == .item, cursor.take(":"), cursor.take("{"), !cursor.take("}") else { return false }
        repeat {
            switch cursor.key() {
            case .id?:
                guard !sawID, cursor.take(":"), let s = cursor.string() else { return false }
                id = s
                sawID = true
            case .style?:
                guard style == nil, cursor.take(":"), let s = cursor.string() else { return false }
                style = s
            case .set?:
                guard !sawSet, cursor.take(":"), scanSet(&cursor) else { return false }
                sawSet = true
            default:
                return false
            }
        } while cursor.take(",")
        return sawID && cursor.take("}") && cursor.take("}") && cursor.atEnd
    }

    /// The `set` values of the line last taken (`line`), as the full parser reads them, each
    /// made as it is iterated.
    func propertyValues(in line: UnsafeBufferPointer<UInt8>) -> PropertyValues { PropertyValues(values: values, line: line) }

    struct PropertyValues: Sequence {
        let values: [Value]
        let line: UnsafeBufferPointer<UInt8>

        func makeIterator() -> Iterator { Iterator(values: values.makeIterator(), line: line) }

        struct Iterator: IteratorProtocol {
            var values: IndexingIterator<[Value]>
            let line: UnsafeBufferPointer<UInt8>

            mutating func next() -> PropertyValue? { values.next()?.propertyValue(in: line) }
        }
    }

    /// Calls `part` with each part of the shape key of the line last taken (`line`), until it
    /// answers false: the style, then each `set` name. Each part is followed by a mark saying
    /// what it is (a style, no style, a name whose value is a string or is not), a byte no part
    /// holds (the scanner takes no control characters in strings), so the parts of two keys
    /// agree exactly when the keys do. Items whose lines have one key have one shape.
    private func forEachShapeKeyPart(in line: UnsafeBufferPointer<UInt8>, _ part: (UnsafeBufferPointer<UInt8>, UInt8) -> Bool) -> Bool {
        guard part(UnsafeBufferPointer(rebasing: line[style ?? 0..<0]), style == nil ? 2 : 3) else { return false }
        for (name, value) in zip(names, values) {
            let isString: Bool
            if case .string = value { isString = true } else { isString = false }
            guard part(UnsafeBufferPointer(rebasing: line[name]), isString ? 1 : 0) else { return false }
        }
        return true
    }

    /// The shape key of the line last taken (`line`).
    func shapeKey(in line: UnsafeBufferPointer<UInt8>) -> [UInt8] {
        var key: [UInt8] = []
        _ = forEachShapeKeyPart(in: line) { bytes, mark in
            key.append(contentsOf: bytes)
            key.append(mark)
            return true
        }
        return key
    }

    /// Whether `key` is the shape key of the line last taken (`line`), compared part by part
    /// without making the line's key.
    func hasShapeKey(_ key: [UInt8], in line: UnsafeBufferPointer<UInt8>) -> Bool {
        key.withUnsafeBufferPointer { key in
            var at = 0
            return forEachShapeKeyPart(in: line) { bytes, mark in
                guard at + bytes.count < key.count, key[at + bytes.count] == mark,
                      bytes.isEmpty || memcmp(key.baseAddress! + at, bytes.baseAddress!, bytes.count) == 0 else { return false }
                at += bytes.count + 1
                return true
            } && at == key.count
        }
    }

    private mutating func scanSet(_ cursor: inout Cursor) -> Bool {
        guard cursor.take("{") else { return false }
        if cursor.take("}") { return true }
        repeat {
            guard let name = cursor.string(), cursor.take(":") else { return false }
            let nameBytes = cursor.bytes[name]
            for other in names where cursor.bytes[other].elementsEqual(nameBytes) { return false }
            guard let value = cursor.value() else { return false }
            names.append(name)
            values.append(value)
        } while cursor.take(",")
        return cursor.take("}")
    }

    private enum Key { case item, id, style, set }

    /// The bytes of one line and a position in them.
    private struct Cursor {
        let bytes: UnsafeBufferPointer<UInt8>
        var index = 0

        init(bytes: UnsafeBufferPointer<UInt8>) { self.bytes = bytes }

        var atEnd: Bool {
            mutating get {
                skipWhitespace()
                return index == bytes.count
            }
        }

        /// The next key, if it is one of this form's (nil for any other).
        mutating func key() -> Key? {
            guard let k = string() else { return nil }
            let word = UnsafeBufferPointer(rebasing: bytes[k])
            switch k.count {
            case 2 where word.equals("id"): return .id
            case 3 where word.equals("set"): return .set
            case 4 where word.equals("item"): return .item
            case 5 where word.equals("style"): return .style
            default: return nil
            }
        }

        /// A string without escapes or control characters: the range of its contents.
        mutating func string() -> Range<Int>? {
            skipWhitespace()
            guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else { return nil }
            var end = index + 1
            while end < bytes.count {
                let b = bytes[end]
                if b == UInt8(ascii: "\"") {
                    defer { index = end + 1 }
                    return (index + 1)..<end
                }
                if b == UInt8(ascii: "\\") || b < 0x20 { return nil }
                end += 1
            }
            return nil
        }

        mutating func value() -> Value? {
            skipWhitespace()
            guard index < bytes.count else { return nil }
            switch bytes[index] {
            case UInt8(ascii: "\""): return string().map(Value.string)
            case UInt8(ascii: "t"): return word("true") ? .bool(true) : nil
            case UInt8(ascii: "f"): return word("false") ? .bool(false) : nil
            default: return integer().map(Value.int)
            }
        }

        /// `-`? then 1…18 digits, not followed by a fraction or an exponent.
        private mutating func integer() -> Int64? {
            var i = index
            let negative = bytes[i] == UInt8(ascii: "-")
            if negative { i += 1 }
            let first = i
            var value: Int64 = 0
            while i < bytes.count, bytes[i] >= 0x30, bytes[i] <= 0x39 {
                guard i - first < 18 else { return nil }
                value = value * 10 + Int64(bytes[i] - 0x30)
                i += 1
            }
            guard i > first else { return nil }
            if i < bytes.count, bytes[i] == UInt8(ascii: ".") || bytes[i] == UInt8(ascii: "e") || bytes[i] == UInt8(ascii: "E") {
                return nil
            }
            index = i
            return negative ? -value : value
        }

        private mutating func word(_ w: StaticString) -> Bool {
            let n = w.utf8CodeUnitCount
            guard index + n <= bytes.count, w.withUTF8Buffer({ $0.elementsEqual(bytes[index..<index + n]) }) else { return false }
            index += n
            return true
        }

        /// Skips whitespace, then takes `c` if it is next.
        mutating func take(_ c: Unicode.Scalar) -> Bool {
            skipWhitespace()
            guard index < bytes.count, bytes[index] == UInt8(ascii: c) else { return false }
            index += 1
            return true
        }

        private mutating func skipWhitespace() {
            while index < bytes.count, bytes[index] == 0x20 || bytes[index] == 0x09 || bytes[index] == 0x0A || bytes[index] == 0x0D {
                index += 1
            }
        }
    }
}
