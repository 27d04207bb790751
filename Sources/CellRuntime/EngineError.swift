/// A problem that stops a run: bad input the parser could not know about (a property a plugin
/// type does not have, an unknown type id), named with the stream line.
public struct EngineError: Error, CustomStringConvertible, Equatable {
    public var message: String
    public var line: Int?
    public init(_ message: String, line: Int? = nil) {
        self.message = message
        self.line = line
    }
    public var description: String { message }
}
