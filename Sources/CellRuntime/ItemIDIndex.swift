/// Where each written item of a section's list is, by id: the first event on one of a million
/// items written out one per line finds its item by arithmetic or hashing, not by a scan, and
/// the parser finds a repeated id the same way without a set of every id. The engine makes it
/// with the list and drops it when the list's items change. An id entered again is a mistake
/// the parser reports (`settle(in:)` names both items); which of the two a lookup then finds is
/// left open. Series are not entered: their ids are found by arithmetic
/// (`ItemSeries.index(ofID:)`).
///
/// Ids numbered one after another at consecutive indices (`r0`, `r1`, …, as a generated list
/// writes them) are kept as one stretch: a prefix, a first number and a count, so such a list
/// costs no table and no hashing. Every other id is in a table by open addressing (an 8-byte
/// slot per item, at most half the slots used) holding the item's index and its id's hash, so
/// an id is entered, and the table grown, without reading any id back from the list: ids are
/// compared in the list itself only when their hashes agree, and the index holds no strings.
/// An id is in the stretch or in the table, never both.
///
/// Ids in no order land anywhere in a table far larger than the processor's caches, so each
/// lookup in it waits for memory. An entered id is therefore checked against the table later,
/// with up to `uncheckedLimit` others (`settle(in:)`): their first slots are read together, so the
/// waits overlap instead of following one another. Until then it is found by a scan of the
/// unchecked ids, and a repeat among them is found when they are settled, in the order entered.
struct ItemIDIndex: Sendable {
    /// The id's hash in the high 32 bits, item index + 1 in the low 32; 0 = empty.
    private var slots: [UInt64] = Array(repeating: 0, count: 8)
    private var mask = 7
    private var entries = 0
    private var stretch = NumberedStretch()
    /// Ids entered since the last `settle(in:)`, in the order entered, each as its table slot; those
    /// of the stretch are only checked, the others then go into the table.
    private var unchecked: [Unchecked] = []
    private var uncheckedForTable = 0
    /// Items whose id repeats an earlier item's, found by the stretch as they were entered.
    private var repeated: [Repeat] = []
    /// Items of the stretch found to repeat an id of the table when settled (the stretch keeps them).
    private var repeatsInStretch = 0
    /// The sum of the slots `settle(in:)` read ahead, kept so that reading them is not optimised away.
    private var readAhead: UInt64 = 0

    private struct Unchecked: Sendable {
        var slot: UInt64
        var goesIntoTable: Bool
    }

    /// How many entered ids wait for `settle(in:)` at most: enough to overlap many memory waits,
    /// few enough that scanning them is quick.
    static let uncheckedLimit = 128

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

    /// An item whose id an earlier item has: the first such earlier item for the first repeat
    /// of a list, one of them for any later repeat.
    struct Repeat: Equatable, Sendable {
        let index: Int
        let firstIndex: Int
    }

    /// How many ids are entered, less the repeats found so far.
    var count: Int { entries + stretch.count + uncheckedForTable - repeatsInStretch }

    /// Every written item of `items` (a list whose ids are unique).
    init(_ items: ItemList) {
        var start = 0
        for run in items.runs {
            switch run {
            case .items(let written):
                for k in written.indices { enter(written[k].id, at: start + k, in: items) }
            case .columns(let written):
                for k in 0..<written.count { enter(written.id(at: k), at: start + k, in: items) }
            case .series:
                break
            }
            start += run.count
        }
        _ = settle(in: items)
    }

    /// Whether `settle(in:)` is due: the unchecked ids are as many as kept, or a repeat is known.
    var needsSettling: Bool { unchecked.count >= Self.uncheckedLimit || !repeated.isEmpty }

    /// Enters the written item at `index` of `items` (the list this index stands for, the item
    /// added since).
    mutating func add(_ index: Int, of items: ItemList) {
        enter(items.id(at: index), at: index, in: items)
    }

    /// Enters `id` for the item added to `items` at `index` (after every item entered so far).
    /// Whether an earlier item has the same id is known by the next `settle(in:)`.
    mutating func enter(_ id: String, at index: Int, in items: ItemList) {
        var id = id
        id.withUTF8 { enter($0, at: index, in: items) }
    }

    private mutating func enter(_ id: UnsafeBufferPointer<UInt8>, at index: Int, in items: ItemList) {
        guard let (prefixCount, number) = Self.number(in: id) else {
            check(index, hash: Self.hash(of: id), goesIntoTable: true)
            return
        }
        let prefix = UnsafeBufferPointer(rebasing: id[..<prefixCount])
        if stretch.count > 0, let first = stretch.index(prefix: prefix, number: number) {
            repeated.append(Repeat(index: index, firstIndex: first))
        } else if stretch.count > 0, index == stretch.firstIndex + stretch.count, stretch.index(prefix: prefix, number: number - 1) == index - 1 {
            stretch.count += 1
            if entries + uncheckedForTable > 0 { check(index, hash: Self.hash(of: id), goesIntoTable: false) }
        } else if stretch.count < Self.stretchGivenWay {
            giveWayStretch(in: items)
            if !stretch.prefix.elementsEqual(prefix) {
                stretch.prefix.removeAll(keepingCapacity: true)
                stretch.prefix.append(contentsOf: prefix)
            }
            stretch.firstNumber = number
            stretch.firstIndex = index
            stretch.count = 1
            if entries + uncheckedForTable > 0 { check(index, hash: Self.hash(of: id), goesIntoTable: false) }
        } else {
            check(index, hash: Self.hash(of: id), goesIntoTable: true)
        }
    }

    /// Moves the stretch's ids into the table: those still unchecked (the last of `unchecked`)
    /// go in when settled, the others now.
    private mutating func giveWayStretch(in items: ItemList) {
        guard stretch.count > 0 else { return }
        var firstUnchecked = stretch.firstIndex + stretch.count
        for u in unchecked.indices.reversed() {
            let index = Self.index(in: unchecked[u].slot)
            guard index >= stretch.firstIndex else { break }
            unchecked[u].goesIntoTable = true
            uncheckedForTable += 1
            firstUnchecked = index
        }
        for index in stretch.firstIndex..<firstUnchecked {
            var id = items.id(at: index)
            enterInTable(Self.slot(index, hash: id.withUTF8(Self.hash(of:))))
        }
        stretch.count = 0
    }

    private mutating func check(_ index: Int, hash: UInt32, goesIntoTable: Bool) {
        unchecked.append(Unchecked(slot: Self.slot(index, hash: hash), goesIntoTable: goesIntoTable))
        if goesIntoTable { uncheckedForTable += 1 }
    }

    /// Checks the ids entered since the last call against the table, in the order entered,
    /// putting each into it unless an earlier item has the same id: the repeats found, in the
    /// order of their items (empty when every id is new).
    mutating func settle(in items: ItemList) -> [Repeat] {
        var found = repeated
        repeated.removeAll()
        guard !unchecked.isEmpty else { return found }
        reserveTable(for: entries + uncheckedForTable)
        // Reading every first slot before any probe lets the processor wait for all at once.
        var sum: UInt64 = 0
        for u in unchecked { sum &+= slots[Int(UInt32(truncatingIfNeeded: u.slot >> 32)) & mask] }
        readAhead = sum
        for u in unchecked {
            let index = Self.index(in: u.slot)
            if let first = tableIndex(hash: UInt32(truncatingIfNeeded: u.slot >> 32), where: { items.id(at: $0) == items.id(at: index) }) {
                found.append(Repeat(index: index, firstIndex: first))
                if !u.goesIntoTable { repeatsInStretch += 1 }
            } else if u.goesIntoTable {
                place(u.slot)
                entries += 1
            }
        }
        unchecked.removeAll(keepingCapacity: true)
        uncheckedForTable = 0
        return found.sorted { $0.index < $1.index }
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
        guard entries + uncheckedForTable > 0 else { return nil }
        var id = id
        let hash = id.withUTF8(Self.hash(of:))
        if entries > 0, let found = tableIndex(hash: hash, where: { items.id(at: $0) == id }) { return found }
        return unchecked.lazy.filter { $0.goesIntoTable && UInt32(truncatingIfNeeded: $0.slot >> 32) == hash }
            .map { Self.index(in: $0.slot) }.first { items.id(at: $0) == id }
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

    /// The index in the table with this hash whose item `matches`.
    private func tableIndex(hash: UInt32, where matches: (Int) -> Bool) -> Int? {
        var slot = Int(hash) & mask
        while slots[slot] != 0 {
            if UInt32(truncatingIfNeeded: slots[slot] >> 32) == hash {
                let index = Self.index(in: slots[slot])
                if matches(index) { return index }
            }
            slot = (slot + 1) & mask
        }
        return nil
    }

    private mutating func enterInTable(_ entry: UInt64) {
        reserveTable(for: entries + 1)
        place(entry)
        entries += 1
    }

    /// Grows the table (by rehashing the stored hashes) so `count` entries keep it at most half full.
    private mutating func reserveTable(for count: Int) {
        guard 2 * count > slots.count else { return }
        var grown = slots.count * 2
        while grown < 2 * count { grown *= 2 }
        let old = slots
        slots = Array(repeating: 0, count: grown)
        mask = grown - 1
        for slot in old where slot != 0 { place(slot) }
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

    /// A hash of the id's bytes: eight at a time through a multiply that folds its high half
    /// into its low, from a seed drawn once per process, so ids a stream chose cannot be made
    /// to collide; a fraction of the cost of a `Hasher`, which a million ids would pay twice.
    private static func hash(of bytes: UnsafeBufferPointer<UInt8>) -> UInt32 {
        let raw = UnsafeRawBufferPointer(bytes)
        var h = seed ^ UInt64(raw.count)
        var i = 0
        while i + 8 <= raw.count {
            h = fold(h ^ raw.loadUnaligned(fromByteOffset: i, as: UInt64.self))
            i += 8
        }
        if i < raw.count {
            var tail: UInt64 = 0
            for k in i..<raw.count { tail |= UInt64(raw[k]) << (8 * (k - i)) }
            h = fold(h ^ tail)
        }
        return UInt32(truncatingIfNeeded: fold(h))
    }

    private static let seed = UInt64.random(in: .min ... .max)

    private static func fold(_ x: UInt64) -> UInt64 {
        let (high, low) = (x ^ 0x2D35_8DCC_AA6C_78A5).multipliedFullWidth(by: 0x8BB8_4B93_962E_ACC9)
        return high ^ low
    }
}
