/// A configuration whose properties a trace read in full, with the list read. A pass's "before"
/// stage is mostly the last pass's final stage; kept here, it is not read a second time (a plugin
/// configuration reads each property through libffi, a background builds forty values).
public final class LastFullRead<C> {
    public private(set) var value: C?
    public private(set) var list: [InspectableProperty] = []

    public init() {}

    func keep(_ value: C?, list: [InspectableProperty]) {
        self.value = value
        self.list = value == nil ? [] : list
    }
}
