/// What a cell knows about its content value that lets an update pass skip work: which fast
/// paths the value's type adopts, the state its current restyle was made for, the last two pure
/// restyles, whether the content view already holds the value, and the type identifier once
/// read. Everything here belongs to the value last set: setting a value (or clearing it for
/// reuse) starts it afresh through `valueWasSet`, and it is invalid for any other value.
/// Versions count the values placed in the cell's slot (a set or a restyle places one), so equal
/// versions mean the very same value, known without comparing. Switched off (`isEnabled`), every
/// pass restyles and compares as if nothing were known, which tests use to check the shortcuts
/// change no result.
/// Event-path stored properties are `@exclusivity(unchecked)`: one thread owns it, their accesses never overlap.
final class RestyleReuse {
    // An object, not a struct stored in the cell: each question then reads its fields in place,
    // where a struct would be copied out of the cell to answer one.

    /// Off: every pass restyles and compares as if nothing were known.
    @exclusivity(unchecked) var isEnabled = true
    /// Passes that kept the content as restyled before (tests check the shortcut is taken).
    @exclusivity(unchecked) private(set) var keptRestyles = 0
    /// Passes that took back a pure restyle made for an equal state (tests check it is taken).
    @exclusivity(unchecked) private(set) var reusedRestyles = 0

    /// What the current value's type adopts of `ContentConfigurationFastPaths`.
    @exclusivity(unchecked) private var fastPaths = ContentFastPathsLookup.none
    /// The version of the value in the cell's slot.
    @exclusivity(unchecked) private var version = 0
    /// Counts the values set (restyles aside), so kept restyles of an earlier value are not taken back.
    @exclusivity(unchecked) private var setCount = 0
    /// The state the current value was restyled for, with the version that restyle produced; a
    /// later pass whose state restyles alike keeps the value as it is.
    @exclusivity(unchecked) private var lastRestyle: Restyle?
    /// The version the content view last took or matched; -1 for none.
    @exclusivity(unchecked) private var versionInView = -1
    /// The last restyles of the current value, when its restyle is pure.
    @exclusivity(unchecked) private var recentRestyles = RecentRestyles()
    /// The value's type identifier, once read (`.some(nil)` when there is no value); nil until then.
    @exclusivity(unchecked) var typeIdentifier: String??

    /// A struct, not a tuple: a tuple holding a reference is copied through the runtime's
    /// generic witnesses, and this is read on every pass.
    private struct Restyle {
        var state: CellConfigurationState
        var version: Int
    }

    /// `value` was placed in the slot by a set, already restyled for `state` (nil when it was
    /// placed as given). A value without content (`NoContent`) is passed with `hasContent` false.
    func valueWasSet(_ value: any ContentConfiguration, hasContent: Bool, restyledFor state: CellConfigurationState?) {
        version &+= 1
        setCount &+= 1
        typeIdentifier = nil
        fastPaths = hasContent ? ContentFastPathsLookup(of: value) : .none
        lastRestyle = state.map { Restyle(state: $0, version: version) }
        if let state, hasContent, fastPaths.restyleIsPure {
            recentRestyles.keep(value, for: state, setCount: setCount, version: version)
        } else {
            recentRestyles.removeAll()
        }
    }

    /// Restyles `slot` for `state` as `updated(for: state)` would, unless it already is: kept
    /// when its last restyle was for a state that restyles alike, taken back when a pure restyle
    /// for an equal state is kept, and otherwise restyled (through the cell-state path when the
    /// type has one and `state` is a cell's).
    func restyle<State: ConfigurationState>(_ slot: inout any ContentConfiguration, for state: State,
                                                     cellState: CellConfigurationState) {
        if isEnabled, lastRestyle?.version == version {
            // Read into locals before `slot` is opened: arguments read from this object while
            // it is open would have it copied first.
            let restyledFor = lastRestyle!.state, lookup = fastPaths
            if slot.restylesAlike(restyledFor, cellState, by: lookup) {
                keptRestyles += 1
                return
            }
        }
        version &+= 1
        if isEnabled, recentRestyles.takeBack(for: cellState, setCount: setCount, version: version, into: &slot) {
            reusedRestyles += 1
        } else {
            // A cell's state is passed as itself, not boxed in an existential.
            slot = State.self == CellConfigurationState.self && fastPaths.restylesCellStates
                ? slot.restyled(forCellState: cellState, by: fastPaths) : slot.updated(for: state)
            if fastPaths.restyleIsPure { recentRestyles.keep(slot, for: cellState, setCount: setCount, version: version) }
        }
        lastRestyle = Restyle(state: cellState, version: version)
    }

    /// Whether the content view holds the slot's value, or one known to equal it; nil when only
    /// comparing them can tell (then the cell compares and calls `noteViewEquality`).
    func viewShowsValue() -> Bool? {
        guard isEnabled else { return nil }
        if versionInView == version { return true }
        return recentRestyles.knownEquality(slotVersion: version, viewVersion: versionInView)
    }

    /// What comparing the content view's value with the slot's gave. The view swapping between
    /// the two kept pure restyles is compared once.
    func noteViewEquality(_ equal: Bool) {
        recentRestyles.noteEquality(equal, slotVersion: version, viewVersion: versionInView)
    }

    /// The content view now holds the slot's value (or there is no view).
    func viewTookValue(hasView: Bool) {
        versionInView = hasView ? version : -1
    }
}
