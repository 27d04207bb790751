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

    private var shapes: [ItemDescription]
    private var shapeOfItem: [UInt8] = []
    private var ids: [String] = []
    private var lines: [Int32] = []
    private var strings: [String] = []
    private var others: [PropertyValue] = []
    private let stringsPerItem: Int
    private let othersPerItem: Int

    /// Columns holding `item` alone; nil when it cannot be stored by column.
    init?(_ item: ItemDescription) {
        guard let shape = Self.shape(of: item) else { return nil }
        shapes = [shape]
        stringsPerItem = shape.properties.count { Self.isString($0.value) }
        othersPerItem = shape.properties.count - stringsPerItem
        guard append(item) else { return nil }
    }

    public var count: Int { ids.count }

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
    /// order) at the end, without making its description; false (and nothing changed) when it
    /// does not fit.
    mutating func append(shape: ItemDescription, id: String, line: Int, values: [PropertyValue]) -> Bool {
        insert(shape: shape, id: id, line: line, values: values, at: count)
    }

    private mutating func insert(shape: ItemDescription, id: String, line: Int, values: some Collection<PropertyValue>,
                                 at index: Int) -> Bool {
        guard let line = Int32(exactly: line), values.count == stringsPerItem + othersPerItem,
              values.count(where: Self.isString) == stringsPerItem else { return false }
        let number: Int
        if let known = shapes.lastIndex(of: shape) {
            number = known
        } else {
            guard shapes.count < Self.maximumShapes else { return false }
            shapes.append(shape)
            number = shapes.count - 1
        }
        if index == count {
            for value in values {
                if case .string(let text) = value { strings.append(text) } else { others.append(value) }
            }
        } else {
            var itemStrings: [String] = [], itemOthers: [PropertyValue] = []
            for value in values {
                if case .string(let text) = value { itemStrings.append(text) } else { itemOthers.append(value) }
            }
            strings.insert(contentsOf: itemStrings, at: index * stringsPerItem)
            others.insert(contentsOf: itemOthers, at: index * othersPerItem)
        }
        shapeOfItem.insert(UInt8(number), at: index)
        ids.insert(id, at: index)
        lines.insert(line, at: index)
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
