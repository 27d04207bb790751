/// A long array in which most elements keep a value known without storing it: storage is
/// allocated a page (512 elements) at a time, on the first write into that page, so a million-slot
/// array of which a screenful was ever written costs a few pages plus a 4-byte entry per page.
/// What an element of a page never written reads as is the owner's to say (`implicit`), so the
/// same storage serves a constant default and an index-dependent one (a Fenwick tree's nodes).
struct SparsePages<Element: BitwiseCopyable>: Sendable where Element: Sendable {
    static var pageShift: Int { 9 }
    static var pageSize: Int { 1 << pageShift }

    let count: Int
    /// Where each page starts in `storage`, or -1 while the page was never written.
    private var pageStarts: [Int32]
    private var storage: [Element] = []

    init(count: Int) {
        self.count = max(0, count)
        pageStarts = Array(repeating: -1, count: (self.count + Self.pageSize - 1) >> Self.pageShift)
    }

    /// Pages written so far (what the array costs beyond its page table).
    var allocatedPageCount: Int { storage.count >> Self.pageShift }

    /// Bytes of the pages written so far.
    var allocatedBytes: Int { storage.count * MemoryLayout<Element>.stride }

    /// The stored element at `index`, or nil while its page was never written.
    @inline(__always)
    func stored(at index: Int) -> Element? {
        let start = pageStarts[index >> Self.pageShift]
        return start < 0 ? nil : storage[Int(start) + (index & (Self.pageSize - 1))]
    }

    /// Writes `value` at `index`, first filling a new page with `implicit(i)` for each of its indices.
    @inline(__always)
    mutating func set(_ value: Element, at index: Int, implicit: (Int) -> Element) {
        let page = index >> Self.pageShift
        var start = Int(pageStarts[page])
        if start < 0 {
            start = storage.count
            let first = page << Self.pageShift
            for i in first..<(first + Self.pageSize) { storage.append(implicit(i)) }
            pageStarts[page] = Int32(start)
        }
        storage[start + (index & (Self.pageSize - 1))] = value
    }

    /// Every element of the pages written so far, with its index, in index order: what was never
    /// written is skipped a page at a time.
    func forEachStored(_ body: (Int, Element) -> Void) {
        for (page, start) in pageStarts.enumerated() where start >= 0 {
            let first = page << Self.pageShift
            for k in 0..<min(Self.pageSize, count - first) { body(first + k, storage[Int(start) + k]) }
        }
    }

    /// Forgets every written page: all elements read as implicit again.
    mutating func removeAll() {
        for i in pageStarts.indices { pageStarts[i] = -1 }
        storage.removeAll()
    }
}
