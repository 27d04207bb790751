import CellIO
import Glibc

/// The files a run writes: an output directory implies a trace, a Chrome trace, frames, a
/// contact sheet and the report page inside it, and each single option overrides its one path.
/// Invariant: a path given on its own always wins over the one the directory implies, and the
/// contact sheet is written only with an output directory.
public struct RunOutputPlan: Sendable, Equatable {
    /// The directory every implied path lies in; nil = only the single paths.
    public var directory: String?
    public var trace: String?
    public var chromeTrace: String?
    public var framesDirectory: String?
    public var contactSheet: String?
    /// `report.html` (CellReport's `ReportWriter`, which the caller opens: it lies above this layer).
    public var report: String?

    public init(directory: String? = nil, trace: String? = nil, chromeTrace: String? = nil, frames: String? = nil,
                report: String? = nil) {
        self.directory = directory
        self.trace = trace ?? directory.map { $0 + "/trace.jsonl" }
        self.chromeTrace = chromeTrace ?? directory.map { $0 + "/trace.chrome.json" }
        self.framesDirectory = frames ?? directory.map { $0 + "/frames" }
        self.contactSheet = directory.map { $0 + "/contact-sheet.png" }
        self.report = report ?? directory.map { $0 + "/report.html" }
    }

    /// Creates the output directory and opens the trace files, which grow in place from here on
    /// (`InPlaceFile`); the earlier run's traces and report go first (see `clearEarlierRun`).
    public func openTraceSinks() throws(SinkError) -> [any TraceSink] {
        if let directory { try makeDirectories(directory) }
        for path in [trace, chromeTrace, report].compactMap(\.self) { Self.clearEarlierRun(at: path) }
        var sinks: [any TraceSink] = []
        if let trace { sinks.append(try JSONLTraceWriter(path: trace)) }
        if let chromeTrace { sinks.append(try ChromeTraceWriter(path: chromeTrace)) }
        return sinks
    }

    /// Before new frames are written, the earlier run's file at `path` goes, so no earlier trace
    /// or report is ever beside new frames, however this run ends; so do the hidden partial files
    /// of runs whose process no longer exists (the report's, and the traces' of versions that
    /// wrote them under a partial name); a live run's are left alone.
    static func clearEarlierRun(at path: String) {
        HostWriteMark.remove(path)
        let slash = path.lastIndex(of: "/")
        let folder = slash.map { $0 == path.startIndex ? "/" : String(path[..<$0]) } ?? "."
        let partial = FileReplacer.partialPrefix(for: path)
        let prefix = partial.lastIndex(of: "/").map { String(partial[partial.index(after: $0)...]) } ?? partial
        for entry in directoryEntries(folder) ?? [] where entry.hasPrefix(prefix) {
            guard let pid = pid_t(entry.dropFirst(prefix.count)), pid > 0, kill(pid, 0) != 0, errno == ESRCH else { continue }
            HostWriteMark.remove(folder + "/" + entry)
        }
    }

    /// Where the files of a finished run are, so a first run ends with the next thing to open;
    /// nil when it wrote none. Frames and the contact sheet are listed only when there are any.
    public func summary(frameCount: Int) -> String? {
        var lines: [String] = []
        if let trace { lines.append("  trace         \(trace)") }
        if let chromeTrace { lines.append("  chrome trace  \(chromeTrace)  (open in https://ui.perfetto.dev)") }
        if let framesDirectory, frameCount > 0 { lines.append("  frames        \(framesDirectory)/  (\(frameCount) PNG)") }
        if let contactSheet, frameCount > 0, access(contactSheet, F_OK) == 0 {
            lines.append("  contact sheet \(contactSheet)")
        }
        if let report { lines.append("  report        \(report)  (open in a browser)") }
        guard !lines.isEmpty else { return nil }
        return "wrote:\n" + lines.joined(separator: "\n") + "\n"
    }
}
