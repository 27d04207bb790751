/// Compact JSON written straight into a growing byte buffer, the bytes `JSON.serialized` gives for
/// the same values: strings escaped the same way, doubles formatted by `JSON.writeNumber`'s rules.
///
/// Trace sinks encode a record per event; building a `JSON` tree and appending its small pieces
/// to a `String` cost more than the engine's work for the event. Here a record is a run of
/// appends into one buffer, reused from record to record, whose constant parts (keys,
/// punctuation) are copied whole.
///
/// Its stored properties skip the run-time exclusivity check (`@exclusivity(unchecked)`): every
/// append reads and writes them, and a writer is only ever used by one caller at a time.
public final class JSONByteWriter {
    @exclusivity(unchecked) @usableFromInline var start: UnsafeMutablePointer<UInt8>
    @exclusivity(unchecked) @usableFromInline var capacity: Int
    /// Bytes written since the last `removeAll()`.
    @exclusivity(unchecked) @usableFromInline var used = 0
    public var count: Int { used }

    public init(capacity: Int = 4096) {
        self.capacity = max(capacity, 64)
        start = .allocate(capacity: self.capacity)
    }

    deinit { start.deallocate() }

    /// The bytes written so far, valid until the next write.
    public var bytes: UnsafeRawBufferPointer { UnsafeRawBufferPointer(start: start, count: used) }

    /// Forgets what was written and keeps the storage.
    public func removeAll() { used = 0 }

    /// Makes room for `extra` more bytes.
    @inlinable public func reserve(_ extra: Int) {
        if used + extra > capacity { grow(to: used + extra) }
    }

    @usableFromInline func grow(to needed: Int) {
        var newCapacity = capacity * 2
        while newCapacity < needed { newCapacity *= 2 }
        let bigger = UnsafeMutablePointer<UInt8>.allocate(capacity: newCapacity)
        bigger.update(from: start, count: used)
        start.deallocate()
        start = bigger
        capacity = newCapacity
    }

    @inlinable public func byte(_ b: UInt8) {
        reserve(1)
        start[used] = b
        used += 1
    }

    @inlinable public func append(_ raw: UnsafeRawBufferPointer) {
        guard let base = raw.baseAddress, raw.count > 0 else { return }
        reserve(raw.count)
        UnsafeMutableRawPointer(start + used).copyMemory(from: base, byteCount: raw.count)
        used += raw.count
    }

    /// Copies `text` as it is: keys, punctuation and other constant JSON.
    @inlinable public func raw(_ text: StaticString) {
        append(UnsafeRawBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount))
    }

    public func bool(_ value: Bool) { value ? raw("true") : raw("false") }

    public func null() { raw("null") }

    /// A decimal integer.
    public func int(_ value: Int) { int64(Int64(value)) }

    public func int64(_ value: Int64) {
        reserve(20)
        var magnitude = value.magnitude
        var digits: (UInt64, UInt64, UInt64) = (0, 0, 0)  // 24 bytes: the 20 digits of UInt64.max and a sign
        let written = withUnsafeMutableBytes(of: &digits) { buffer -> Int in
            var i = buffer.count
            repeat {
                i -= 1
                buffer[i] = UInt8(truncatingIfNeeded: magnitude % 10) + 0x30
                magnitude /= 10
            } while magnitude > 0
            if value < 0 {
                i -= 1
                buffer[i] = UInt8(ascii: "-")
            }
            UnsafeMutableRawPointer(start + used).copyMemory(from: buffer.baseAddress! + i, byteCount: buffer.count - i)
            return buffer.count - i
        }
        used += written
    }

    /// `JSON.writeNumber`'s form: a whole number below 1e15 as an integer, NaN and infinities
    /// (not JSON) as null, any other value as Swift's shortest round-trip `description`. Values
    /// with one decimal (the traces' rounded microseconds) are written without making a `String`:
    /// for them that description is the integer part, a point and the tenths digit.
    public func number(_ value: Double) {
        guard value.isFinite else { return null() }
        if value.rounded() == value && abs(value) < 1e15 { return int64(Int64(value)) }
        let tenths = (value * 10).rounded()
        if abs(value) < 1e14, tenths / 10 == value {
            let magnitude = Int64(abs(tenths))
            if value < 0 { byte(UInt8(ascii: "-")) }
            int64(magnitude / 10)
            byte(UInt8(ascii: "."))
            byte(UInt8(truncatingIfNeeded: magnitude % 10) + 0x30)
            return
        }
        var text = value.description
        text.withUTF8 { append(UnsafeRawBufferPointer($0)) }
    }

    /// `[` each element, comma-separated `]`.
    @inlinable public func array<Elements: Sequence>(_ elements: Elements, _ writeElement: (Elements.Element) -> Void) {
        byte(UInt8(ascii: "["))
        var first = true
        for element in elements {
            if !first { byte(UInt8(ascii: ",")) }
            first = false
            writeElement(element)
        }
        byte(UInt8(ascii: "]"))
    }

    /// An array of strings.
    public func strings(_ values: [String]) { array(values) { string($0) } }

    /// `text` in double quotes, escaped as `JSON.writeString` escapes it.
    public func string(_ text: String) {
        byte(UInt8(ascii: "\""))
        stringContent(text)
        byte(UInt8(ascii: "\""))
    }

    /// `text` escaped, without quotes: a string written in several pieces between `byte(0x22)`s
    /// reads as the pieces joined.
    public func stringContent(_ text: String) {
        var text = text
        text.withUTF8 { utf8 in
            var runStart = 0
            for (i, b) in utf8.enumerated() where b < 0x20 || b == 0x22 || b == 0x5C {
                append(UnsafeRawBufferPointer(rebasing: UnsafeRawBufferPointer(utf8)[runStart..<i]))
                escape(b)
                runStart = i + 1
            }
            append(UnsafeRawBufferPointer(rebasing: UnsafeRawBufferPointer(utf8)[runStart...]))
        }
    }

    private func escape(_ b: UInt8) {
        switch b {
        case 0x22: raw("\\\"")
        case 0x5C: raw("\\\\")
        case 0x0A: raw("\\n")
        case 0x0D: raw("\\r")
        case 0x09: raw("\\t")
        default:
            raw("\\u00")
            let hex: StaticString = "0123456789abcdef"
            byte(hex.utf8Start[Int(b >> 4)])
            byte(hex.utf8Start[Int(b & 0x0F)])
        }
    }
}

extension JSON {
    /// The value `write` writes, parsed: a JSON tree of what an encoder writes as bytes, for the
    /// readers and tests that want one.
    public init(written write: (JSONByteWriter) -> Void) {
        let out = JSONByteWriter()
        write(out)
        do { self = try JSON.parse(String(decoding: out.bytes, as: UTF8.self)) } catch {
            preconditionFailure("a JSON encoder wrote invalid JSON (\(error)): \(String(decoding: out.bytes, as: UTF8.self))")
        }
    }
}
