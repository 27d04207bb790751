import CellIO
/// A progress line on stderr for long streams (only when stderr is a terminal): events run,
/// frames written, and how far through the stream file the run is when its length is known.
public final class ProgressLine: TraceSink {
    private let output: (String) -> Void
    private let totalLines: Int?
    private var events = 0
    private var frames = 0
    private var lastDrawn = -1.0

    /// `totalLines`: lines of the stream file, for a bar; nil for stdin.
    public init(totalLines: Int?, output: @escaping (String) -> Void) {
        self.totalLines = totalLines
        self.output = output
    }

    public func write(_ record: TraceRecord) {
        guard case .event(let e) = record else { return }
        events += e.number > 0 ? 1 : 0
        frames += e.frames.count
        let now = Engine.now()
        guard now - lastDrawn > 0.1 else { return }
        lastDrawn = now
        var line = "\r\u{1B}[2K"
        if let totalLines, totalLines > 0 {
            let fraction = min(1, Double(e.line) / Double(totalLines))
            let filled = Int(fraction * 30)
            line += "[" + String(repeating: "#", count: filled) + String(repeating: " ", count: 30 - filled) + "] "
            line += "\(Int(fraction * 100))% "
        }
        line += "event \(events), \(frames) frame\(frames == 1 ? "" : "s")"
        output(line)
    }

    public func finish() throws(SinkError) {
        if lastDrawn >= 0 { output("\r\u{1B}[2K") }
    }
}
