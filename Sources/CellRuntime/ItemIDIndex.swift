/// Where each written item of a section's list is, by id: the first event on one of a million
/// items written out one per line finds its item by arithmetic or hashing, not by a scan, and
/// the parser finds a repeated id the same way without a set of every id. The engine makes it
/// with the list and drops it when the list's items change; ids are unique in a list, so a hit
/// is the item's only index. Series are not entered: their ids are found by arithmetic
/// (`ItemSeries.index(ofID:)`).
///
/// Ids numbered one after another at consecutive indices (`r0`, `r1`, …, as a generated list
/// writes them) are kept as one stretch: a prefix, a first number and a count, so such a list
/// costs no table and no hashing. Every other id is in a table by open addressing (an 8-byte
/// slot per item, at most half the slots used) holding the item's index and its id's hash, so
/// an id is entered, and the table grown, without reading any id back from the list: ids are
/// compared in the list itself only when their hashes agree, and the index holds no strings.
/// An id is in the stretch or in the table, never both.
struct ItemIDIndex: Sendable {
    /// The id's hash in the high 32 bits, item index + 1 in the low 32; 0 = empty.
    private var slots: [UInt64] = Array(repeating: 0, count: 8)
    private var mask = 7
    private var entries = 0
    private var stretch = NumberedStretch()

    /// Ids `prefix` + `firstNumber` + k at index `firstIndex` + k, for k in 0..<count, numbers
    /// in the form `ItemSeries` ids take (decimal, no leading zeros), so each id names one number.
    private struct NumberedStretch: Sendable {
        var prefix: [UInt8] = []
        var firstNumber = 0
        var firstIndex = 0
        var count = 0

        /// The index of the item `prefix` + `number`, if the stretch has it.
        func index(prefix other: UnsafeBufferPointer<UInt8>, number: Int) -> Int? {
            guard number >= firstNumber, number - firstNumber < count, prefix.elementsEqual(other) else { return nil }
            return firstIndex + number - firstNumber
        }
    }

    /// A stretch shorter than this gives way to a new one when an id does not continue it (its
    /// ids go to the table), so a few hand-written items before a generated list cost nothing.
    private static let stretchGivenWay = 64

    init() {}

    /// How many ids are entered.
    var count: Int { entries + stretch.count }

    init(_ items: ItemList) {
        var start = 0
        for run in items.runs {
            switch run {
            case .items(let written):
                for k in written.indices { _ = enter(written[k].id, at: start + k, in: items) }
            case .columns(let written):
                for k in 0..<written.count { _ = enter(written.id(at: k), at: start + k, in: items) }
            case .series:
                break
            }
            start += run.count
        }
    }

    /// Enters the written item at `index` of `items` (the list this index stands for, the item
    /// added since, its id new to the list; an index is entered once).
    mutating func add(_ index: Int, of items: ItemList) {
        _ = enter(items.id(at: index), at: index, in: items)
    }

    /// Enters `id` for the item about to be added to `items` at `index` (after every item
    /// entered so far), unless an item of `items` has that id already: then nothing changes and
    /// the answer is false.
    mutating func enter(_ id: String, at index: Int, in items: ItemList) -> Bool {
        var id = id
        let numbered = id.withUTF8(Self.number(in:))
        if let (prefixCount, number) = numbered, stretch.count > 0,
           id.withUTF8({ stretch.index(prefix: UnsafeBufferPointer(rebasing: $0[..<prefixCount]), number: number) }) != nil {
            return false
        }
        if entries > 0, tableIndex(of: id, hash: Self.hash(of: id), in: items) != nil { return false }
        if let (prefixCount, number) = numbered {
            if stretch.count > 0, index == stretch.firstIndex + stretch.count,
               id.withUTF8({ stretch.index(prefix: UnsafeBufferPointer(rebasing: $0[..<prefixCount]), number: number - 1) }) == index - 1 {
                stretch.count += 1
                return true
            }
            if stretch.count < Self.stretchGivenWay {
                for k in 0..<stretch.count {
                    enterInTable(stretch.firstIndex + k, hash: Self.hash(of: items.id(at: stretch.firstIndex + k)))
                }
                stretch = NumberedStretch(prefix: id.withUTF8 { Array($0[..<prefixCount]) }, firstNumber: number,
                                          firstIndex: index, count: 1)
                return true
            }
        }
        enterInTable(index, hash: Self.hash(of: id))
        return true
    }

    /// The index of the written item `id` in `items` (the list this index was made from).
    func index(of id: String, in items: ItemList) -> Int? {
        if stretch.count > 0 {
            var id = id
            let inStretch = id.withUTF8 { bytes -> Int? in
                guard let (prefixCount, number) = Self.number(in: bytes) else { return nil }
                return stretch.index(prefix: UnsafeBufferPointer(rebasing: bytes[..<prefixCount]), number: number)
            }
            if let inStretch { return inStretch }
        }
        return entries > 0 ? tableIndex(of: id, hash: Self.hash(of: id), in: items) : nil
    }

    /// The length of the prefix before the decimal number ending `bytes` and that number, when
    /// it ends in one of at most 18 digits without leading zeros (as `ItemSeries` numbers ids).
    private static func number(in bytes: UnsafeBufferPointer<UInt8>) -> (Int, Int)? {
        var start = bytes.count
        while start > 0, bytes[start - 1] >= UInt8(ascii: "0"), bytes[start - 1] <= UInt8(ascii: "9") { start -= 1 }
        let digits = bytes.count - start
        guard digits >= 1, digits <= 18, bytes[start] != UInt8(ascii: "0") || digits == 1 else { return nil }
        var number = 0
        for i in start..<bytes.count { number = number * 10 + Int(bytes[i] - UInt8(ascii: "0")) }
        return (start, number)
    }

    private func tableIndex(of id: String, hash: UInt32, in items: ItemList) -> Int? {
        var slot = Int(hash) & mask
        while slots[slot] != 0 {
            if UInt32(truncatingIfNeeded: slots[slot] >> 32) == hash {
                let index = Self.index(in: slots[slot])
                if items.id(at: index) == id { return index }
            }
            slot = (slot + 1) & mask
        }
        return nil
    }

    /// Enters an index in the table, grown first (by rehashing the stored hashes) so it stays at
    /// most half full.
    private mutating func enterInTable(_ index: Int, hash: UInt32) {
        if 2 * (entries + 1) > slots.count {
            var grown = slots.count * 2
            while grown < 2 * (entries + 1) { grown *= 2 }
            let old = slots
            slots = Array(repeating: 0, count: grown)
            mask = grown - 1
            for slot in old where slot != 0 { place(slot) }
        }
        place(Self.slot(index, hash: hash))
        entries += 1
    }

    private mutating func place(_ entry: UInt64) {
        var slot = Int(UInt32(truncatingIfNeeded: entry >> 32)) & mask
        while slots[slot] != 0 { slot = (slot + 1) & mask }
        slots[slot] = entry
    }

    private static func slot(_ index: Int, hash: UInt32) -> UInt64 {
        UInt64(hash) << 32 | UInt64(UInt32(truncatingIfNeeded: index + 1))
    }

    private static func index(in slot: UInt64) -> Int { Int(UInt32(truncatingIfNeeded: slot)) - 1 }

    private static func hash(of id: String) -> UInt32 { UInt32(truncatingIfNeeded: id.hashValue) }
}
