/// A problem that stops `cellhost test` before any stream runs (nothing to test, a bad option);
/// a problem of one stream is that stream's failure instead, and the others still run.
public struct SnapshotError: Error, CustomStringConvertible, Equatable {
    public var description: String
    public init(_ description: String) { self.description = description }
}
