/// The commonest event line, `{"cell": "<id>", "<state>": true}` (or `false`), read straight from
/// its bytes: a stream of state changes is mostly such lines, and the general reading builds a
/// JSON tree and checks every event key for them. Only a line that is exactly that shape is
/// recognised — the keys in that order, spaces or tabs between tokens, an id of printable ASCII
/// without escapes, a boolean state a cell takes — and any other line, valid or not, is left to
/// the general reading (nil), so what a line means and every error it gets stay the general
/// reading's.
struct SmallEventLine {
    let id: String
    let state: StateChange

    /// The change of the boolean state a cell takes named `key` (`pinned` is a header's or
    /// footer's, and the general reading refuses it on a cell); nil for any other key.
    private static func change(_ key: UnsafeBufferPointer<UInt8>, to value: Bool) -> StateChange? {
        var change = StateChange()
        switch key.count {
        case 11 where key.equals("highlighted"): change.highlighted = value
        case 8 where key.equals("selected"): change.selected = value
        case 8 where key.equals("disabled"): change.disabled = value
        case 7 where key.equals("focused"): change.focused = value
        case 7 where key.equals("editing"): change.editing = value
        case 8 where key.equals("expanded"): change.expanded = value
        case 6 where key.equals("swiped"): change.swiped = value
        case 10 where key.equals("reordering"): change.reordering = value
        default: return nil
        }
        return change
    }

    init?(_ line: UnsafeBufferPointer<UInt8>) {
        var scanner = Scanner(bytes: line)
        guard scanner.take(UInt8(ascii: "{")), let cellKey = scanner.string(), cellKey.equals("cell"),
              scanner.take(UInt8(ascii: ":")), let id = scanner.string(), !id.isEmpty,
              scanner.take(UInt8(ascii: ",")), let key = scanner.string(), scanner.take(UInt8(ascii: ":")),
              let value = scanner.bool(), scanner.take(UInt8(ascii: "}")), scanner.isAtEnd,
              let state = Self.change(key, to: value)
        else { return nil }
        self.id = String(decoding: id, as: UTF8.self)
        self.state = state
    }

    /// Tokens over the line's bytes; every step skips the spaces and tabs before its token.
    private struct Scanner {
        let bytes: UnsafeBufferPointer<UInt8>
        var offset = 0

        var isAtEnd: Bool {
            mutating get {
                skipBlanks()
                return offset == bytes.count
            }
        }

        private mutating func skipBlanks() {
            while offset < bytes.count, bytes[offset] == UInt8(ascii: " ") || bytes[offset] == UInt8(ascii: "\t") { offset += 1 }
        }

        mutating func take(_ byte: UInt8) -> Bool {
            skipBlanks()
            guard offset < bytes.count, bytes[offset] == byte else { return false }
            offset += 1
            return true
        }

        /// A string's bytes when it holds printable ASCII only, without escapes.
        mutating func string() -> UnsafeBufferPointer<UInt8>? {
            guard take(UInt8(ascii: "\"")) else { return nil }
            let start = offset
            while offset < bytes.count {
                let b = bytes[offset]
                if b == UInt8(ascii: "\"") {
                    offset += 1
                    return UnsafeBufferPointer(rebasing: bytes[start..<(offset - 1)])
                }
                guard b >= 0x20, b < 0x7F, b != UInt8(ascii: "\\") else { return nil }
                offset += 1
            }
            return nil
        }

        mutating func bool() -> Bool? {
            skipBlanks()
            if word("true") { return true }
            if word("false") { return false }
            return nil
        }

        private mutating func word(_ word: StaticString) -> Bool {
            let n = word.utf8CodeUnitCount
            guard bytes.count - offset >= n else { return false }
            for i in 0..<n where bytes[offset + i] != word.utf8Start[i] { return false }
            offset += n
            return true
        }
    }
}
