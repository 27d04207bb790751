/// The lookup for the type last asked about, looked up again only when another type is asked
/// about: a trace compares stages of one row, which are mostly of one type. Only its witnesses
/// serve another value (`restyleIsPure` is the first value's). An object, so the closures a
/// trace compares stages with can share it.
final class LastFastPathsLookup {
    private var type: ObjectIdentifier?
    private var found = ContentFastPathsLookup.none

    /// Generic, so the value's type is at hand without asking the runtime for it.
    func lookup<C: ContentConfiguration>(for value: C) -> ContentFastPathsLookup {
        if ObjectIdentifier(C.self) != type {
            type = ObjectIdentifier(C.self)
            found = ContentFastPathsLookup(of: value)
        }
        return found
    }
}
