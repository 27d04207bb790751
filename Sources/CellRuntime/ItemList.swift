import CellKit

/// A section's items in list order: items written out one by one, and item series (`{"items": …}`
/// lines) kept as their templates plus a count. A series of a million items costs its templates,
/// not a million descriptions; its items are made when asked for, each identical to the item the
/// series stands for written out. Items written out are kept by column (`ItemColumns`) when they
/// can be, so a million written alike cost their ids and values, not a million descriptions.
public struct ItemList: RandomAccessCollection, Sendable, Equatable, ExpressibleByArrayLiteral {
    /// A stretch of the list: items as written, or a series.
    public enum Run: Sendable, Equatable {
        case items([ItemDescription])
        case columns(ItemColumns)
        case series(ItemSeries)

        var count: Int {
            switch self {
            case .items(let items): items.count
            case .columns(let columns): columns.count
            case .series(let series): series.count
            }
        }
    }

    public private(set) var runs: [Run] = []
    /// Item count up to and including each run (for finding the run of an index by binary search).
    private var runEnds: [Int] = []

    public init() {}
    public init(_ items: [ItemDescription]) { if !items.isEmpty { setRuns([.items(items)]) } }
    public init(arrayLiteral items: ItemDescription...) { self.init(items) }

    public var startIndex: Int { 0 }
    public var endIndex: Int { runEnds.last ?? 0 }

    public subscript(index: Int) -> ItemDescription {
        let (run, offset) = locate(index)
        switch runs[run] {
        case .items(let items): return items[offset]
        case .columns(let columns): return columns.item(at: offset)
        case .series(let series): return series.item(at: offset)
        }
    }

    /// The id of the item at `index`, without putting the item together.
    public func id(at index: Int) -> String {
        let (run, offset) = locate(index)
        switch runs[run] {
        case .items(let items): return items[offset].id
        case .columns(let columns): return columns.id(at: offset)
        case .series(let series): return series.id(ofNumber: series.first + offset)
        }
    }

    /// Equal when the items are, however they are stored (a series equals its items written out).
    public static func == (a: ItemList, b: ItemList) -> Bool {
        a.runs == b.runs || (a.count == b.count && a.elementsEqual(b))
    }

    /// The index of the item with id `id`: arithmetic for series, a scan of written items.
    public func firstIndex(ofID id: String) -> Int? {
        var start = 0
        for run in runs {
            switch run {
            case .items(let items):
                if let i = items.firstIndex(where: { $0.id == id }) { return start + i }
            case .columns(let columns):
                if let i = (0..<columns.count).first(where: { columns.id(at: $0) == id }) { return start + i }
            case .series(let series):
                if let i = series.index(ofID: id) { return start + i }
            }
            start += run.count
        }
        return nil
    }

    /// The index of the item with id `id` among the series' items only (arithmetic per series).
    public func seriesIndex(ofID id: String) -> Int? {
        var start = 0
        for run in runs {
            if case .series(let series) = run, let i = series.index(ofID: id) { return start + i }
            start += run.count
        }
        return nil
    }

    /// How many items are written out (not of a series).
    var writtenCount: Int {
        runs.reduce(0) { count, run in if case .series = run { count } else { count + run.count } }
    }

    /// Whether any item is written out (not part of a series).
    public var hasWrittenItems: Bool {
        runs.contains { if case .series = $0 { false } else { true } }
    }

    public mutating func append(_ item: ItemDescription) {
        if case .columns(var columns)? = runs.last {
            runs[runs.count - 1] = .items([])  // one reference while appending, so no copy
            let fits = columns.append(item)
            runs[runs.count - 1] = .columns(columns)
            if fits { runEnds[runEnds.count - 1] += 1; return }
        }
        if let columns = ItemColumns(item) {
            runs.append(.columns(columns))
            runEnds.append(endIndex + 1)
        } else if case .items(var items)? = runs.last {
            runs[runs.count - 1] = .items([])  // one reference while appending, so no copy
            items.append(item)
            runs[runs.count - 1] = .items(items)
            runEnds[runEnds.count - 1] += 1
        } else {
            runs.append(.items([item]))
            runEnds.append(endIndex + 1)
        }
    }

    /// Where a shape is numbered in the list's last run of columns (`ItemColumns.append(shape:…)`):
    /// valid while that run is the last and the list only grows by appends (as the parser
    /// builds a scene's lists).
    struct ColumnsShape: Equatable, Sendable {
        let run: Int
        let number: Int
    }

    /// Adds a written item given as its shape (`ItemColumns.shape(of:)`) and its id, line and
    /// property values: when it fits the last run's columns no item description is made for it.
    /// Returns where the shape is numbered now, for `append(known:…)` to take for the next item
    /// of the same shape; nil when the item was not stored by column.
    @discardableResult
    mutating func append(shape: ItemDescription, id: String, line: Int, values: [PropertyValue]) -> ColumnsShape? {
        if case .columns(var columns)? = runs.last {
            let run = runs.count - 1
            runs[run] = .items([])  // one reference while appending, so no copy
            let number = columns.append(shape: shape, id: id, line: line, values: values)
            runs[run] = .columns(columns)
            if let number {
                runEnds[run] += 1
                return ColumnsShape(run: run, number: number)
            }
        }
        var item = shape
        item.id = id
        item.line = line
        for p in item.properties.indices { item.properties[p].value = values[p] }
        append(item)
        guard case .columns(let columns)? = runs.last, columns.count == 1 else { return nil }
        return ColumnsShape(run: runs.count - 1, number: 0)
    }

    /// Adds a written item of the shape `known` places (as `append(shape:…)` answered for an item
    /// of that shape) with this id, line and values, neither comparing nor copying the shape;
    /// false (and nothing changed) when `known` is no longer valid or the item does not fit.
    mutating func append(known: ColumnsShape, id: String, line: Int, values: some Sequence<PropertyValue>) -> Bool {
        guard known.run == runs.count - 1, case .columns(var columns) = runs[known.run] else { return false }
        runs[known.run] = .items([])  // one reference while appending, so no copy
        let fits = columns.append(shapeNumber: known.number, id: id, line: line, values: values)
        runs[known.run] = .columns(columns)
        if fits { runEnds[known.run] += 1 }
        return fits
    }

    /// The stream line of the item at `index` (a series's own line for its items), without putting the
    /// item together.
    public func line(at index: Int) -> Int {
        let (run, offset) = locate(index)
        switch runs[run] {
        case .items(let items): return items[offset].line
        case .columns(let columns): return columns.line(at: offset)
        case .series(let series): return series.templates[0].line
        }
    }

    public mutating func append(_ series: ItemSeries) {
        guard series.count > 0 else { return }
        runs.append(.series(series))
        runEnds.append(endIndex + series.count)
    }

    /// Inserts `item` before index `index` (`count` = at the end); a series it lands inside is split.
    public mutating func insert(_ item: ItemDescription, at index: Int) {
        precondition(index >= 0 && index <= count, "insert at \(index) outside 0…\(count)")
        if index == count { append(item); return }
        let (run, offset) = locate(index)
        var replacement: [Run]
        switch runs[run] {
        case .items(var items):
            items.insert(item, at: offset)
            replacement = [.items(items)]
        case .columns(var columns):
            if columns.insert(item, at: offset) {
                replacement = [.columns(columns)]
            } else {
                let (head, tail) = columns.split(at: offset)
                replacement = [.columns(head), .items([item]), .columns(tail)].filter { $0.count > 0 }
            }
        case .series(let series):
            let (head, tail) = series.split(at: offset)
            replacement = [.series(head), .items([item]), .series(tail)].filter { $0.count > 0 }
        }
        replace(run, with: replacement)
    }

    @discardableResult
    public mutating func remove(at index: Int) -> ItemDescription {
        let removed = self[index]
        let (run, offset) = locate(index)
        switch runs[run] {
        case .items(var items):
            items.remove(at: offset)
            replace(run, with: items.isEmpty ? [] : [.items(items)])
        case .columns(var columns):
            columns.remove(at: offset)
            replace(run, with: columns.count == 0 ? [] : [.columns(columns)])
        case .series(let series):
            let (head, rest) = series.split(at: offset)
            let (_, tail) = rest.split(at: 1)
            replace(run, with: [Run.series(head), .series(tail)].filter { $0.count > 0 })
        }
        return removed
    }

    // MARK: Runs

    /// The run holding `index` and the index within it.
    private func locate(_ index: Int) -> (run: Int, offset: Int) {
        precondition(index >= 0 && index < count, "item index \(index) outside 0..<\(count)")
        var low = 0, high = runEnds.count - 1
        while low < high {
            let mid = (low + high) / 2
            if runEnds[mid] > index { high = mid } else { low = mid + 1 }
        }
        return (low, index - (low == 0 ? 0 : runEnds[low - 1]))
    }

    private mutating func replace(_ run: Int, with replacement: [Run]) {
        var all = runs
        all.replaceSubrange(run...run, with: replacement)
        setRuns(all)
    }

    private mutating func setRuns(_ all: [Run]) {
        runs = all
        runEnds = []
        runEnds.reserveCapacity(all.count)
        var end = 0
        for run in all {
            end += run.count
            runEnds.append(end)
        }
    }
}

/// `{"items": {"id": "row{n}", "count": 1000000, "templates": [{…}, {…}]}}`: `count` items whose
/// ids are `idPrefix` + a number + `idSuffix`, numbered from `first`, cycling through the
/// templates. Item k is exactly the item a stream would describe by writing it out with its id.
public struct ItemSeries: Sendable, Equatable {
    public var idPrefix: String
    public var idSuffix: String
    /// The number in the id of the series' first item.
    public var first: Int
    public var count: Int
    /// What the items are, in turn; their ids are not used.
    public var templates: [ItemDescription]
    /// The number whose item uses the first template (a series split by a delete or insert keeps
    /// cycling as before).
    public var cycleStart: Int

    public init(idPrefix: String, idSuffix: String = "", first: Int = 0, count: Int, templates: [ItemDescription]) {
        precondition(!templates.isEmpty, "a series needs at least one template")
        self.idPrefix = idPrefix
        self.idSuffix = idSuffix
        self.first = first
        self.count = max(0, count)
        self.templates = templates
        cycleStart = first
    }

    public func id(ofNumber number: Int) -> String { idPrefix + String(number) + idSuffix }

    public func item(at offset: Int) -> ItemDescription {
        let number = first + offset
        var item = templates[(number - cycleStart) % templates.count]
        item.id = id(ofNumber: number)
        return item
    }

    /// The offset of the item whose id is `id`, if the series has it. Numbers are written in
    /// decimal without leading zeros, so each id names one number.
    public func index(ofID id: String) -> Int? {
        guard let number = number(in: id), number >= first, number < first + count else { return nil }
        return number - first
    }

    /// The number an id of this series' form carries, whether or not the series reaches it.
    public func number(in id: String) -> Int? {
        guard id.hasPrefix(idPrefix), id.hasSuffix(idSuffix), id.utf8.count > idPrefix.utf8.count + idSuffix.utf8.count else { return nil }
        let digits = id.utf8.dropFirst(idPrefix.utf8.count).dropLast(idSuffix.utf8.count)
        guard digits.count <= 18, digits.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }),
              digits.first != UInt8(ascii: "0") || digits.count == 1 else { return nil }
        return digits.reduce(0) { $0 * 10 + Int($1 - UInt8(ascii: "0")) }
    }

    /// Whether an id of this series' form could also be one of `other`'s (one prefix starts the
    /// other and one suffix ends the other); such series must share their form and not overlap.
    public func mayShareIDs(with other: ItemSeries) -> Bool {
        (idPrefix.hasPrefix(other.idPrefix) || other.idPrefix.hasPrefix(idPrefix))
            && (idSuffix.hasSuffix(other.idSuffix) || other.idSuffix.hasSuffix(idSuffix))
    }

    /// The first `offset` items and the rest, each still cycling as this series does.
    func split(at offset: Int) -> (ItemSeries, ItemSeries) {
        var head = self, tail = self
        head.count = offset
        tail.first = first + offset
        tail.count = count - offset
        return (head, tail)
    }
}
