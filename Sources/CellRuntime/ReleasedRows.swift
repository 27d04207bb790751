import CellKit

/// What the engine keeps of a section's rows it released, by item index, moving with inserts
/// and deletes as the items do. Most released rows are as their item makes them except for
/// their last traced state, and cost one byte (`marks`): 0 = nothing kept (never traced, or the
/// row is live), k = its last pass traced the item's own flags under the traits
/// `ReleasedRowTraits` numbers k; a million items scrolled past cost a million bytes, not a
/// million rows. A row with state of its own (flags an event set, an update pending for when it
/// shows) keeps that state as a small value (`states`). Storage exists only once a row was
/// released.
struct ReleasedRows {
    private var marks: [UInt8] = []
    /// Rows kept with state of their own: the values side by side (`states`, with each one's
    /// item index in `stateItems`) and where each item's value is (`stateOf`). A dictionary of
    /// the values themselves would hold a whole value in every one of its buckets, most empty.
    private var states: [ReleasedRowState] = []
    private var stateItems: [Int] = []
    private var stateOf: [Int: Int32] = [:]

    func mark(at index: Int) -> UInt8 { index < marks.count ? marks[index] : 0 }

    /// Marks item `index` of a section of `itemCount` items.
    mutating func setMark(_ mark: UInt8, at index: Int, itemCount: Int) {
        if marks.isEmpty {
            guard mark != 0 else { return }
            marks = Array(repeating: 0, count: itemCount)
        }
        marks[index] = mark
    }

    mutating func keep(_ state: ReleasedRowState, at index: Int) {
        if let position = stateOf[index] {
            states[Int(position)] = state
        } else {
            stateOf[index] = Int32(states.count)
            states.append(state)
            stateItems.append(index)
        }
    }

    /// The state kept for item `index`, no longer kept; the last value takes its place.
    mutating func takeState(at index: Int) -> ReleasedRowState? {
        guard !states.isEmpty, let position = stateOf.removeValue(forKey: index).map(Int.init) else { return nil }
        let state = states[position], last = states.count - 1
        if position != last {
            states[position] = states[last]
            stateItems[position] = stateItems[last]
            stateOf[stateItems[position]] = Int32(position)
        }
        states.removeLast()
        stateItems.removeLast()
        return state
    }

    /// How many rows are kept as values (tests bound it).
    var stateCount: Int { states.count }

    /// `count` items inserted before `index`.
    mutating func insert(count: Int, at index: Int) {
        guard count > 0 else { return }
        if !marks.isEmpty { marks.insert(contentsOf: repeatElement(0, count: count), at: index) }
        if !states.isEmpty { shiftStates(from: index, by: count) }
    }

    /// Items `index..<index + count` removed.
    mutating func remove(count: Int, at index: Int) {
        guard count > 0 else { return }
        if !marks.isEmpty { marks.removeSubrange(index..<(index + count)) }
        if !states.isEmpty {
            for i in index..<(index + count) { _ = takeState(at: i) }
            shiftStates(from: index + count, by: -count)
        }
    }

    private mutating func shiftStates(from start: Int, by delta: Int) {
        for k in stateItems.indices where stateItems[k] >= start { stateItems[k] += delta }
        stateOf = [:]
        stateOf.reserveCapacity(stateItems.count)
        for (position, item) in stateItems.enumerated() { stateOf[item] = Int32(position) }
    }

    /// Whether anything is kept for any of items `range`.
    func hasKept(in range: Range<Int>) -> Bool {
        (!marks.isEmpty && marks[range.clamped(to: marks.indices)].contains { $0 != 0 })
            || stateItems.contains { range.contains($0) }
    }

    func hasKept(at index: Int) -> Bool { mark(at: index) != 0 || stateOf[index] != nil }
}

/// A released row's own state: what events did to its flags, the state its last pass traced,
/// and the causes of the update it owes (it shows them when it next shows). Its data is as its
/// item makes it (a row whose data an event changed is not released).
struct ReleasedRowState {
    var flags: CellConfigurationState
    var traced: CellConfigurationState?
    var causes: [String]
}

/// How a row can be released (`EngineRow.release(freshFlags:)`).
enum RowRelease {
    /// As its item makes it, never traced.
    case fresh
    /// As its item makes it, last traced with its own flags under these traits.
    case traced(TraitCollection)
    /// With state of its own.
    case state(ReleasedRowState)
}

/// The traits released rows were last traced under, numbered from 1 for `ReleasedRows`' bytes:
/// a run changes traits a few times, so a few entries serve every released row.
struct ReleasedRowTraits {
    private var traits: [TraitCollection] = []

    /// The number of `t`, added when new; nil when every number is taken (the row stays live).
    mutating func number(of t: TraitCollection) -> UInt8? {
        if let i = traits.firstIndex(of: t) { return UInt8(i + 1) }
        guard traits.count < Int(UInt8.max) else { return nil }
        traits.append(t)
        return UInt8(traits.count)
    }

    func traits(numbered k: UInt8) -> TraitCollection { traits[Int(k) - 1] }
}
