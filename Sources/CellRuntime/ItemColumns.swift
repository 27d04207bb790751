import CellKit

/// Items written out one per line, stored by column: a list of a million items written alike
/// (the same type, style and property names, different ids and values) keeps a few shapes and
/// flat arrays of ids, lines and values, not a million descriptions each with its own array of
/// properties. Item k is exactly the item as written (`item(at:)` puts it back together).
///
/// Invariants: every item has one of `shapes` (its description with id, line and property
/// values blanked); each item has `stringsPerItem` string values in `strings` and
/// `othersPerItem` other values in `others`, in the order of its shape's properties, so item k's
/// values start at k × that count. Items with children are not stored here (their ids are in
/// the outline, not in one shape).
public struct ItemColumns: Sendable, Equatable {
    /// The most shapes one run keeps; an item of yet another shape starts a new run.
    static let maximumShapes = 16

    /// The columns in one box: a list takes its last run out and puts it back for every item
    /// appended, which is one reference to hand over, not one per column. Copied on write: a
    /// box is changed only while one `ItemColumns` holds it.
    private final class Storage: @unchecked Sendable {
        @exclusivity(unchecked) var shapes: [ItemDescription]
        @exclusivity(unchecked) var shapeOfItem: [UInt8] = []
        @exclusivity(unchecked) var ids: [String] = []
        @exclusivity(unchecked) var lines: [Int32] = []
        @exclusivity(unchecked) var strings: [String] = []
        @exclusivity(unchecked) var others: [PropertyValue] = []
        @exclusivity(unchecked) var longestStringBytes = 0

        init(shapes: [ItemDescription]) { self.shapes = shapes }

        func copy() -> Storage {
            let copy = Storage(shapes: shapes)
            copy.shapeOfItem = shapeOfItem
            copy.ids = ids
            copy.lines = lines
            copy.strings = strings
            copy.others = others
            copy.longestStringBytes = longestStringBytes
            return copy
        }
    }

    private var storage: Storage
    private let stringsPerItem: Int
    private let othersPerItem: Int

    private var unique: Storage {
        mutating get {
            if !isKnownUniquelyReferenced(&storage) { storage = storage.copy() }
            return storage
        }
    }
    private var shapes: [ItemDescription] { _read { yield storage.shapes } _modify { yield &unique.shapes } }
    private var shapeOfItem: [UInt8] { _read { yield storage.shapeOfItem } _modify { yield &unique.shapeOfItem } }
    private var ids: [String] { _read { yield storage.ids } _modify { yield &unique.ids } }
    private var lines: [Int32] { _read { yield storage.lines } _modify { yield &unique.lines } }
    private var strings: [String] { _read { yield storage.strings } _modify { yield &unique.strings } }
    private var others: [PropertyValue] { _read { yield storage.others } _modify { yield &unique.others } }
    /// At least the UTF-8 byte count of every string value held (removals leave it as it was),
    /// so a check that takes every string up to some length can decide all of them at once.
    private(set) var longestStringBytes: Int {
        get { storage.longestStringBytes }
        set { unique.longestStringBytes = newValue }
    }

    /// Columns holding `item` alone; nil when it cannot be stored by column.
    init?(_ item: ItemDescription) {
        guard let shape = Self.shape(of: item) else { return nil }
        storage = Storage(shapes: [shape])
        stringsPerItem = shape.properties.count { Self.isString($0.value) }
        othersPerItem = shape.properties.count - stringsPerItem
        guard append(item) else { return nil }
    }

    public var count: Int { ids.count }

    /// Equal when they hold the same items the same way (`longestStringBytes`, a bound, aside).
    public static func == (a: ItemColumns, b: ItemColumns) -> Bool {
        a.shapes == b.shapes && a.shapeOfItem == b.shapeOfItem && a.ids == b.ids && a.lines == b.lines
            && a.strings == b.strings && a.others == b.others
    }

    public func id(at index: Int) -> String { ids[index] }

    public func item(at index: Int) -> ItemDescription {
        var item = shapes[Int(shapeOfItem[index])]
        item.id = ids[index]
        item.line = Int(lines[index])
        var s = index * stringsPerItem, o = index * othersPerItem
        for p in item.properties.indices {
            if Self.isString(item.properties[p].value) {
                item.properties[p].value = .string(strings[s])
                s += 1
            } else {
                item.properties[p].value = others[o]
                o += 1
            }
        }
        return item
    }

    /// The stream line of item `index`.
    public func line(at index: Int) -> Int { Int(lines[index]) }

    /// Which of the shapes item `index` has: items of one shape differ only in id, line and
    /// property values.
    func shapeNumber(at index: Int) -> Int { Int(shapeOfItem[index]) }

    /// The value of property `p` (in its shape's order) of item `index`.
    func value(_ p: Int, ofItem index: Int) -> PropertyValue {
        let properties = shapes[Int(shapeOfItem[index])].properties
        var s = index * stringsPerItem, o = index * othersPerItem
        for q in 0..<p {
            if Self.isString(properties[q].value) { s += 1 } else { o += 1 }
        }
        return Self.isString(properties[p].value) ? .string(strings[s]) : others[o]
    }

    /// All the items, written out (an outline flattens them).
    var items: [ItemDescription] { (0..<count).map(item(at:)) }

    /// Adds `item` at the end; false (and nothing changed) when it does not fit these columns.
    mutating func append(_ item: ItemDescription) -> Bool { insert(item, at: count) }

    /// Inserts `item` before `index`; false (and nothing changed) when it does not fit.
    mutating func insert(_ item: ItemDescription, at index: Int) -> Bool {
        guard let shape = Self.shape(of: item) else { return false }
        return insert(shape: shape, id: item.id, line: item.line, values: item.properties.lazy.map(\.value), at: index)
    }

    /// Adds the item of `shape` (an item description with its id, line and property values
    /// blanked, as `shape(of:)` makes it) with this id, line and values (in the shape's property
    /// order) at the end, without making its description; nil (and nothing changed) when it
    /// does not fit, else the shape's number here, which `append(shapeNumber:…)` takes for the
    /// next item of that shape (shapes are only ever added, so a number keeps its shape).
    mutating func append(shape: ItemDescription, id: String, line: Int, values: [PropertyValue]) -> Int? {
        guard fits(values), Int32(exactly: line) != nil, let number = number(of: shape) else { return nil }
        return append(shapeNumber: number, id: id, line: line, values: values) ? number : nil
    }

    /// Adds an item of the shape numbered `shapeNumber` here (as `append(shape:…)` answered for
    /// the same shape) without comparing shapes; false (and nothing changed) when its line does
    /// not fit. The values must be those of that shape: strings where its strings are.
    mutating func append(shapeNumber: Int, id: String, line: Int, values: some Sequence<PropertyValue>) -> Bool {
        guard let line = Int32(exactly: line) else { return false }
        let columns = unique
        for value in values {
            if case .string(let text) = value {
                columns.longestStringBytes = max(columns.longestStringBytes, text.utf8.count)
                columns.strings.append(text)
            } else {
                columns.others.append(value)
            }
        }
        columns.shapeOfItem.append(UInt8(truncatingIfNeeded: shapeNumber))
        columns.ids.append(id)
        columns.lines.append(line)
        return true
    }

    private func fits(_ values: some Collection<PropertyValue>) -> Bool {
        values.count == stringsPerItem + othersPerItem && values.count(where: Self.isString) == stringsPerItem
    }

    /// The number of `shape` here, added when new; nil when there is no room for another.
    private mutating func number(of shape: ItemDescription) -> Int? {
        if let known = shapes.lastIndex(of: shape) { return known }
        guard shapes.count < Self.maximumShapes else { return nil }
        shapes.append(shape)
        return shapes.count - 1
    }

    private mutating func insert(shape: ItemDescription, id: String, line: Int, values: some Collection<PropertyValue>,
                                 at index: Int) -> Bool {
        guard fits(values), Int32(exactly: line) != nil, let number = number(of: shape) else { return false }
        if index == count { return append(shapeNumber: number, id: id, line: line, values: values) }
        var itemStrings: [String] = [], itemOthers: [PropertyValue] = []
        for value in values {
            if case .string(let text) = value { itemStrings.append(text) } else { itemOthers.append(value) }
        }
        longestStringBytes = itemStrings.reduce(longestStringBytes) { max($0, $1.utf8.count) }
        strings.insert(contentsOf: itemStrings, at: index * stringsPerItem)
        others.insert(contentsOf: itemOthers, at: index * othersPerItem)
        shapeOfItem.insert(UInt8(number), at: index)
        ids.insert(id, at: index)
        lines.insert(Int32(line), at: index)
        return true
    }

    mutating func remove(at index: Int) {
        shapeOfItem.remove(at: index)
        ids.remove(at: index)
        lines.remove(at: index)
        strings.removeSubrange(index * stringsPerItem..<(index + 1) * stringsPerItem)
        others.removeSubrange(index * othersPerItem..<(index + 1) * othersPerItem)
    }

    /// The first `index` items and the rest.
    func split(at index: Int) -> (ItemColumns, ItemColumns) {
        var head = self, tail = self
        head.keep(0..<index)
        tail.keep(index..<count)
        return (head, tail)
    }

    private mutating func keep(_ range: Range<Int>) {
        shapeOfItem = Array(shapeOfItem[range])
        ids = Array(ids[range])
        lines = Array(lines[range])
        strings = Array(strings[range.lowerBound * stringsPerItem..<range.upperBound * stringsPerItem])
        others = Array(others[range.lowerBound * othersPerItem..<range.upperBound * othersPerItem])
    }

    /// The item without its id, line and property values (strings blanked, others `.none`, so
    /// the shape still says which values are strings); nil for an item with children.
    static func shape(of item: ItemDescription) -> ItemDescription? {
        guard item.children.isEmpty else { return nil }
        var shape = item
        shape.id = ""
        shape.line = 0
        for p in shape.properties.indices {
            shape.properties[p].value = isString(shape.properties[p].value) ? .string("") : .none
        }
        return shape
    }

    static func isString(_ value: PropertyValue) -> Bool {
        if case .string = value { true } else { false }
    }
}
