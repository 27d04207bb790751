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
    private var states: [Int: ReleasedRowState] = [:]

    func mark(at index: Int) -> UInt8 { index < marks.count ? marks[index] : 0 }

    /// Marks item `index` of a section of `itemCount` items.
    mutating func setMark(_ mark: UInt8, at index: Int, itemCount: Int) {
        if marks.isEmpty {
            guard mark != 0 else { return }
            marks = Array(repeating: 0, count: itemCount)
        }
        marks[index] = mark
    }

    mutating func keep(_ state: ReleasedRowState, at index: Int) { states[index] = state }

    mutating func takeState(at index: Int) -> ReleasedRowState? {
        states.isEmpty ? nil : states.removeValue(forKey: index)
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
            for i in index..<(index + count) { states[i] = nil }
            shiftStates(from: index + count, by: -count)
        }
    }

    private mutating func shiftStates(from start: Int, by delta: Int) {
        var shifted: [Int: ReleasedRowState] = [:]
        shifted.reserveCapacity(states.count)
        for (i, state) in states { shifted[i >= start ? i + delta : i] = state }
        states = shifted
    }

    /// Whether anything is kept for any of items `range`.
    func hasKept(in range: Range<Int>) -> Bool {
        (!marks.isEmpty && marks[range.clamped(to: marks.indices)].contains { $0 != 0 })
            || states.keys.contains { range.contains($0) }
    }

    func hasKept(at index: Int) -> Bool { mark(at: index) != 0 || states[index] != nil }
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
