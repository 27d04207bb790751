/// The configurations whose properties a trace read in full most recently, with the lists read.
/// A pass's "before" stage is mostly the last pass's final stage, and a state toggled back and
/// forth (highlight on, off) restyles to the look of two passes ago: found here, such a stage is
/// not read again (a plugin configuration reads each property through libffi, a background
/// builds forty values). Two are kept, the two looks a toggle alternates between.
public final class RecentFullReads<C> {
    private struct Entry {
        var value: C
        var list: [InspectableProperty]
    }

    /// Most recent first.
    private var entries: [Entry] = []
    /// The fast-paths lookup of the content type last compared, kept from pass to pass (a row's
    /// content keeps its type); unused for backgrounds.
    private(set) lazy var fastPathsLookups = LastFastPathsLookup()
    static var capacity: Int { 2 }

    public init() {}

    /// The list kept for a configuration `same` says lists alike with `value`.
    func list(matching value: C, same: (C, C) -> Bool) -> [InspectableProperty]? {
        for i in entries.indices where same(entries[i].value, value) { return entries[i].list }
        return nil
    }

    /// Keeps `value`'s full `list` as the most recent; a list already kept (found by
    /// `list(matching:)`) moves to the front.
    func keep(_ value: C, list: [InspectableProperty]) {
        if let i = entries.firstIndex(where: { $0.list.sharesStorage(with: list) }) {
            if i > 0 { entries.insert(entries.remove(at: i), at: 0) }
            return
        }
        entries.insert(Entry(value: value, list: list), at: 0)
        if entries.count > Self.capacity { entries.removeLast() }
    }

    /// How many configurations are kept (tests check the bound).
    var count: Int { entries.count }
}
