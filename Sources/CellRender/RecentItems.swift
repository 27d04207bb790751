/// The last few things a rasterizer looked up (text layouts, symbol masks, shaded masks),
/// searched before its hashed caches: a redrawn row asks again for the few it drew before, and
/// comparing a handful of entries in place costs less than hashing the key. When full, a new
/// entry replaces the oldest. Callers search `entries` by index, so no entry is copied out to
/// be compared.
struct RecentItems<Entry> {
    private(set) var entries: [Entry] = []
    private var oldest = 0
    let limit: Int

    init(limit: Int) {
        precondition(limit > 0, "a recent-items list keeps at least one entry")
        self.limit = limit
        entries.reserveCapacity(limit)
    }

    /// Keeps `entry`, in place of the oldest one when `limit` are kept already; returns its index.
    @discardableResult
    mutating func remember(_ entry: Entry) -> Int {
        if entries.count < limit {
            entries.append(entry)
            return entries.count - 1
        }
        let index = oldest
        entries[index] = entry
        oldest = (oldest + 1) % limit
        return index
    }

    /// Changes the entry at `index` in place (what a lookup found), without copying it out.
    mutating func modify<Result>(at index: Int, _ body: (inout Entry) -> Result) -> Result {
        body(&entries[index])
    }

    mutating func removeAll() {
        entries.removeAll(keepingCapacity: true)
        oldest = 0
    }
}
