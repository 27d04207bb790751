import CellIO
import CellKit
import CellProcess
import CellTestSupport
import Foundation
import Testing
@testable import CellRuntime

/// The supervisor passes an event's record to the sinks only once the frames it names are on
/// disk (the worker encodes them on a thread of its own), and when the worker ends, a frame that
/// never arrived is not named: every file a trace names exists.
@Suite struct HeldFrameRecordTests {
    final class Sink: TraceSink {
        var records: [TraceRecord] = []
        func write(_ record: TraceRecord) { records.append(record) }
        func finish() throws(SinkError) {}
        var files: [String?] {
            records.flatMap { record -> [String?] in
                guard case .event(let e) = record else { return [] }
                return e.frames.map(\.file)
            }
        }
    }

    static func event(_ number: Int, frames: [FrameTrace]) -> [UInt8] {
        var writer = TraceWireWriter()
        writer.record(.event(TraceEvent(number: number, line: number, summary: "e", note: nil, start: 0, updates: [], frames: frames,
                                        timings: PhaseTimings(), problems: [])))
        return writer.bytes
    }

    static func begin(_ number: Int) -> [UInt8] {
        var writer = TraceWireWriter()
        writer.int(number); writer.int(number); writer.optional(String?.none) { $0.string($1) }
        return writer.bytes
    }

    static func frame(_ index: Int, sameAs: Int? = nil) -> FrameTrace {
        var frame = FrameTrace(index: index, file: Engine.frameFileName(sameAs ?? index), damage: [], damagedPixels: 1)
        frame.sameAs = sameAs
        return frame
    }

    func accept(_ intake: inout RecordIntake, _ kind: RunFrameKind, _ bytes: [UInt8]) {
        let fault = bytes.withUnsafeBytes { intake.accept(WorkerFrame(sequence: 0, kind: kind.rawValue, payload: $0)) }
        #expect(fault == nil)
    }

    @Test func aRecordWaitsForItsFramesAndWhatFollowsWaitsBehindIt() throws {
        let dir = BuiltProducts.temporaryDirectory(prefix: "cellhost-held-frames")
        let sink = Sink()
        var intake = RecordIntake(recorder: TraceRecorder(sink: sink), sourceName: "s.jsonl", framesDirectory: dir)
        accept(&intake, .begin, Self.begin(1))
        accept(&intake, .record, Self.event(1, frames: [Self.frame(1)]))
        accept(&intake, .begin, Self.begin(2))
        accept(&intake, .record, Self.event(2, frames: []))
        #expect(sink.records.isEmpty, "event #1's record went out before frame-0001.png was on disk")
        writeFile("png", to: dir + "/frame-0001.png")
        intake.releaseCommitted()
        #expect(sink.records.count == 2)

        // Frame 2 never arrives; frame 3 repeats it and frame 4 is its own, on disk.
        accept(&intake, .begin, Self.begin(3))
        accept(&intake, .record, Self.event(3, frames: [Self.frame(2), Self.frame(3, sameAs: 2)]))
        accept(&intake, .begin, Self.begin(4))
        accept(&intake, .record, Self.event(4, frames: [Self.frame(4)]))
        writeFile("png", to: dir + "/frame-0004.png")
        writeFile("half", to: FileReplacer.partialPrefix(for: dir + "/frame-0002.png") + "99")
        #expect(sink.records.count == 2)
        #expect(intake.releaseAll() == ["frame-0002.png"])
        #expect(sink.files == ["frame-0001.png", nil, nil, "frame-0004.png"])
        #expect(directoryEntries(dir)?.sorted() == ["frame-0001.png", "frame-0004.png"])
    }

    /// A frame that is never written (a full disk) does not hold the records after it for the
    /// rest of the run: past the limit, its record goes through without naming it, and a later
    /// frame repeating it does not name it either.
    @Test func aFrameNeverWrittenHoldsBackOnlySoManyRecords() {
        let dir = BuiltProducts.temporaryDirectory(prefix: "cellhost-held-frames")
        let sink = Sink()
        var intake = RecordIntake(recorder: TraceRecorder(sink: sink), sourceName: "s.jsonl", framesDirectory: dir)
        accept(&intake, .begin, Self.begin(1))
        accept(&intake, .record, Self.event(1, frames: [Self.frame(1)]))
        accept(&intake, .begin, Self.begin(2))
        accept(&intake, .record, Self.event(2, frames: [Self.frame(2, sameAs: 1)]))
        let events = RecordIntake.heldLimit / 2 + 2
        for number in 3..<(3 + events) {
            accept(&intake, .begin, Self.begin(number))
            accept(&intake, .record, Self.event(number, frames: []))
        }
        #expect(sink.records.count == events + 2, "the records went through once the limit was passed")
        #expect(sink.files == [nil, nil])
    }

    /// Without a frames folder nothing is named on disk, so nothing waits.
    @Test func withoutFramesNothingWaits() {
        let sink = Sink()
        var intake = RecordIntake(recorder: TraceRecorder(sink: sink), sourceName: "s.jsonl")
        accept(&intake, .begin, Self.begin(1))
        accept(&intake, .record, Self.event(1, frames: [FrameTrace(index: 1, file: nil, damage: [], damagedPixels: 1)]))
        #expect(sink.records.count == 1)
    }
}
