/// When `cellhost test` writes references, as swift-snapshot-testing's record modes. Recording
/// always fails the run: a reference written now was never looked at, so nothing was tested.
public enum RecordMode: String, Sendable, CaseIterable {
    /// Records references that do not exist yet; compares the others (the default).
    case missing
    /// Records every reference again, whatever it held.
    case all
    /// Records the references that did not match, and the missing ones.
    case failed
    /// Only compares: a missing reference is a failure (CI).
    case never
}
