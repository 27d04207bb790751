/// The last two restyles a cell made of its current content value, kept when the
/// configuration's restyle is pure (`ContentConfiguration.restyleIsPure`): a pass for a state
/// equal to one of theirs takes that restyle back instead of restyling again. Two, because a
/// toggled state (highlight on, off, on) comes back to the state of two passes ago.
///
/// Plain stored properties, not optional pairs: unwrapping an optional that holds an
/// existential copies it through the runtime's generic witnesses, which cost more than the
/// restyle a plugin saves.
struct RecentRestyles {
    /// The `contentValueSetCount` the kept restyles belong to: a set value starts afresh.
    private var setCount = -1
    /// How many of the two slots below hold a restyle (the newer fills first).
    private var kept = 0
    private var newerState = CellConfigurationState()
    private var newerConfiguration: any ContentConfiguration = NoContent()
    private var olderState = CellConfigurationState()
    private var olderConfiguration: any ContentConfiguration = NoContent()

    /// Puts the restyle kept for `state` of value set `setCount` into `slot`; false, leaving
    /// `slot` alone, when none is kept.
    mutating func takeBack(for state: CellConfigurationState, setCount: Int, into slot: inout any ContentConfiguration) -> Bool {
        guard setCount == self.setCount, kept > 0 else { return false }
        if newerState == state {
            slot = newerConfiguration
            return true
        }
        if kept > 1, olderState == state {
            slot = olderConfiguration
            return true
        }
        return false
    }

    /// Keeps `configuration`, the restyle for `state` of value set `setCount`, pushing out the
    /// older of the two kept (or both, for a new value set).
    mutating func keep(_ configuration: any ContentConfiguration, for state: CellConfigurationState, setCount: Int) {
        if setCount == self.setCount, kept > 0 {
            swap(&olderState, &newerState)
            swap(&olderConfiguration, &newerConfiguration)
            kept = 2
        } else {
            if kept > 1 { olderConfiguration = NoContent() }
            self.setCount = setCount
            kept = 1
        }
        newerState = state
        newerConfiguration = configuration
    }

    /// Drops what is kept (a configuration whose restyle is not pure was set).
    mutating func removeAll() {
        guard kept > 0 else { return }
        self = RecentRestyles()
    }
}
