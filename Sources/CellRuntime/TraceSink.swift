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
    private var line = ""

    public init(path: String) throws(SinkError) { file = try AtomicFile(path: path) }

    public func write(_ record: TraceRecord) {
        line.removeAll(keepingCapacity: true)
        record.json.write(to: &line)
        line += "\n"
        file.write(line)
        file.flush()
    }

    /// Writes an already-encoded record line as is (the supervisor forwards the worker's lines).
    public func write(encodedLine: String) {
        line.removeAll(keepingCapacity: true)
        line += encodedLine
        line += "\n"
        file.write(line)
        file.flush()
    }

    public func finish() throws(SinkError) { try file.commit() }
}
