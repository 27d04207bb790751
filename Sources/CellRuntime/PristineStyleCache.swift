import CellKit

/// What the state alone does to a factory configuration, by (factory, state): many rows share a
/// factory, and a state visits many rows, so the engine computes each pair once. Bounded: emptied
/// when full (custom states can make the set of states large).
final class PristineStyleCache {
    private struct Key: Hashable {
        var factory: String
        var state: CellConfigurationState
        var isCell: Bool
    }
    private struct Entry {
        var key: Key
        var values: [String: PropertyValue]
    }
    private var entries: [Key: [String: PropertyValue]] = [:]
    private let limit = 4096
    /// The last few pairs asked for, compared before the table is searched: a traced row that
    /// toggles a flag asks for the same two in turn, and hashing a key (a whole cell state, its
    /// traits and custom states) costs far more than comparing one.
    private var recent: [Entry] = []
    private static let recentLimit = 8

    func values(key: String, state: CellConfigurationState, isCell: Bool,
                compute: () -> [String: PropertyValue]) -> [String: PropertyValue] {
        let k = Key(factory: key, state: state, isCell: isCell)
        if let hit = recent.firstIndex(where: { $0.key == k }) { return recent[hit].values }
        let v: [String: PropertyValue]
        if let cached = entries[k] {
            v = cached
        } else {
            if entries.count >= limit { entries.removeAll(keepingCapacity: true) }
            v = compute()
            entries[k] = v
        }
        if recent.count == Self.recentLimit { recent.removeFirst() }
        recent.append(Entry(key: k, values: v))
        return v
    }
}
