import CellIO
import CellRuntime
import Glibc

/// `report.html`: one self-contained page to look at a run (see `ReportPage`). It keeps every
/// record as the JSONL trace encodes it and writes the page whole in `finish()`, through
/// `AtomicFile`, so the page appears only complete — also after a run that failed, whose end
/// record the page shows with the event it stopped at.
public final class ReportWriter: TraceSink {
    /// Opened at once, so a page that cannot be written there fails the run before it starts.
    private let file: AtomicFile
    private let framesLink: String
    private let chromeTraceLink: String?
    /// The records' JSON, comma-separated, in the order they came.
    private var records = ""
    private var count = 0

    /// `frames` and `chromeTrace` are where those outputs are; the page links them relative to
    /// its own folder when they lie inside it, so the output folder can be moved or served whole.
    public init(path: String, frames: String?, chromeTrace: String?) throws(SinkError) {
        file = try AtomicFile(path: path)
        let folder = ReportWriter.folder(of: path)
        framesLink = frames.map { ReportWriter.link(to: $0, from: folder) + "/" } ?? ""
        chromeTraceLink = chromeTrace.map { ReportWriter.link(to: $0, from: folder) }
    }

    public func write(_ record: TraceRecord) {
        if count > 0 { records += ",\n" }
        record.json.write(to: &records)
        count += 1
    }

    public func finish() throws(SinkError) {
        file.write(ReportPage.head)
        var data = "{\"frames\":"
        JSON.string(framesLink).write(to: &data)
        data += ",\"chromeTrace\":"
        (chromeTraceLink.map(JSON.string) ?? .null).write(to: &data)
        data += ",\"records\":[\n"
        file.write(ReportPage.scriptSafe(data))
        file.write(ReportPage.scriptSafe(records))
        file.write("]}")
        file.write(ReportPage.tail)
        try file.commit()
    }

    static func folder(of path: String) -> String {
        path.lastIndex(of: "/").map { String(path[..<$0]) } ?? "."
    }

    /// `target` relative to `folder` when it lies inside it; otherwise a `file://` address of it.
    static func link(to target: String, from folder: String) -> String {
        let prefix = folder == "." ? "" : folder + "/"
        if !target.hasPrefix("/") && folder == "." { return target }
        if !prefix.isEmpty, target.hasPrefix(prefix) { return String(target.dropFirst(prefix.count)) }
        if target.hasPrefix("/") { return "file://" + target }
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        let cwd = getcwd(&buffer, buffer.count).map { String(cString: $0) } ?? "."
        return "file://" + cwd + "/" + target
    }
}

extension RunOutputPlan {
    /// The report page's sink when the plan has one, linking the plan's frames and Chrome trace.
    public func openReportSink() throws(SinkError) -> ReportWriter? {
        guard let report else { return nil }
        return try ReportWriter(path: report, frames: framesDirectory, chromeTrace: chromeTrace)
    }
}
