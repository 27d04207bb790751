/// How one capture fared, and the files a person opens to see why.
public struct SnapshotOutcome: Sendable, Equatable {
    public enum Status: String, Sendable, Equatable {
        /// Image and trace match their references.
        case passed
        /// A reference was written (missing, or the record mode asked for it): a failure, since
        /// nobody has looked at it yet.
        case recorded
        /// Image or trace differ from the reference, or the reference is missing under
        /// `--record never`, or unreadable.
        case failed
        /// The stream (or this combination of it) did not run to its end: bad input, a plugin
        /// that crashed or hung.
        case error
    }

    /// The stream's path.
    public var stream: String
    /// The capture's file stem (`selected.dark-AX3`); nil for a stream that failed as a whole.
    public var capture: String?
    public var status: Status
    /// What happened, in one line or a few.
    public var message: String
    /// Files written for a person to look at (references recorded, or actual / diff / trace diff).
    public var files: [String]

    public init(stream: String, capture: String?, status: Status, message: String = "", files: [String] = []) {
        self.stream = stream
        self.capture = capture
        self.status = status
        self.message = message
        self.files = files
    }

    public var isFailure: Bool { status != .passed }
}

/// Every outcome of a `cellhost test` run, in stream and capture order.
public struct SnapshotReport: Sendable, Equatable {
    public var outcomes: [SnapshotOutcome]
    public var recordMode: RecordMode

    public var failures: [SnapshotOutcome] { outcomes.filter(\.isFailure) }
    public var passed: Bool { failures.isEmpty }

    /// The last lines of a run: counts, then each failure with its files.
    public var summary: String {
        let count = { (s: SnapshotOutcome.Status) in self.outcomes.filter { $0.status == s }.count }
        var parts = ["\(count(.passed)) passed"]
        if count(.failed) > 0 { parts.append("\(count(.failed)) failed") }
        if count(.recorded) > 0 { parts.append("\(count(.recorded)) recorded") }
        if count(.error) > 0 { parts.append("\(count(.error)) could not run") }
        var text = "cellhost test: " + parts.joined(separator: ", ") + "\n"
        for f in failures {
            text += "  \(f.status == .recorded ? "recorded" : "FAILED") \(f.stream)\(f.capture.map { " " + $0 } ?? ""): \(f.message)\n"
            for file in f.files { text += "      \(file)\n" }
        }
        if count(.recorded) > 0 {
            text += recordMode == .all
                ? "Record mode is on (--record all): every reference was recorded again. Look at them, then run without --record all to compare.\n"
                : "References were recorded: look at them, commit them, and run again to compare against them.\n"
        }
        return text
    }
}
