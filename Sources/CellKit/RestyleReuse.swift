/// What a cell knows about its content value that lets an update pass skip work: which fast
/// paths the value's type adopts, the state its current restyle was made for, the last two pure
/// restyles, whether the content view already holds the value, and the type identifier once
/// read. Everything here belongs to the value last set: setting a value (or clearing it for
/// reuse) starts it afresh through `valueWasSet`, and it is invalid for any other value.
/// Versions count the values placed in the cell's slot (a set or a restyle places one), so equal
/// versions mean the very same value, known without comparing. Switched off (`isEnabled`), every
/// pass restyles and compares as if nothing were known, which tests use to check the shortcuts
/// change no result.
struct RestyleReuse {
    /// Off: every pass restyles and compares as if nothing were known.
    var isEnabled = true
    /// Passes that kept the content as restyled before (tests check the shortcut is taken).
    private(set) var keptRestyles = 0
    /// Passes that took back a pure restyle made for an equal state (tests check it is taken).
    private(set) var reusedRestyles = 0

    /// What the current value's type adopts of `ContentConfigurationFastPaths`.
    private var fastPaths = ContentFastPathsLookup.none
    /// The version of the value in the cell's slot.
    private var version = 0
    /// Counts the values set (restyles aside), so kept restyles of an earlier value are not taken back.
    private var setCount = 0
    /// The state the current value was restyled for, with the version that restyle produced; a
    /// later pass whose state restyles alike keeps the value as it is.
    private var lastRestyle: Restyle?
    /// The version the content view last took or matched; -1 for none.
    private var versionInView = -1
    /// The last restyles of the current value, when its restyle is pure.
    private var recentRestyles = RecentRestyles()
    /// The value's type identifier, once read: nil until then.
    private var typeIdentifier: String??

    /// A struct, not a tuple: a tuple holding a reference is copied through the runtime's
    /// generic witnesses, and this is read on every pass.
    private struct Restyle {
        var state: CellConfigurationState
        var version: Int
    }

    /// `value` was placed in the slot by a set, already restyled for `state` (nil when it was
    /// placed as given). A value without content (`NoContent`) is passed with `hasContent` false.
    mutating func valueWasSet(_ value: any ContentConfiguration, hasContent: Bool, restyledFor state: CellConfigurationState?) {
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
    mutating func restyle<State: ConfigurationState>(_ slot: inout any ContentConfiguration, for state: State,
                                                     cellState: CellConfigurationState) {
        if isEnabled, let done = lastRestyle, done.version == version, fastPaths.restylesAlike(slot, done.state, cellState) {
            keptRestyles += 1
            return
        }
        version &+= 1
        if isEnabled, recentRestyles.takeBack(for: cellState, setCount: setCount, version: version, into: &slot) {
            reusedRestyles += 1
        } else {
            // A cell's state is passed as itself, not boxed in an existential.
            slot = State.self == CellConfigurationState.self && fastPaths.restylesCellStates
                ? fastPaths.restyled(slot, forCellState: cellState) : slot.updated(for: state)
            if fastPaths.restyleIsPure { recentRestyles.keep(slot, for: cellState, setCount: setCount, version: version) }
        }
        lastRestyle = Restyle(state: cellState, version: version)
    }

    /// Whether `view` already shows `slot`: it took this very value before (only the cell sets
    /// its configuration), or holds an equal one. The view swapping between the two kept pure
    /// restyles compares them once.
    mutating func view(_ view: any ContentView, shows slot: any ContentConfiguration) -> Bool {
        if isEnabled {
            if versionInView == version { return true }
            if let known = recentRestyles.knownEquality(slotVersion: version, viewVersion: versionInView) { return known }
        }
        let equal = view.configuration.isEqual(to: slot)
        recentRestyles.noteEquality(equal, slotVersion: version, viewVersion: versionInView)
        return equal
    }

    /// The content view now holds the slot's value (or there is no view).
    mutating func viewTookValue(hasView: Bool) {
        versionInView = hasView ? version : -1
    }

    /// The value's `typeIdentifier`, read once per value set: traces name it after every pass,
    /// and asking a large configuration through its existential copies it.
    mutating func typeIdentifier(of value: any ContentConfiguration, hasContent: Bool) -> String? {
        if let read = typeIdentifier { return read }
        let read = hasContent ? value.typeIdentifier : nil
        typeIdentifier = .some(read)
        return read
    }
}
