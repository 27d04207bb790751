import CellIO
import CellKit

/// `cellhost.trace/1` as JSON: one object per line with a `"record"` kind. The encoding is the
/// trace file format and the worker → supervisor wire format at once, so both directions live here.
extension TraceRecord {
    public var json: JSON {
        switch self {
        case .header(let h):
            return .object([
                ("record", .string("header")), ("schema", .string(TraceRecord.schema)), ("source", .string(h.source)),
                ("appearance", .string(h.appearance)), ("viewport", h.viewport.json), ("scale", .double(h.scale)),
                ("traits", .array(h.traits.map(JSON.string))), ("items", .int(Int64(h.itemCount))),
                ("plugins", .array(h.plugins.map(JSON.string))),
            ])
        case .event(let e):
            var pairs: [(String, JSON)] = [
                ("record", .string("event")), ("event", .int(Int64(e.number))), ("line", .int(Int64(e.line))),
                ("summary", .string(e.summary)),
            ]
            if let note = e.note { pairs.append(("note", .string(note))) }
            pairs += [
                ("start", .double(e.start.roundedMicros)), ("updates", .array(e.updates.map(\.json))),
                ("frames", .array(e.frames.map(\.json))), ("timings", e.timings.json),
            ]
            if !e.problems.isEmpty { pairs.append(("problems", .array(e.problems.map(JSON.string)))) }
            if !e.outline.isEmpty { pairs.append(("outline", .array(e.outline.map(\.json)))) }
            return .object(pairs)
        case .log(let log):
            var pairs: [(String, JSON)] = [
                ("record", .string("log")), ("plugin", .string(log.plugin)), ("level", .string(log.level.rawValue)),
                ("message", .string(log.message)),
            ]
            if let event = log.event { pairs.append(("event", .int(Int64(event)))) }
            if let notShown = log.notShown { pairs.append(("notShown", .int(Int64(notShown)))) }
            return .object(pairs)
        case .end(let end):
            var pairs: [(String, JSON)] = [
                ("record", .string("end")), ("outcome", .string(end.outcome.rawValue)),
                ("events", .int(Int64(end.events))), ("frames", .int(Int64(end.frames))),
            ]
            if let f = end.failedEvent { pairs.append(("failedEvent", .int(Int64(f)))) }
            if let m = end.message { pairs.append(("message", .string(m))) }
            pairs.append(("timings", end.timings.json))
            return .object(pairs)
        }
    }

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
    var json: JSON { .array([.double(width), .double(height)]) }
}

extension Rect {
    /// `[x, y, width, height]`.
    var json: JSON { .array([.double(minX), .double(minY), .double(width), .double(height)]) }
}

extension PhaseTimings {
    var json: JSON { .object(phases.map { ($0.0, .double($0.1.roundedMicros)) }) }

    init(json: JSON) throws(TraceDecodingError) {
        let r = TraceReader(json)
        self.init(update: try r.double("update"), layout: try r.double("layout"), draw: try r.double("draw"),
                  raster: try r.double("raster"), composite: try r.double("composite"), encode: try r.double("encode"))
    }
}

extension PropertyChangeTrace {
    var json: JSON {
        var pairs: [(String, JSON)] = [("configuration", .string(configuration)), ("property", .string(property))]
        pairs.append(("old", old.map(JSON.string) ?? .null))
        pairs.append(("new", .string(new)))
        pairs.append(("reason", .string(reason.rawValue)))
        if let cause { pairs.append(("cause", .string(cause))) }
        if nilIsTint { pairs.append(("nilIsTint", .bool(true))) }
        return .object(pairs)
    }

    init(json: JSON) throws(TraceDecodingError) {
        let r = TraceReader(json)
        guard let reason = PropertyChangeReason(rawValue: try r.string("reason")) else { throw TraceDecodingError("unknown reason") }
        self.init(configuration: try r.string("configuration"), property: try r.string("property"),
                  old: r.optionalString("old"), new: try r.string("new"), reason: reason, cause: r.optionalString("cause"),
                  nilIsTint: json["nilIsTint"]?.boolValue ?? false)
    }
}

extension CellUpdateTrace {
    var json: JSON {
        var pairs: [(String, JSON)] = [
            ("cell", .string(cell)), ("type", .string(type)), ("cause", .string(cause)),
            ("stateBefore", .array(stateBefore.map(JSON.string))), ("stateAfter", .array(stateAfter.map(JSON.string))),
            ("changes", .array(changes.map(\.json))), ("view", .string(view.rawValue)),
        ]
        pairs.append(("supports", supports.map(JSON.bool) ?? .null))
        pairs += [("size", size.json), ("frame", frame.json), ("damage", damage?.json ?? .null),
                  ("micros", .double(micros.roundedMicros))]
        if let repaint { pairs.append(("repaint", .string(repaint))) }
        if let accessories { pairs.append(("accessories", .string(accessories))) }
        if let swipe { pairs.append(("swipe", .string(swipe))) }
        if let handler { pairs.append(("handler", .string(handler.rawValue))) }
        if let separators { pairs.append(("separators", .string(separators))) }
        if let image { pairs.append(("image", .string(image))) }
        return .object(pairs)
    }

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
    var json: JSON {
        var pairs: [(String, JSON)] = [("index", .int(Int64(index)))]
        pairs.append(("file", file.map(JSON.string) ?? .null))
        pairs += [("damage", .array(damage.map(\.json))), ("damagedPixels", .int(Int64(damagedPixels)))]
        if let progress { pairs.append(("progress", .double((progress * 1000).rounded() / 1000))) }
        if let sameAs { pairs.append(("sameAs", .int(Int64(sameAs)))) }
        return .object(pairs)
    }

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
