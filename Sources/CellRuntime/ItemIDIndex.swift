/// Where each written item of a section's list is, by id: the first event on one of a million
/// items written out one per line finds its item by hashing, not by a scan, and the parser finds
/// a repeated id the same way without a set of every id. Open addressing over item indices (a
/// 4-byte slot per item, at most half the slots used), the ids compared in the list itself, so
/// the index holds no strings. Series are not entered: their ids are found by arithmetic
/// (`ItemSeries.index(ofID:)`). The engine makes it with the list and drops it when the list's
/// items change; ids are unique in a list, so a hit is the item's only index.
struct ItemIDIndex: Sendable {
    /// Item index + 1 in each slot; 0 = empty.
    private var slots: [Int32]
    private var mask: Int
    private var entries = 0

    init() {
        slots = Array(repeating: 0, count: 8)
        mask = 7
    }

    init(_ items: ItemList) {
        var written = 0
        for run in items.runs where !Self.isSeries(run) { written += run.count }
        var capacity = 8
        while capacity < 2 * written { capacity *= 2 }
        slots = Array(repeating: 0, count: capacity)
        mask = capacity - 1
        var start = 0
        for run in items.runs {
            if !Self.isSeries(run) {
                for k in 0..<run.count { enter(start + k, id: items.id(at: start + k)) }
            }
            start += run.count
        }
    }

    /// Enters the written item at `index` of `items` (the list this index stands for, the item
    /// added since; an index is entered once).
    mutating func add(_ index: Int, of items: ItemList) {
        if 2 * (entries + 1) > slots.count {
            var grown = slots.count * 2
            while grown < 2 * (entries + 1) { grown *= 2 }
            let old = slots
            slots = Array(repeating: 0, count: grown)
            mask = grown - 1
            entries = 0
            for slot in old where slot != 0 {
                let i = Int(slot) - 1
                enter(i, id: items.id(at: i))
            }
        }
        enter(index, id: items.id(at: index))
    }

    private mutating func enter(_ index: Int, id: String) {
        var slot = Self.home(of: id, mask: mask)
        while slots[slot] != 0 { slot = (slot + 1) & mask }
        slots[slot] = Int32(truncatingIfNeeded: index + 1)
        entries += 1
    }

    private static func isSeries(_ run: ItemList.Run) -> Bool {
        if case .series = run { true } else { false }
    }

    private static func home(of id: String, mask: Int) -> Int { id.hashValue & mask }

    /// The index of the written item `id` in `items` (the list this index was made from).
    func index(of id: String, in items: ItemList) -> Int? {
        var slot = Self.home(of: id, mask: mask)
        while slots[slot] != 0 {
            let index = Int(slots[slot]) - 1
            if items.id(at: index) == id { return index }
            slot = (slot + 1) & mask
        }
        return nil
    }
}
