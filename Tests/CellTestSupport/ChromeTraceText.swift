import CellIO

/// Reads a Chrome trace as the Trace Event Format's importers do: the JSON Array Format's closing
/// `]` is optional, so the file of a run killed outright (an array still open after its last
/// complete trace event) reads as well as a finished one.
public enum ChromeTraceText {
    /// The trace events of `text`: a closed array, or one that ends after a complete element.
    public static func events(_ text: String) throws -> [JSON] {
        if let closed = try? JSON.parse(text).arrayValue { return closed }
        return try JSON.parse(text + "\n]").arrayValue ?? []
    }

    /// Whether `text` is a closed array, as every run that ended (cleanly or not) leaves it.
    public static func isClosed(_ text: String) -> Bool { (try? JSON.parse(text).arrayValue) != nil }
}
