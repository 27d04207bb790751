import CellIO
/// Something that turns trace records into output: the terminal table, `trace.jsonl`, the Chrome
/// trace. The engine (in-process) or the supervisor (records streamed from a worker) feeds every
/// sink the same records in order, ending with exactly one `.end` record, then calls `finish()`.
public protocol TraceSink: AnyObject {
    func write(_ record: TraceRecord)
    /// Hands what the sink batched to the kernel. Called whenever the run is about to wait (for
    /// the worker, for input), so a file never lags behind a run that has nothing else to do; a
    /// sink that shows each record at once (the terminal table) has nothing to flush.
    func flush()
    /// Completes the output (closing brackets, rename into place). Called once, also after failures.
    func finish() throws(SinkError)
}

extension TraceSink {
    public func flush() {}
}

/// Feeds several sinks as one.
public final class TraceFanOut: TraceSink {
    public private(set) var sinks: [any TraceSink]
    public init(_ sinks: [any TraceSink]) { self.sinks = sinks }
    public func write(_ record: TraceRecord) { for s in sinks { s.write(record) } }
    public func flush() { for s in sinks { s.flush() } }
    public func finish() throws(SinkError) {
        var first: SinkError?
        for s in sinks {
            do { try s.finish() } catch { if first == nil { first = error } }
        }
        if let first { throw first }
    }
}

/// `trace.jsonl`: one `cellhost.trace/1` record per line, header first, end last, written in
/// place (`InPlaceFile`): the file ends with a whole line whenever the run is killed.
public final class JSONLTraceWriter: TraceSink {
    private let file: InPlaceFile

    public init(path: String) throws(SinkError) { file = try InPlaceFile(path: path) }

    public func write(_ record: TraceRecord) {
        record.writeJSON(to: file.out)
        file.out.byte(UInt8(ascii: "\n"))
        file.recordEnded()
    }

    public func flush() { file.flush() }

    public func finish() throws(SinkError) { try file.close() }
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
