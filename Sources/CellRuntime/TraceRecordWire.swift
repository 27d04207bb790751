import CellKit

/// Trace records as the worker sends them to the supervisor: a compact binary form, written once
/// in the worker and read once in the supervisor, which feeds its sinks the records as the
/// engine would in-process. JSON stays the trace file format; on the channel it would be written
/// by the worker, parsed by the supervisor and written again by each sink.
///
/// Integers are zigzag LEB128 varints, doubles their 8 IEEE bytes, strings a length and UTF-8,
/// optionals a presence byte, arrays a count. Timings are rounded as the trace files hold them
/// before they are sent, so a worker's records say exactly what its trace lines said.
/// The reader checks every length against the payload and every enumeration against its cases:
/// a payload of the wrong shape is refused, never trusted.
struct TraceWireWriter {
    private(set) var bytes: [UInt8] = []

    mutating func reset() { bytes.removeAll(keepingCapacity: true) }

    mutating func int(_ value: Int) {
        var v = UInt64(bitPattern: Int64(value) << 1 ^ Int64(value) >> 63)
        while v >= 0x80 {
            bytes.append(UInt8(truncatingIfNeeded: v) | 0x80)
            v >>= 7
        }
        bytes.append(UInt8(v))
    }

    mutating func double(_ value: Double) {
        var bits = value.bitPattern.littleEndian
        withUnsafeBytes(of: &bits) { bytes.append(contentsOf: $0) }
    }

    mutating func bool(_ value: Bool) { bytes.append(value ? 1 : 0) }

    mutating func string(_ value: String) {
        var value = value
        value.withUTF8 { utf8 in
            int(utf8.count)
            bytes.append(contentsOf: utf8)
        }
    }

    mutating func strings(_ values: [String]) {
        int(values.count)
        for v in values { string(v) }
    }

    mutating func optional<T>(_ value: T?, _ write: (inout TraceWireWriter, T) -> Void) {
        if let value {
            bytes.append(1)
            write(&self, value)
        } else {
            bytes.append(0)
        }
    }

    mutating func size(_ s: Size) { double(s.width); double(s.height) }
    mutating func rect(_ r: Rect) { double(r.minX); double(r.minY); double(r.width); double(r.height) }

    mutating func timings(_ t: PhaseTimings) {
        // In `phaseNames`' order, field by field: `phases` would build an array per record.
        double(t.update.roundedMicros); double(t.layout.roundedMicros); double(t.draw.roundedMicros)
        double(t.raster.roundedMicros); double(t.composite.roundedMicros); double(t.encode.roundedMicros)
    }

    /// `omittingSummary`: leave out an event's summary, which the begin frame of that event
    /// carried already (the reader is given it back).
    mutating func record(_ record: TraceRecord, omittingSummary: Bool = false) {
        switch record {
        case .header(let h):
            bytes.append(0)
            string(h.source); string(h.appearance); size(h.viewport); double(h.scale); strings(h.traits)
            int(h.itemCount); strings(h.plugins)
        case .event(let e):
            bytes.append(1)
            int(e.number); int(e.line)
            optional(omittingSummary ? nil : e.summary) { $0.string($1) }
            optional(e.note) { $0.string($1) }
            double(e.start.roundedMicros)
            int(e.updates.count)
            for u in e.updates { update(u) }
            int(e.frames.count)
            for f in e.frames { frame(f) }
            timings(e.timings)
            strings(e.problems)
            int(e.outline.count)
            for o in e.outline {
                string(o.item); string(o.action.rawValue); int(o.level); strings(o.inserted); strings(o.removed)
            }
        case .log(let log):
            bytes.append(2)
            string(log.plugin); string(log.level.rawValue); string(log.message)
            optional(log.event) { $0.int($1) }
            optional(log.notShown) { $0.int($1) }
        case .end(let end):
            bytes.append(3)
            string(end.outcome.rawValue); int(end.events); int(end.frames)
            optional(end.failedEvent) { $0.int($1) }
            optional(end.message) { $0.string($1) }
            timings(end.timings)
        }
    }

    private mutating func update(_ u: CellUpdateTrace) {
        string(u.cell); string(u.type); string(u.cause); strings(u.stateBefore); strings(u.stateAfter)
        string(u.view.rawValue)
        int(u.changes.count)
        for c in u.changes {
            string(c.configuration); string(c.property); optional(c.old) { $0.string($1) }; string(c.new)
            string(c.reason.rawValue); optional(c.cause) { $0.string($1) }; bool(c.nilIsTint)
        }
        optional(u.supports) { $0.bool($1) }
        size(u.size); rect(u.frame); optional(u.damage) { $0.rect($1) }
        double(u.micros.roundedMicros)
        optional(u.repaint) { $0.string($1) }
        optional(u.accessories) { $0.string($1) }
        optional(u.swipe) { $0.string($1) }
        optional(u.handler) { $0.string($1.rawValue) }
        optional(u.separators) { $0.string($1) }
        optional(u.image) { $0.string($1) }
    }

    private mutating func frame(_ f: FrameTrace) {
        int(f.index); optional(f.file) { $0.string($1) }
        int(f.damage.count)
        for r in f.damage { rect(r) }
        int(f.damagedPixels)
        optional(f.progress) { $0.double(($1 * 1000).rounded() / 1000) }
        optional(f.sameAs) { $0.int($1) }
    }
}

/// Reads what `TraceWireWriter` wrote; every read is bounded by the payload.
struct TraceWireReader {
    private let bytes: UnsafeRawBufferPointer
    private var offset = 0

    init(_ bytes: UnsafeRawBufferPointer) { self.bytes = bytes }

    var isAtEnd: Bool { offset == bytes.count }

    /// Throws unless every byte was read: trailing bytes are a payload of the wrong shape.
    func expectEnd() throws(TraceDecodingError) {
        guard isAtEnd else { throw TraceDecodingError("\(bytes.count - offset) bytes after the end of the record") }
    }

    mutating func byte() throws(TraceDecodingError) -> UInt8 {
        guard offset < bytes.count else { throw TraceDecodingError("the record ends early") }
        defer { offset += 1 }
        return bytes[offset]
    }

    mutating func int() throws(TraceDecodingError) -> Int {
        var v: UInt64 = 0
        var shift: UInt64 = 0
        while true {
            let b = try byte()
            guard shift < 64 else { throw TraceDecodingError("an integer is too long") }
            v |= UInt64(b & 0x7F) << shift
            if b < 0x80 { break }
            shift += 7
        }
        return Int(Int64(bitPattern: v >> 1) ^ -Int64(bitPattern: v & 1))
    }

    /// A count of things that each take at least one byte: never more than the bytes left.
    mutating func count() throws(TraceDecodingError) -> Int {
        let n = try int()
        guard n >= 0, n <= bytes.count - offset else { throw TraceDecodingError("a length of \(n) runs past the record") }
        return n
    }

    mutating func double() throws(TraceDecodingError) -> Double {
        guard bytes.count - offset >= 8 else { throw TraceDecodingError("the record ends early") }
        var bits: UInt64 = 0
        withUnsafeMutableBytes(of: &bits) { $0.copyMemory(from: UnsafeRawBufferPointer(rebasing: bytes[offset..<(offset + 8)])) }
        offset += 8
        return Double(bitPattern: UInt64(littleEndian: bits))
    }

    mutating func bool() throws(TraceDecodingError) -> Bool {
        switch try byte() {
        case 0: return false
        case 1: return true
        case let b: throw TraceDecodingError("\(b) is not a flag")
        }
    }

    mutating func string() throws(TraceDecodingError) -> String {
        let n = try count()
        defer { offset += n }
        return String(decoding: UnsafeRawBufferPointer(rebasing: bytes[offset..<(offset + n)]), as: UTF8.self)
    }

    mutating func strings() throws(TraceDecodingError) -> [String] {
        var values: [String] = []
        for _ in 0..<(try count()) { values.append(try string()) }
        return values
    }

    mutating func optional<T>(_ read: (inout TraceWireReader) throws(TraceDecodingError) -> T) throws(TraceDecodingError) -> T? {
        try bool() ? try read(&self) : nil
    }

    mutating func value<T: RawRepresentable<String>>(_ type: T.Type) throws(TraceDecodingError) -> T {
        let raw = try string()
        guard let value = T(rawValue: raw) else { throw TraceDecodingError("unknown \(T.self) \"\(raw)\"") }
        return value
    }

    mutating func size() throws(TraceDecodingError) -> Size { Size(width: try double(), height: try double()) }
    mutating func rect() throws(TraceDecodingError) -> Rect {
        Rect(x: try double(), y: try double(), width: try double(), height: try double())
    }

    mutating func timings() throws(TraceDecodingError) -> PhaseTimings {
        PhaseTimings(update: try double(), layout: try double(), draw: try double(), raster: try double(),
                     composite: try double(), encode: try double())
    }

    /// `begunSummary`: the summary the running event's begin frame carried, for an event record
    /// that leaves it out.
    mutating func record(begunSummary: String? = nil) throws(TraceDecodingError) -> TraceRecord {
        switch try byte() {
        case 0:
            return .header(TraceHeader(source: try string(), appearance: try string(), viewport: try size(), scale: try double(),
                                       traits: try strings(), itemCount: try int(), plugins: try strings()))
        case 1:
            let number = try int(), line = try int()
            guard let summary = try optional({ r throws(TraceDecodingError) in try r.string() }) ?? begunSummary else {
                throw TraceDecodingError("an event record without its summary, whose begin carried none")
            }
            let note = try optional { r throws(TraceDecodingError) in try r.string() }
            let start = try double()
            var updates: [CellUpdateTrace] = []
            for _ in 0..<(try count()) { updates.append(try update()) }
            var frames: [FrameTrace] = []
            for _ in 0..<(try count()) { frames.append(try frame()) }
            var event = TraceEvent(number: number, line: line, summary: summary, note: note, start: start,
                                   updates: updates, frames: frames, timings: try timings(), problems: try strings())
            for _ in 0..<(try count()) {
                event.outline.append(OutlineTrace(item: try string(), action: try value(OutlineTrace.Action.self), level: try int(),
                                                  inserted: try strings(), removed: try strings()))
            }
            return .event(event)
        case 2:
            return .log(TraceLog(plugin: try string(), level: try value(TraceLog.Level.self), message: try string(),
                                 event: try optional { r throws(TraceDecodingError) in try r.int() },
                                 notShown: try optional { r throws(TraceDecodingError) in try r.int() }))
        case 3:
            return .end(TraceEnd(outcome: try value(TraceEnd.Outcome.self), events: try int(), frames: try int(),
                                 failedEvent: try optional { r throws(TraceDecodingError) in try r.int() },
                                 message: try optional { r throws(TraceDecodingError) in try r.string() },
                                 timings: try timings()))
        case let tag:
            throw TraceDecodingError("unknown record kind \(tag)")
        }
    }

    private mutating func update() throws(TraceDecodingError) -> CellUpdateTrace {
        let cell = try string(), type = try string(), cause = try string()
        let before = try strings(), after = try strings()
        let view = try value(ViewOutcome.self)
        var changes: [PropertyChangeTrace] = []
        for _ in 0..<(try count()) {
            changes.append(PropertyChangeTrace(
                configuration: try string(), property: try string(),
                old: try optional { r throws(TraceDecodingError) in try r.string() }, new: try string(),
                reason: try value(PropertyChangeReason.self),
                cause: try optional { r throws(TraceDecodingError) in try r.string() }, nilIsTint: try bool()))
        }
        var update = CellUpdateTrace(cell: cell, type: type, cause: cause, stateBefore: before, stateAfter: after, changes: changes,
                                     view: view, supports: try optional { r throws(TraceDecodingError) in try r.bool() },
                                     size: try size(), frame: try rect(),
                                     damage: try optional { r throws(TraceDecodingError) in try r.rect() },
                                     micros: try double(), repaint: try optional { r throws(TraceDecodingError) in try r.string() })
        update.accessories = try optional { r throws(TraceDecodingError) in try r.string() }
        update.swipe = try optional { r throws(TraceDecodingError) in try r.string() }
        update.handler = try optional { r throws(TraceDecodingError) in try r.value(UpdateHandlerForm.self) }
        update.separators = try optional { r throws(TraceDecodingError) in try r.string() }
        update.image = try optional { r throws(TraceDecodingError) in try r.string() }
        return update
    }

    private mutating func frame() throws(TraceDecodingError) -> FrameTrace {
        let index = try int()
        let file = try optional { r throws(TraceDecodingError) in try r.string() }
        var damage: [Rect] = []
        for _ in 0..<(try count()) { damage.append(try rect()) }
        var frame = FrameTrace(index: index, file: file, damage: damage, damagedPixels: try int(),
                               progress: try optional { r throws(TraceDecodingError) in try r.double() })
        frame.sameAs = try optional { r throws(TraceDecodingError) in try r.int() }
        return frame
    }
}
