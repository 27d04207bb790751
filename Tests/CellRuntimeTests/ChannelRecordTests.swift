import CellIO
import CellKit
import CellProcess
import Testing
@testable import CellRuntime

/// The records a worker sends cross the channel in `TraceRecordWire`'s form: every field comes
/// back as it went, and the supervisor's intake (`RecordIntake`) refuses payloads of the wrong
/// shape and frames out of order, with the bytes — never trusting them, never crashing.
@Suite struct ChannelRecordTests {
    /// An event with every field set, so the round trip covers each one
    /// (`everyFieldOfTheSampleIsSet` keeps it so when a field is added).
    static let fullEvent: TraceEvent = {
        var update = CellUpdateTrace(
            cell: "a", type: "com.cellhost.list-content", cause: "state", stateBefore: ["normal"], stateAfter: ["highlighted"],
            changes: [PropertyChangeTrace(configuration: "background", property: "backgroundColor", old: "clear", new: "systemGray4",
                                          reason: .restyled, cause: "highlighted", nilIsTint: true)],
            view: .reused, supports: true, size: Size(width: 350, height: 44), frame: Rect(x: 20, y: 40, width: 350, height: 44),
            damage: Rect(x: 20, y: 40, width: 350, height: 44), micros: 12.3, repaint: "background")
        update.accessories = "shown: delete (editing changed)"
        update.swipe = "trailing actions open: Delete"
        update.handler = .fresh
        update.separators = "bottom hidden"
        update.image = "symbol:ellipsis 32×21, reserved 29×29"
        var frame = FrameTrace(index: 4, file: "frame-0003.png", damage: [Rect(x: 0, y: 1, width: 2, height: 3)], damagedPixels: 6,
                               progress: 0.25)
        frame.sameAs = 3
        var event = TraceEvent(
            number: 3, line: 17, summary: "a: highlighted", note: "a note", start: 1234.5, updates: [update], frames: [frame],
            timings: PhaseTimings(update: 1.5, layout: 2, draw: 3.1, raster: 0, composite: 4, encode: 5),
            problems: ["one problem"])
        event.outline = [OutlineTrace(item: "folder", action: .expand, level: 1, inserted: ["a", "b"], removed: ["c"])]
        return event
    }()
    static let event = TraceRecord.event(fullEvent)

    /// Every optional of the sample is set and every list holds something: a field added to a
    /// record must be given a value here, so the round trip shows whether the wire form carries it.
    @Test func everyFieldOfTheSampleIsSet() {
        func unset(_ value: Any, path: String) -> [String] {
            Mirror(reflecting: value).children.flatMap { child -> [String] in
                let name = path + "." + (child.label ?? "?")
                let mirror = Mirror(reflecting: child.value)
                if mirror.displayStyle == .optional { return mirror.children.isEmpty ? [name] : [] }
                if mirror.displayStyle == .collection {
                    return mirror.children.isEmpty ? [name] : mirror.children.flatMap { unset($0.value, path: name) }
                }
                if mirror.displayStyle == .struct { return unset(child.value, path: name) }
                return []
            }
        }
        #expect(unset(Self.fullEvent, path: "event") == [])
    }

    static let records: [TraceRecord] = [
        .header(TraceHeader(source: "s.jsonl", appearance: "insetGrouped", viewport: Size(width: 390, height: 844), scale: 3,
                            traits: ["light", "L"], itemCount: -1, plugins: ["p — x.so"])),
        event,
        .log(TraceLog(plugin: "p", level: .warning, message: "née ✓", event: 3, notShown: 12)),
        .log(TraceLog(plugin: "p", level: .debug, message: "", event: nil)),
        .end(TraceEnd(outcome: .pluginHung, events: 3, frames: 4, failedEvent: 4, message: "m",
                      timings: PhaseTimings(update: 0.1))),
    ]

    static func encoded(_ record: TraceRecord) -> [UInt8] {
        var writer = TraceWireWriter()
        writer.record(record)
        return writer.bytes
    }

    @Test(arguments: records)
    func aRecordComesBackAsItWent(_ record: TraceRecord) throws {
        let bytes = Self.encoded(record)
        let decoded = try bytes.withUnsafeBytes { raw throws(TraceDecodingError) in
            var reader = TraceWireReader(raw)
            let r = try reader.record()
            try reader.expectEnd()
            return r
        }
        #expect(decoded == record)
    }

    @Test func everyCutShortPayloadIsRefused() {
        let bytes = Self.encoded(Self.event)
        for length in 0..<bytes.count {
            let decoded = Array(bytes[..<length]).withUnsafeBytes { raw -> TraceRecord? in
                var reader = TraceWireReader(raw)
                return try? reader.record()
            }
            #expect(decoded == nil, "a payload cut to \(length) of \(bytes.count) bytes was taken")
        }
    }

    /// Feeds `frames` (kind, payload) to an intake and returns its verdicts and what reached the sink.
    func feed(_ frames: [(RunFrameKind.RawValue, [UInt8])]) -> (faults: [ChannelFault?], recorded: [TraceRecord]) {
        let sink = CollectingSink()
        var intake = RecordIntake(recorder: TraceRecorder(sink: sink), sourceName: "s.jsonl")
        let faults = frames.enumerated().map { i, frame in
            frame.1.withUnsafeBytes { intake.accept(WorkerFrame(sequence: UInt32(i), kind: frame.0, payload: $0)) }
        }
        return (faults, sink.records)
    }

    static func begin(_ event: Int) -> (UInt8, [UInt8]) {
        var writer = TraceWireWriter()
        writer.int(event); writer.int(event * 2); writer.optional(String?.none) { $0.string($1) }
        return (RunFrameKind.begin.rawValue, writer.bytes)
    }

    static func record(_ record: TraceRecord) -> (UInt8, [UInt8]) { (RunFrameKind.record.rawValue, encoded(record)) }

    @Test func framesInOrderReachTheSinks() {
        let (faults, recorded) = feed([Self.record(Self.records[0]), Self.begin(3), Self.record(Self.event),
                                       (RunFrameKind.alive.rawValue, []), Self.record(Self.records[4])])
        #expect(faults.allSatisfy { $0 == nil })
        #expect(recorded == [Self.records[0], Self.event])
    }

    /// An event's summary crosses once, in its begin frame: the record that leaves it out gets it
    /// back from the begin, and one whose begin carried none is refused.
    @Test func anEventRecordWithoutItsSummaryTakesTheOneItsBeginCarried() {
        var begin = TraceWireWriter()
        begin.int(3); begin.int(17); begin.optional("a: highlighted") { $0.string($1) }
        var record = TraceWireWriter()
        record.record(Self.event, omittingSummary: true)
        #expect(record.bytes.count < Self.encoded(Self.event).count)
        let (faults, recorded) = feed([Self.record(Self.records[0]), (RunFrameKind.begin.rawValue, begin.bytes),
                                       (RunFrameKind.record.rawValue, record.bytes)])
        #expect(faults.allSatisfy { $0 == nil })
        #expect(recorded == [Self.records[0], Self.event])
        let (refused, _) = feed([Self.begin(3), (RunFrameKind.record.rawValue, record.bytes)])
        #expect(refused.last??.problem.contains("without its summary") == true, "\(refused)")
    }

    @Test func framesOutOfOrderOrOfTheWrongShapeAreRefusedWithTheirBytes() {
        let refused: [[(UInt8, [UInt8])]] = [
            [Self.begin(3), Self.begin(3)],                          // an event begun twice
            [Self.begin(2), Self.record(Self.event)],                // the record of another event
            [Self.record(Self.event)],                               // a record of no event
            [Self.record(Self.records[4]), (RunFrameKind.alive.rawValue, [])],  // anything after the end
            [Self.begin(3), Self.record(Self.records[0])],            // a header after events
            [(0x7F, Array("hello".utf8))],                           // an unknown kind
            [(RunFrameKind.alive.rawValue, [1])],                    // trailing bytes
            [(RunFrameKind.record.rawValue, [9, 9, 9])],             // an unknown record
            [(RunFrameKind.begin.rawValue, [0xFF, 0xFF, 0xFF])],     // a varint running off the end
        ]
        for frames in refused {
            let (faults, _) = feed(frames)
            let fault = faults.last ?? nil
            #expect(fault != nil, "taken: \(frames.map(\.0))")
            #expect(faults.dropLast().allSatisfy { $0 == nil })
            #expect(fault?.bytes.hasPrefix("\"") == true)
        }
    }
}

private final class CollectingSink: TraceSink {
    var records: [TraceRecord] = []
    func write(_ record: TraceRecord) { records.append(record) }
    func finish() throws(SinkError) {}
}
