import CellIO
import CellProcess
import Glibc

/// The supervisor's reading side of a run's channel: checks every frame from the worker before
/// anything in it reaches the sinks, and remembers what a report of the worker's death needs.
/// The worker runs plugin code, so its frames are untrusted input: a frame of an unknown kind, a
/// payload of the wrong shape, an event begun out of order, a record of an event that was not
/// begun, a second header or anything after the end record is refused with the frame's bytes,
/// and the worker is stopped. The sinks then hold every record up to the last one accepted.
///
/// Frames named in the trace exist: the worker encodes PNG frames on a thread of its own, so an
/// event's record arrives while the frames it names may still be on their way to disk. Such a
/// record, and everything after it, waits here (in order) until its files are in place
/// (`releaseCommitted()`, called as frames arrive and while the channel is quiet). When the
/// worker ends, `releaseAll()` lets the rest through, naming no file that is not on disk.
struct RecordIntake {
    let recorder: TraceRecorder
    let sourceName: String
    /// Where the worker writes the frames its records name; nil when none are written.
    let framesDirectory: String?
    private(set) var end: TraceEnd?
    /// The last announced step outside events, cleared when an event begins.
    private(set) var phase: String?
    private(set) var eventSummary: String?
    private(set) var loadedPlugins: [String] = []
    private var lastBegun: Int?
    /// The event the worker runs now: begun, its record not taken yet.
    private var running: Int?
    private var sawHeader = false

    /// A step for the recorder, in the order the worker sent it.
    private enum Step {
        case begin(event: Int, line: Int)
        case record(TraceRecord)
    }
    /// Steps waiting for the frames of the first of them to be on disk.
    private var held: [Step] = []
    /// The most steps held: far more than the worker's bounded encoding queue ever keeps back,
    /// reached only when a frame is never written (a full disk), whose record then goes through
    /// without its name rather than the sinks waiting, and the records piling up, for the rest
    /// of the run.
    static let heldLimit = 4096
    /// Files of frames let through without their names (at the limit): a later frame that
    /// repeats one of them does not name it either.
    private var unnamed: Set<String> = []

    init(recorder: TraceRecorder, sourceName: String, framesDirectory: String? = nil) {
        self.recorder = recorder
        self.sourceName = sourceName
        self.framesDirectory = framesDirectory
    }

    /// Takes one frame; the fault that refuses it, or nil.
    mutating func accept(_ frame: WorkerFrame) -> ChannelFault? {
        guard let kind = RunFrameKind(rawValue: frame.kind) else {
            return ChannelFault("a frame of unknown kind \(frame.kind)", bytes: frame.payload)
        }
        var reader = TraceWireReader(frame.payload)
        do throws(TraceDecodingError) {
            if let problem = try take(kind, &reader) { return ChannelFault(problem, bytes: frame.payload) }
            try reader.expectEnd()
            return nil
        } catch {
            return ChannelFault("a malformed \(kind) frame (\(error))", bytes: frame.payload)
        }
    }

    /// Applies one frame; what is wrong with its order, or nil.
    private mutating func take(_ kind: RunFrameKind, _ reader: inout TraceWireReader) throws(TraceDecodingError) -> String? {
        guard end == nil else { return "a frame after the end record" }
        switch kind {
        case .alive:
            break  // Resets the watchdog; a frame written meanwhile may let held records go.
        case .begin:
            let number = try reader.int(), line = try reader.int()
            let summary = try reader.optional { r throws(TraceDecodingError) in try r.string() }
            if let lastBegun, number <= lastBegun { return "the start of event #\(number) after event #\(lastBegun)" }
            if number < 0 || line < 0 { return "the start of event #\(number) at line \(line)" }
            lastBegun = number
            running = number
            deliver(.begin(event: number, line: line))
            eventSummary = summary
            phase = nil
        case .loading:
            let plugin = try reader.string()
            phase = "while loading \(plugin)"
            loadedPlugins.append(plugin)
        case .setting:
            let item = try reader.string(), property = try reader.string(), line = try reader.int()
            phase = "while applying item \"\(item)\"'s set of \"\(property)\" (\(sourceName):\(line))"
        case .record:
            let record = try reader.record(begunSummary: running == nil ? nil : eventSummary)
            switch record {
            case .header:
                if sawHeader || lastBegun != nil { return "a second header, or one after events" }
                sawHeader = true
                // The header follows the scene check: the announced steps are over.
                phase = nil
            case .event(let e):
                guard running == e.number else {
                    return "the record of event #\(e.number), which was not the event running"
                }
                running = nil
            case .log(let log):
                if let event = log.event, event > (lastBegun ?? -1) { return "a log of event #\(event), which had not begun" }
            case .end(let e):
                end = e
                return nil
            }
            deliver(.record(record))
        }
        releaseCommitted()
        return nil
    }

    /// Hands `step` to the recorder, or holds it behind steps that wait or for its own frames.
    private mutating func deliver(_ step: Step) {
        if held.isEmpty, !namesFrames(step) { apply(step) } else { held.append(step) }
    }

    /// Lets through the held steps up to the first record whose frames are not all on disk yet.
    mutating func releaseCommitted() {
        guard !held.isEmpty else { return }
        var released = 0
        while released < held.count {
            if !lacksFrames(held[released]) {
                apply(held[released])
            } else if held.count - released > Self.heldLimit {
                unnamed.formUnion(missingFrames(held[released]))
                apply(held[released], without: unnamed)
            } else {
                break
            }
            released += 1
        }
        held.removeFirst(released)
    }

    /// When the worker has ended: lets every held step through. A frame that never reached the
    /// disk loses its file name (the trace keeps the frame, its damage and its index); what it
    /// left half-written is removed. Returns the names of the frames lost.
    mutating func releaseAll() -> [String] {
        let missing = held.flatMap(missingFrames)
        let lost = Set(Supervisor.recoverFrames(in: framesDirectory, names: missing))
        for step in held { apply(step, without: lost) }
        held.removeAll()
        return missing.filter(lost.contains)
    }

    /// Hands `step` to the recorder; an event record's frames whose file is in `unwritten`
    /// keep their place without naming it (nor the frame it repeats).
    private func apply(_ step: Step, without given: Set<String> = []) {
        let unwritten = unnamed.isEmpty ? given : given.union(unnamed)
        switch step {
        case .begin(let event, let line):
            recorder.begin(event: event, line: line)
        case .record(.event(var e)) where !unwritten.isEmpty:
            for i in e.frames.indices where e.frames[i].file.map(unwritten.contains) == true {
                e.frames[i].file = nil
                e.frames[i].sameAs = nil
            }
            recorder.record(.event(e))
        case .record(let record):
            recorder.record(record)
        }
    }

    /// Whether `step` is an event record naming a file of its own (a repeated frame names an
    /// earlier frame's file, which the record of that frame waited for).
    private func namesFrames(_ step: Step) -> Bool {
        guard framesDirectory != nil, case .record(.event(let e)) = step else { return false }
        return e.frames.contains { $0.file != nil && $0.sameAs == nil }
    }

    /// The files `step` names that are not in the frames folder yet.
    private func missingFrames(_ step: Step) -> [String] {
        guard namesFrames(step), case .record(.event(let e)) = step else { return [] }
        return e.frames.compactMap { frame in frame.sameAs == nil ? frame.file.flatMap { isOnDisk($0) ? nil : $0 } : nil }
    }

    /// Whether a file `step` names is not in the frames folder yet (checked while records wait,
    /// so without building the list).
    private func lacksFrames(_ step: Step) -> Bool {
        guard namesFrames(step), case .record(.event(let e)) = step else { return false }
        return e.frames.contains { frame in frame.sameAs == nil && frame.file.map { !isOnDisk($0) } == true }
    }

    private func isOnDisk(_ file: String) -> Bool {
        guard let framesDirectory else { return false }
        return access(framesDirectory + "/" + file, F_OK) == 0
    }
}
