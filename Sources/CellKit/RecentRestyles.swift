/// The last two restyles a cell made of its current content value, kept when the
/// configuration's restyle is pure (`ContentConfigurationFastPaths.restyleIsPure`): a pass for a state
/// equal to one of theirs takes that restyle back instead of restyling again. Two, because a
/// toggled state (highlight on, off, on) comes back to the state of two passes ago; and as the
/// content view then swaps between the two, whether they are equal is asked once and kept.
///
/// Plain stored properties, not optional pairs: unwrapping an optional that holds an
/// existential copies it through the runtime's generic witnesses, which cost more than the
/// restyle a plugin saves.
struct RecentRestyles {
    /// The value set the kept restyles belong to (`RestyleReuse`'s count of sets): a set value
    /// starts afresh.
    private var setCount = -1
    /// How many of the two slots below hold a restyle (the newer fills first).
    private var kept = 0
    private var newerState = CellConfigurationState()
    private var newerConfiguration: any ContentConfiguration = NoContent()
    private var olderState = CellConfigurationState()
    private var olderConfiguration: any ContentConfiguration = NoContent()
    /// The version (`RestyleReuse`'s) each had when last put in the cell's slot. Versions only
    /// grow, so a version names one placing of one of these values.
    private var newerVersion = -1
    private var olderVersion = -1
    /// Whether the two kept compare equal, once a pass has asked.
    private var keptAreEqual: Bool?

    /// Puts the restyle kept for `state` of value set `setCount` into `slot`, as `version`;
    /// false, leaving `slot` alone, when none is kept.
    mutating func takeBack(for state: CellConfigurationState, setCount: Int, version: Int,
                           into slot: inout any ContentConfiguration) -> Bool {
        guard setCount == self.setCount, kept > 0 else { return false }
        if newerState == state {
            slot = newerConfiguration
            newerVersion = version
            return true
        }
        if kept > 1, olderState == state {
            slot = olderConfiguration
            olderVersion = version
            return true
        }
        return false
    }

    /// Keeps `configuration`, the restyle for `state` of value set `setCount` placed as
    /// `version`, pushing out the older of the two kept (or both, for a new value set).
    mutating func keep(_ configuration: any ContentConfiguration, for state: CellConfigurationState, setCount: Int,
                       version: Int) {
        if setCount == self.setCount, kept > 0 {
            swap(&olderState, &newerState)
            swap(&olderConfiguration, &newerConfiguration)
            olderVersion = newerVersion
            kept = 2
        } else {
            if kept > 1 { olderConfiguration = NoContent() }
            self.setCount = setCount
            kept = 1
        }
        newerState = state
        newerConfiguration = configuration
        newerVersion = version
        keptAreEqual = nil
    }

    /// Whether the two kept are one placed as `slotVersion` and the other as `viewVersion`:
    /// then comparing the slot with the view compares the two kept.
    private func holdsBoth(slotVersion: Int, viewVersion: Int) -> Bool {
        kept == 2 && slotVersion != viewVersion
            && (newerVersion == slotVersion || newerVersion == viewVersion)
            && (olderVersion == slotVersion || olderVersion == viewVersion)
    }

    /// Whether the value placed as `slotVersion` equals the one the content view took as
    /// `viewVersion`, when both are the kept pair and a pass already compared them; else nil.
    func knownEquality(slotVersion: Int, viewVersion: Int) -> Bool? {
        holdsBoth(slotVersion: slotVersion, viewVersion: viewVersion) ? keptAreEqual : nil
    }

    /// Remembers what comparing the slot (`slotVersion`) with the view (`viewVersion`) gave,
    /// when those are the kept pair.
    mutating func noteEquality(_ equal: Bool, slotVersion: Int, viewVersion: Int) {
        if holdsBoth(slotVersion: slotVersion, viewVersion: viewVersion) { keptAreEqual = equal }
    }

    /// Drops what is kept (a configuration whose restyle is not pure was set).
    mutating func removeAll() {
        guard kept > 0 else { return }
        self = RecentRestyles()
    }
}
