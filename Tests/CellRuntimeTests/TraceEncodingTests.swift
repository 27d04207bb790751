import CellIO
import CellKit
import CellTestSupport
import Testing
@testable import CellRuntime

/// The trace writers encode records straight into bytes; what they write stays, byte for byte,
/// what the format's reference encoding (a `JSON` tree per record, serialised) writes: the same
/// key order, number forms and escapes, for records with every field set and awkward strings,
/// and for the traces of real runs kept in Tests/TraceFixtures.
@Suite struct TraceEncodingTests {
    static let awkward = "say \"hi\"\\ \t\n\r\u{0}\u{1F}\u{7F} é 日本 👍🏽 \u{2028} "
        + String(decoding: [0xED, 0xA0, 0x80], as: UTF8.self)

    /// Every optional field present, every string awkward, numbers big, negative, fractional and not finite.
    static var everyField: [TraceRecord] {
        let change = PropertyChangeTrace(configuration: "content" + awkward, property: "text\"", old: awkward, new: "",
                                         reason: .restyled, cause: "selected\n", nilIsTint: true)
        let bare = PropertyChangeTrace(configuration: "background", property: "color", old: nil, new: "red", reason: .setByEvent,
                                       cause: nil, nilIsTint: false)
        var update = CellUpdateTrace(cell: "cell " + awkward, type: "com.example.badge", cause: "highlighted",
                                     stateBefore: ["normal", awkward], stateAfter: [], changes: [change, bare], view: .replaced,
                                     supports: false, size: Size(width: 390.5, height: 1e20),
                                     frame: Rect(x: -16.25, y: 1e-7, width: 33.333333333333336, height: .nan),
                                     damage: Rect(x: 0, y: -0.0, width: .infinity, height: 44), micros: 12.345678,
                                     repaint: "full: " + awkward, handler: .fresh)
        update.accessories = "disclosure, " + awkward
        update.swipe = "leading"
        update.separators = "top hidden"
        update.image = "symbol:ellipsis 32×21, reserved 29×29"
        let quiet = CellUpdateTrace(cell: "b", type: "t", cause: "c", stateBefore: [], stateAfter: [], changes: [], view: .reused,
                                    supports: nil, size: Size(width: 0, height: 0), frame: Rect(x: 0, y: 0, width: 0, height: 0),
                                    damage: nil, micros: -0.05)
        var frame = FrameTrace(index: Int.max, file: "frame \"1\".png", damage: [Rect(x: 1, y: 2, width: 3, height: 4)],
                               damagedPixels: Int.min, progress: 0.33333)
        frame.sameAs = 7
        var event = TraceEvent(number: 123_456_789_012, line: -1, summary: "apple: " + awkward, note: awkward,
                               start: 98_765_432.123_45, updates: [update, quiet],
                               frames: [frame, FrameTrace(index: 2, file: nil, damage: [], damagedPixels: 0)],
                               timings: PhaseTimings(update: 1.26, layout: 0, draw: .nan, raster: 1e15, composite: -3, encode: 0.04),
                               problems: [awkward, "second"])
        event.outline = [OutlineTrace(item: "folder" + awkward, action: .expand, level: 2, inserted: ["a", awkward], removed: ["z"]),
                         OutlineTrace(item: "f", action: .collapse, level: 0)]
        let plain = TraceEvent(number: 3, line: 9, summary: "b: selected", note: nil, start: 0.05, updates: [quiet], frames: [],
                               timings: PhaseTimings(update: 0.1, layout: 0.2, draw: 0, raster: 0, composite: 0, encode: 0))
        return [
            .header(TraceHeader(source: "events " + awkward, appearance: "insetGrouped", viewport: Size(width: 390, height: 844.5),
                                scale: 3, traits: ["dark", awkward], itemCount: 1_000_000_000_000, plugins: ["p " + awkward])),
            .log(TraceLog(plugin: "badge" + awkward, level: .warning, message: awkward, event: 123_456_789_012, notShown: 4)),
            .log(TraceLog(plugin: "badge", level: .info, message: "loaded", event: nil, notShown: nil)),
            .event(event),
            .event(plain),
            .end(TraceEnd(outcome: .pluginCrashed, events: 2, frames: Int.max, failedEvent: 123_456_789_013,
                          message: "SIGSEGV " + awkward, timings: event.timings)),
        ]
    }

    static func written(_ makeSink: (String) throws(SinkError) -> any TraceSink, _ records: [TraceRecord]) throws -> String {
        let path = temporaryDirectory() + "/trace"
        let sink = try makeSink(path)
        for r in records { sink.write(r) }
        try sink.finish()
        return try #require(readTextFile(path))
    }

    @Test func jsonlLinesAreTheReferenceEncoding() throws {
        let records = Self.everyField
        let text = try Self.written(JSONLTraceWriter.init, records)
        #expect(text == records.map { ReferenceTraceEncoding.json($0).serialized + "\n" }.joined())
    }

    @Test func chromeTraceIsTheReferenceEncoding() throws {
        for records in [Self.everyField, SampleTrace.records, [Self.everyField[0], Self.everyField[5]]] {
            #expect(try Self.written(ChromeTraceWriter.init, records) == ReferenceTraceEncoding.chrome(records))
        }
    }

    @Test func treesOfRecordsAreTheirLinesParsed() throws {
        for record in Self.everyField {
            let out = JSONByteWriter()
            record.writeJSON(to: out)
            #expect(record.json == (try JSON.parse(String(decoding: out.bytes, as: UTF8.self))))
            #expect(record.json == (try JSON.parse(ReferenceTraceEncoding.json(record).serialized)))
        }
    }

    /// Traces of real runs (worker mode, whose records reach the sinks rounded as the JSONL holds
    /// them), written before the writers encoded into bytes: the records decoded from the JSONL
    /// trace and written again give both files back byte for byte.
    @Test(arguments: ["accessories-and-swipe", "outlines-and-headers", "pad-idiom", "traits-and-animation-frames"])
    func tracesOfRealRunsAreWrittenAgainByteForByte(name: String) throws {
        let folder = BuiltProducts.packageRoot + "/Tests/TraceFixtures/"
        let jsonl = try #require(readTextFile(folder + name + ".jsonl"))
        let chrome = try #require(readTextFile(folder + name + ".chrome.json"))
        let records = try jsonl.split(separator: "\n").map { line throws in try TraceRecord.decode(line: String(line)) }
        #expect(records.count > 5)
        #expect(try Self.written(JSONLTraceWriter.init, records) == jsonl)
        #expect(try Self.written(ChromeTraceWriter.init, records) == chrome)
    }
}

/// The trace encoding as it was first written: a `JSON` tree per record, serialised; the Chrome
/// trace from trees of its trace events. The writers must produce exactly these bytes.
enum ReferenceTraceEncoding {
    static func json(_ record: TraceRecord) -> JSON {
        switch record {
        case .header(let h):
            return .object([
                ("record", .string("header")), ("schema", .string(TraceRecord.schema)), ("source", .string(h.source)),
                ("appearance", .string(h.appearance)), ("viewport", size(h.viewport)), ("scale", .double(h.scale)),
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
                ("start", .double(e.start.roundedMicros)), ("updates", .array(e.updates.map(update))),
                ("frames", .array(e.frames.map(frame))), ("timings", timings(e.timings)),
            ]
            if !e.problems.isEmpty { pairs.append(("problems", .array(e.problems.map(JSON.string)))) }
            if !e.outline.isEmpty { pairs.append(("outline", .array(e.outline.map(outline)))) }
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
            pairs.append(("timings", timings(end.timings)))
            return .object(pairs)
        }
    }

    static func size(_ s: Size) -> JSON { .array([.double(s.width), .double(s.height)]) }
    static func rect(_ r: Rect) -> JSON { .array([.double(r.minX), .double(r.minY), .double(r.width), .double(r.height)]) }
    static func timings(_ t: PhaseTimings) -> JSON { .object(t.phases.map { ($0.0, .double($0.1.roundedMicros)) }) }

    static func change(_ c: PropertyChangeTrace) -> JSON {
        var pairs: [(String, JSON)] = [("configuration", .string(c.configuration)), ("property", .string(c.property))]
        pairs.append(("old", c.old.map(JSON.string) ?? .null))
        pairs.append(("new", .string(c.new)))
        pairs.append(("reason", .string(c.reason.rawValue)))
        if let cause = c.cause { pairs.append(("cause", .string(cause))) }
        if c.nilIsTint { pairs.append(("nilIsTint", .bool(true))) }
        return .object(pairs)
    }

    static func update(_ u: CellUpdateTrace) -> JSON {
        var pairs: [(String, JSON)] = [
            ("cell", .string(u.cell)), ("type", .string(u.type)), ("cause", .string(u.cause)),
            ("stateBefore", .array(u.stateBefore.map(JSON.string))), ("stateAfter", .array(u.stateAfter.map(JSON.string))),
            ("changes", .array(u.changes.map(change))), ("view", .string(u.view.rawValue)),
        ]
        pairs.append(("supports", u.supports.map(JSON.bool) ?? .null))
        pairs += [("size", size(u.size)), ("frame", rect(u.frame)), ("damage", u.damage.map(rect) ?? .null),
                  ("micros", .double(u.micros.roundedMicros))]
        if let repaint = u.repaint { pairs.append(("repaint", .string(repaint))) }
        if let accessories = u.accessories { pairs.append(("accessories", .string(accessories))) }
        if let swipe = u.swipe { pairs.append(("swipe", .string(swipe))) }
        if let handler = u.handler { pairs.append(("handler", .string(handler.rawValue))) }
        if let separators = u.separators { pairs.append(("separators", .string(separators))) }
        if let image = u.image { pairs.append(("image", .string(image))) }
        return .object(pairs)
    }

    static func frame(_ f: FrameTrace) -> JSON {
        var pairs: [(String, JSON)] = [("index", .int(Int64(f.index)))]
        pairs.append(("file", f.file.map(JSON.string) ?? .null))
        pairs += [("damage", .array(f.damage.map(rect))), ("damagedPixels", .int(Int64(f.damagedPixels)))]
        if let progress = f.progress { pairs.append(("progress", .double((progress * 1000).rounded() / 1000))) }
        if let sameAs = f.sameAs { pairs.append(("sameAs", .int(Int64(sameAs)))) }
        return .object(pairs)
    }

    static func outline(_ o: OutlineTrace) -> JSON {
        var pairs: [(String, JSON)] = [("item", .string(o.item)), ("action", .string(o.action.rawValue)),
                                       ("level", .int(Int64(o.level)))]
        if !o.inserted.isEmpty { pairs.append(("inserted", .array(o.inserted.map(JSON.string)))) }
        if !o.removed.isEmpty { pairs.append(("removed", .array(o.removed.map(JSON.string)))) }
        return .object(pairs)
    }

    // MARK: The Chrome trace

    static func chrome(_ records: [TraceRecord]) -> String {
        var events: [JSON] = [metadata("process_name", tid: 0, name: "cellhost run"), metadata("thread_name", tid: 1, name: "events"),
                              metadata("thread_name", tid: 2, name: "frames")]
        var held: [TraceLog] = []
        var lastEventShown = -1
        var lastEventStart = 0.0, lastEnd = 0.0
        for record in records {
            switch record {
            case .header(let h):
                events.append(.object([("name", .string("run")), ("ph", .string("i")), ("s", .string("p")), ("ts", .int(0)),
                                       ("pid", .int(1)), ("tid", .int(1)),
                                       ("args", .object([("source", .string(h.source)), ("schema", .string(TraceRecord.schema))]))]))
            case .event(let e):
                events += event(e, lastEnd: &lastEnd)
                lastEventStart = e.start
                lastEventShown = e.number
                events += held.filter { ($0.event ?? 0) <= e.number }.map { logMark($0, ts: e.start) }
                held.removeAll { ($0.event ?? 0) <= e.number }
            case .log(let log):
                if let n = log.event, n > lastEventShown { held.append(log) } else {
                    events.append(logMark(log, ts: log.event == nil ? 0 : lastEventStart))
                }
            case .end(let end):
                events += held.map { logMark($0, ts: lastEnd) }
                held = []
                var args: [(String, JSON)] = [("outcome", .string(end.outcome.rawValue))]
                if let m = end.message { args.append(("message", .string(m))) }
                if let f = end.failedEvent { args.append(("failedEvent", .int(Int64(f)))) }
                events.append(.object([("name", .string("end: \(end.outcome.rawValue)")), ("ph", .string("i")), ("s", .string("p")),
                                       ("ts", .double(lastEnd.roundedMicros)), ("pid", .int(1)), ("tid", .int(1)),
                                       ("args", .object(args))]))
            }
        }
        return "[\n" + events.map(\.serialized).joined(separator: ",\n") + "\n]\n"
    }

    static func metadata(_ kind: String, tid: Int64, name: String) -> JSON {
        .object([("name", .string(kind)), ("ph", .string("M")), ("pid", .int(1)), ("tid", .int(tid)),
                 ("args", .object([("name", .string(name))]))])
    }

    static func slice(_ name: String, _ category: String, ts: Double, dur: Double, tid: Int64, args: [(String, JSON)] = []) -> JSON {
        var pairs: [(String, JSON)] = [
            ("name", .string(name)), ("cat", .string(category)), ("ph", .string("X")),
            ("ts", .double(ts.roundedMicros)), ("dur", .double(max(dur, 0.1).roundedMicros)), ("pid", .int(1)), ("tid", .int(tid)),
        ]
        if !args.isEmpty { pairs.append(("args", .object(args))) }
        return .object(pairs)
    }

    static func logMark(_ log: TraceLog, ts: Double) -> JSON {
        var args: [(String, JSON)] = [("plugin", .string(log.plugin)), ("level", .string(log.level.rawValue)),
                                      ("message", .string(log.message))]
        if let event = log.event { args.append(("event", .int(Int64(event)))) }
        if let notShown = log.notShown { args.append(("notShown", .int(Int64(notShown)))) }
        return .object([("name", .string("\(log.plugin) \(log.level.rawValue): \(log.message)")), ("cat", .string("log")),
                        ("ph", .string("i")), ("s", .string("t")), ("ts", .double(ts.roundedMicros)), ("pid", .int(1)),
                        ("tid", .int(1)), ("args", .object(args))])
    }

    static func event(_ e: TraceEvent, lastEnd: inout Double) -> [JSON] {
        let total = e.timings.total
        var args: [(String, JSON)] = [("line", .int(Int64(e.line))), ("cells", .int(Int64(e.updates.count))),
                                      ("damagedPixels", .int(Int64(e.damagedPixels)))]
        if let note = e.note { args.append(("note", .string(note))) }
        if !e.problems.isEmpty { args.append(("problems", .array(e.problems.map(JSON.string)))) }
        var out = [slice("#\(e.number) \(e.summary)", "event", ts: e.start, dur: total, tid: 1, args: args)]
        var t = e.start
        for (phase, micros) in e.timings.phases where micros > 0 {
            out.append(slice(phase, "phase", ts: t, dur: micros, tid: 1))
            if phase == "update" {
                let sum = e.updates.reduce(0) { $0 + $1.micros }
                let factor = sum > micros ? micros / sum : 1
                var c = t
                for u in e.updates {
                    let d = u.micros * factor
                    var cellArgs: [(String, JSON)] = [("view", .string(u.view.rawValue)), ("changes", .int(Int64(u.changes.count)))]
                    if let accessories = u.accessories { cellArgs.append(("accessories", .string(accessories))) }
                    if let swipe = u.swipe { cellArgs.append(("swipe", .string(swipe))) }
                    out.append(slice(u.cell, "cell", ts: c, dur: d, tid: 1, args: cellArgs))
                    c += d
                }
            }
            t += micros
        }
        lastEnd = max(lastEnd, e.start + max(total, 0.1))
        for frame in e.frames {
            let frameStart = e.start + total - e.timings.encode
            out.append(.object([("name", .string("event→frame")), ("cat", .string("flow")), ("ph", .string("s")),
                                ("id", .int(Int64(frame.index))), ("ts", .double(e.start.roundedMicros)), ("pid", .int(1)),
                                ("tid", .int(1))]))
            out.append(slice("frame \(frame.index)", "frame", ts: frameStart, dur: max(e.timings.encode, 1), tid: 2,
                             args: [("file", frame.file.map(JSON.string) ?? .null), ("damagedPixels", .int(Int64(frame.damagedPixels)))]
                                 + (frame.sameAs.map { [("sameAs", JSON.int(Int64($0)))] } ?? [])))
            out.append(.object([("name", .string("event→frame")), ("cat", .string("flow")), ("ph", .string("f")),
                                ("bp", .string("e")), ("id", .int(Int64(frame.index))), ("ts", .double(frameStart.roundedMicros)),
                                ("pid", .int(1)), ("tid", .int(2))]))
        }
        out.append(.object([("name", .string("damaged pixels")), ("ph", .string("C")), ("ts", .double(e.start.roundedMicros)),
                            ("pid", .int(1)), ("args", .object([("pixels", .int(Int64(e.damagedPixels)))]))]))
        return out
    }
}
