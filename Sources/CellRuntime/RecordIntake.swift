import CellProcess

/// The supervisor's reading side of a run's channel: checks every frame from the worker before
/// anything in it reaches the sinks, and remembers what a report of the worker's death needs.
/// The worker runs plugin code, so its frames are untrusted input: a frame of an unknown kind, a
/// payload of the wrong shape, an event begun out of order, a record of an event that was not
/// begun, a second header or anything after the end record is refused with the frame's bytes,
/// and the worker is stopped. The sinks then hold every record up to the last one accepted.
struct RecordIntake {
    let recorder: TraceRecorder
    let sourceName: String
    private(set) var end: TraceEnd?
    /// The last announced step outside events, cleared when an event begins.
    private(set) var phase: String?
    private(set) var eventSummary: String?
    private(set) var loadedPlugins: [String] = []
    private var lastBegun: Int?
    private var sawHeader = false

    init(recorder: TraceRecorder, sourceName: String) {
        self.recorder = recorder
        self.sourceName = sourceName
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
            return nil  // Only resets the watchdog.
        case .begin:
            let number = try reader.int(), line = try reader.int()
            let summary = try reader.optional { r throws(TraceDecodingError) in try r.string() }
            if let lastBegun, number <= lastBegun { return "the start of event #\(number) after event #\(lastBegun)" }
            if number < 0 || line < 0 { return "the start of event #\(number) at line \(line)" }
            lastBegun = number
            recorder.begin(event: number, line: line)
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
            let record = try reader.record()
            switch record {
            case .header:
                if sawHeader || lastBegun != nil { return "a second header, or one after events" }
                sawHeader = true
                // The header follows the scene check: the announced steps are over.
                phase = nil
            case .event(let e):
                guard let current = recorder.currentEvent, current.number == e.number else {
                    return "the record of event #\(e.number), which was not the event running"
                }
            case .log(let log):
                if let event = log.event, event > (lastBegun ?? -1) { return "a log of event #\(event), which had not begun" }
            case .end(let e):
                end = e
                return nil
            }
            recorder.record(record)
        }
        return nil
    }
}
