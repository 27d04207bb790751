import CellIO
import CellKit

/// `cellhost.trace/1` as JSON: one object per line with a `"record"` kind. The encoding is the
/// trace file format and the worker → supervisor wire format at once, so both directions live here.
extension TraceRecord {
    /// The record as one trace line, without its newline, written into `out`: what every sink
    /// and the trace file read. The key order and number forms are the trace format's.
    public func writeJSON(to out: JSONByteWriter) {
        switch self {
        case .header(let h):
            out.raw(#"{"record":"header","schema":"#); out.string(TraceRecord.schema)
            out.raw(#","source":"#); out.string(h.source)
            out.raw(#","appearance":"#); out.string(h.appearance)
            out.raw(#","viewport":"#); h.viewport.writeJSON(to: out)
            out.raw(#","scale":"#); out.number(h.scale)
            out.raw(#","traits":"#); out.strings(h.traits)
            out.raw(#","items":"#); out.int(h.itemCount)
            out.raw(#","plugins":"#); out.strings(h.plugins)
            out.byte(UInt8(ascii: "}"))
        case .event(let e):
            out.raw(#"{"record":"event","event":"#); out.int(e.number)
            out.raw(#","line":"#); out.int(e.line)
            out.raw(#","summary":"#); out.string(e.summary)
            if let note = e.note { out.raw(#","note":"#); out.string(note) }
            out.raw(#","start":"#); out.number(e.start.roundedMicros)
            out.raw(#","updates":"#); out.array(e.updates) { $0.writeJSON(to: out) }
            out.raw(#","frames":"#); out.array(e.frames) { $0.writeJSON(to: out) }
            out.raw(#","timings":"#); e.timings.writeJSON(to: out)
            if !e.problems.isEmpty { out.raw(#","problems":"#); out.strings(e.problems) }
            if !e.outline.isEmpty { out.raw(#","outline":"#); out.array(e.outline) { $0.writeJSON(to: out) } }
            out.byte(UInt8(ascii: "}"))
        case .log(let log):
            out.raw(#"{"record":"log","plugin":"#); out.string(log.plugin)
            out.raw(#","level":"#); out.string(log.level.rawValue)
            out.raw(#","message":"#); out.string(log.message)
            if let event = log.event { out.raw(#","event":"#); out.int(event) }
            if let notShown = log.notShown { out.raw(#","notShown":"#); out.int(notShown) }
            out.byte(UInt8(ascii: "}"))
        case .end(let end):
            out.raw(#"{"record":"end","outcome":"#); out.string(end.outcome.rawValue)
            out.raw(#","events":"#); out.int(end.events)
            out.raw(#","frames":"#); out.int(end.frames)
            if let f = end.failedEvent { out.raw(#","failedEvent":"#); out.int(f) }
            if let m = end.message { out.raw(#","message":"#); out.string(m) }
            out.raw(#","timings":"#); end.timings.writeJSON(to: out)
            out.byte(UInt8(ascii: "}"))
        }
    }

    /// The record as a JSON value (tests, the report page): its trace line, parsed.
    public var json: JSON { JSON(written: writeJSON) }

    public init(json: JSON) throws(TraceDecodingError) {
        let r = TraceReader(json)
        switch try r.string("record") {
        case "header":
            guard try r.string("schema") == TraceRecord.schema else { throw TraceDecodingError("unknown trace schema") }
            self = .header(TraceHeader(
                source: try r.string("source"), appearance: try r.string("appearance"), viewport: try r.size("viewport"),
                scale: try r.double("scale"), traits: try r.strings("traits"), itemCount: try r.int("items"),
                plugins: try r.strings("plugins")))
        case "event":
            var event = TraceEvent(
                number: try r.int("event"), line: try r.int("line"), summary: try r.string("summary"),
                note: r.optionalString("note"), start: try r.double("start"),
                updates: try r.array("updates").map { j throws(TraceDecodingError) in try CellUpdateTrace(json: j) },
                frames: try r.array("frames").map { j throws(TraceDecodingError) in try FrameTrace(json: j) },
                timings: try PhaseTimings(json: try r.value("timings")),
                problems: (try? r.strings("problems")) ?? [])
            if let outline = (try? r.array("outline")) {
                event.outline = try outline.map { j throws(TraceDecodingError) in try OutlineTrace(json: j) }
            }
            self = .event(event)
        case "log":
            guard let level = TraceLog.Level(rawValue: try r.string("level")) else { throw TraceDecodingError("unknown log level") }
            self = .log(TraceLog(plugin: try r.string("plugin"), level: level, message: try r.string("message"),
                                 event: r.optionalInt("event"), notShown: r.optionalInt("notShown")))
        case "end":
            guard let outcome = TraceEnd.Outcome(rawValue: try r.string("outcome")) else {
                throw TraceDecodingError("unknown outcome")
            }
            self = .end(TraceEnd(outcome: outcome, events: try r.int("events"), frames: try r.int("frames"),
                                 failedEvent: r.optionalInt("failedEvent"), message: r.optionalString("message"),
                                 timings: try PhaseTimings(json: try r.value("timings"))))
        case let other:
            throw TraceDecodingError("unknown record kind \"\(other)\"")
        }
    }

    /// Parses one trace line.
    public static func decode(line: String) throws(TraceDecodingError) -> TraceRecord {
        let json: JSON
        do { json = try JSON.parse(line) } catch { throw TraceDecodingError("not JSON (\(error))") }
        return try TraceRecord(json: json)
    }
}

public struct TraceDecodingError: Error, CustomStringConvertible, Equatable {
    public var description: String
    init(_ d: String) { description = d }
}

extension Double {
    /// Microsecond timings with 0.1 µs resolution keep traces short.
    var roundedMicros: Double { (self * 10).rounded() / 10 }
}

extension Size {
    /// `[width, height]`.
    func writeJSON(to out: JSONByteWriter) {
        out.byte(UInt8(ascii: "[")); out.number(width); out.byte(UInt8(ascii: ",")); out.number(height)
        out.byte(UInt8(ascii: "]"))
    }
}

extension Rect {
    /// `[x, y, width, height]`.
    func writeJSON(to out: JSONByteWriter) {
        out.byte(UInt8(ascii: "[")); out.number(minX); out.byte(UInt8(ascii: ",")); out.number(minY)
        out.byte(UInt8(ascii: ",")); out.number(width); out.byte(UInt8(ascii: ",")); out.number(height)
        out.byte(UInt8(ascii: "]"))
    }
}

extension PhaseTimings {
    /// Each phase by name (`phaseNames`' order), rounded to 0.1 µs.
    func writeJSON(to out: JSONByteWriter) {
        out.raw(#"{"update":"#); out.number(update.roundedMicros)
        out.raw(#","layout":"#); out.number(layout.roundedMicros)
        out.raw(#","draw":"#); out.number(draw.roundedMicros)
        out.raw(#","raster":"#); out.number(raster.roundedMicros)
        out.raw(#","composite":"#); out.number(composite.roundedMicros)
        out.raw(#","encode":"#); out.number(encode.roundedMicros)
        out.byte(UInt8(ascii: "}"))
    }

    init(json: JSON) throws(TraceDecodingError) {
        let r = TraceReader(json)
        self.init(update: try r.double("update"), layout: try r.double("layout"), draw: try r.double("draw"),
                  raster: try r.double("raster"), composite: try r.double("composite"), encode: try r.double("encode"))
    }
}

extension PropertyChangeTrace {
    func writeJSON(to out: JSONByteWriter) {
        out.raw(#"{"configuration":"#); out.string(configuration)
        out.raw(#","property":"#); out.string(property)
        out.raw(#","old":"#); if let old { out.string(old) } else { out.null() }
        out.raw(#","new":"#); out.string(new)
        out.raw(#","reason":"#); out.string(reason.rawValue)
        if let cause { out.raw(#","cause":"#); out.string(cause) }
        if nilIsTint { out.raw(#","nilIsTint":true"#) }
        out.byte(UInt8(ascii: "}"))
    }

    var json: JSON { JSON(written: writeJSON) }

    init(json: JSON) throws(TraceDecodingError) {
        let r = TraceReader(json)
        guard let reason = PropertyChangeReason(rawValue: try r.string("reason")) else { throw TraceDecodingError("unknown reason") }
        self.init(configuration: try r.string("configuration"), property: try r.string("property"),
                  old: r.optionalString("old"), new: try r.string("new"), reason: reason, cause: r.optionalString("cause"),
                  nilIsTint: json["nilIsTint"]?.boolValue ?? false)
    }
}

extension CellUpdateTrace {
    func writeJSON(to out: JSONByteWriter) {
        out.raw(#"{"cell":"#); out.string(cell)
        out.raw(#","type":"#); out.string(type)
        out.raw(#","cause":"#); out.string(cause)
        out.raw(#","stateBefore":"#); out.strings(stateBefore)
        out.raw(#","stateAfter":"#); out.strings(stateAfter)
        out.raw(#","changes":"#); out.array(changes) { $0.writeJSON(to: out) }
        out.raw(#","view":"#); out.string(view.rawValue)
        out.raw(#","supports":"#); if let supports { out.bool(supports) } else { out.null() }
        out.raw(#","size":"#); size.writeJSON(to: out)
        out.raw(#","frame":"#); frame.writeJSON(to: out)
        out.raw(#","damage":"#); if let damage { damage.writeJSON(to: out) } else { out.null() }
        out.raw(#","micros":"#); out.number(micros.roundedMicros)
        if let repaint { out.raw(#","repaint":"#); out.string(repaint) }
        if let accessories { out.raw(#","accessories":"#); out.string(accessories) }
        if let swipe { out.raw(#","swipe":"#); out.string(swipe) }
        if let handler { out.raw(#","handler":"#); out.string(handler.rawValue) }
        if let separators { out.raw(#","separators":"#); out.string(separators) }
        if let image { out.raw(#","image":"#); out.string(image) }
        out.byte(UInt8(ascii: "}"))
    }

    var json: JSON { JSON(written: writeJSON) }

    init(json: JSON) throws(TraceDecodingError) {
        let r = TraceReader(json)
        guard let view = ViewOutcome(rawValue: try r.string("view")) else { throw TraceDecodingError("unknown view outcome") }
        self.init(cell: try r.string("cell"), type: try r.string("type"), cause: try r.string("cause"),
                  stateBefore: try r.strings("stateBefore"), stateAfter: try r.strings("stateAfter"),
                  changes: try r.array("changes").map { j throws(TraceDecodingError) in try PropertyChangeTrace(json: j) },
                  view: view, supports: json["supports"]?.boolValue, size: try r.size("size"), frame: try r.rect("frame"),
                  damage: json["damage"].flatMap { $0 == .null ? nil : try? TraceReader.rect($0) },
                  micros: try r.double("micros"), repaint: r.optionalString("repaint"),
                  handler: r.optionalString("handler").flatMap(UpdateHandlerForm.init(rawValue:)))
        accessories = r.optionalString("accessories")
        swipe = r.optionalString("swipe")
        separators = r.optionalString("separators")
        image = r.optionalString("image")
    }
}

extension FrameTrace {
    func writeJSON(to out: JSONByteWriter) {
        out.raw(#"{"index":"#); out.int(index)
        out.raw(#","file":"#); if let file { out.string(file) } else { out.null() }
        out.raw(#","damage":"#); out.array(damage) { $0.writeJSON(to: out) }
        out.raw(#","damagedPixels":"#); out.int(damagedPixels)
        if let progress { out.raw(#","progress":"#); out.number((progress * 1000).rounded() / 1000) }
        if let sameAs { out.raw(#","sameAs":"#); out.int(sameAs) }
        out.byte(UInt8(ascii: "}"))
    }

    var json: JSON { JSON(written: writeJSON) }

    init(json: JSON) throws(TraceDecodingError) {
        let r = TraceReader(json)
        self.init(index: try r.int("index"), file: r.optionalString("file"),
                  damage: try r.array("damage").map { j throws(TraceDecodingError) in try TraceReader.rect(j) },
                  damagedPixels: try r.int("damagedPixels"), progress: json["progress"]?.doubleValue)
        sameAs = r.optionalInt("sameAs")
    }
}

/// Typed field access for decoding trace records.
struct TraceReader {
    let json: JSON
    init(_ json: JSON) { self.json = json }

    func value(_ key: String) throws(TraceDecodingError) -> JSON {
        guard let v = json[key] else { throw TraceDecodingError("missing \"\(key)\"") }
        return v
    }
    func string(_ key: String) throws(TraceDecodingError) -> String {
        guard let s = try value(key).stringValue else { throw TraceDecodingError("\"\(key)\" is not a string") }
        return s
    }
    func optionalString(_ key: String) -> String? { json[key]?.stringValue }
    func optionalInt(_ key: String) -> Int? { json[key]?.intValue.map { Int($0) } }
    func int(_ key: String) throws(TraceDecodingError) -> Int {
        guard let i = try value(key).intValue else { throw TraceDecodingError("\"\(key)\" is not an integer") }
        return Int(i)
    }
    func double(_ key: String) throws(TraceDecodingError) -> Double {
        guard let d = try value(key).doubleValue else { throw TraceDecodingError("\"\(key)\" is not a number") }
        return d
    }
    func array(_ key: String) throws(TraceDecodingError) -> [JSON] {
        guard let a = try value(key).arrayValue else { throw TraceDecodingError("\"\(key)\" is not an array") }
        return a
    }
    func strings(_ key: String) throws(TraceDecodingError) -> [String] {
        let a = try array(key)
        let s = a.compactMap(\.stringValue)
        guard s.count == a.count else { throw TraceDecodingError("\"\(key)\" is not an array of strings") }
        return s
    }
    func size(_ key: String) throws(TraceDecodingError) -> Size {
        let a = try array(key).compactMap(\.doubleValue)
        guard a.count == 2 else { throw TraceDecodingError("\"\(key)\" is not [width, height]") }
        return Size(width: a[0], height: a[1])
    }
    func rect(_ key: String) throws(TraceDecodingError) -> Rect { try TraceReader.rect(try value(key)) }
    static func rect(_ json: JSON) throws(TraceDecodingError) -> Rect {
        guard let a = json.arrayValue?.compactMap(\.doubleValue), a.count == 4 else {
            throw TraceDecodingError("a rect is [x, y, width, height]")
        }
        return Rect(x: a[0], y: a[1], width: a[2], height: a[3])
    }
}
