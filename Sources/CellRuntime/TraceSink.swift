import CellIO
/// Something that turns trace records into output: the terminal table, `trace.jsonl`, the Chrome
/// trace. The engine (in-process) or the supervisor (records streamed from a worker) feeds every
/// sink the same records in order, ending with exactly one `.end` record, then calls `finish()`.
public protocol TraceSink: AnyObject {
    func write(_ record: TraceRecord)
    /// Completes the output (closing brackets, rename into place). Called once, also after failures.
    func finish() throws(SinkError)
}

/// Feeds several sinks as one.
public final class TraceFanOut: TraceSink {
    public private(set) var sinks: [any TraceSink]
    public init(_ sinks: [any TraceSink]) { self.sinks = sinks }
    public func write(_ record: TraceRecord) { for s in sinks { s.write(record) } }
    public func finish() throws(SinkError) {
        var first: SinkError?
        for s in sinks {
            do { try s.finish() } catch { if first == nil { first = error } }
        }
        if let first { throw first }
    }
}

/// `trace.jsonl`: one `cellhost.trace/1` record per line, header first, end last.
public final class JSONLTraceWriter: TraceSink {
    private let file: AtomicFile
    /// One record's line, handed to the file whole.
    private let line = JSONByteWriter()

    public init(path: String) throws(SinkError) { file = try AtomicFile(path: path) }

    public func write(_ record: TraceRecord) {
        record.writeJSON(to: line)
        line.byte(UInt8(ascii: "\n"))
        file.write(line.bytes)
        line.removeAll()
        file.recordEnded()
    }

    public func finish() throws(SinkError) { try file.commit() }
}

/// What a sink that shows log messages with their event holds back: a log record comes before
/// the record of the event it was logged in, so it waits for that record (or for the end, when
/// the event never finished). One without an event (logged while loading), or of an event
/// already shown, is shown at once.
struct LogsAwaitingTheirEvent {
    private var held: [TraceLog] = []
    private var lastEventShown = -1

    /// `log` if it can be shown now; otherwise nil, and it is held.
    mutating func admit(_ log: TraceLog) -> TraceLog? {
        guard let event = log.event, event > lastEventShown else { return log }
        held.append(log)
        return nil
    }

    /// At the record of event `number`: the held messages it shows, in the order they came.
    mutating func release(event number: Int) -> [TraceLog] {
        lastEventShown = number
        let due = held.filter { ($0.event ?? 0) <= number }
        held.removeAll { ($0.event ?? 0) <= number }
        return due
    }

    /// At the end record: every message still held.
    mutating func releaseAll() -> [TraceLog] {
        defer { held.removeAll() }
        return held
    }
}
