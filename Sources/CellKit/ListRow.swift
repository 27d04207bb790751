/// How rows of a list are named: index paths of items, headers and footers, and section shapes.

/// Where an item sits: its section and its index in the section.
public struct ListIndexPath: Hashable, Sendable, Comparable, CustomStringConvertible {
    public var section: Int
    public var item: Int
    public init(section: Int, item: Int) {
        self.section = section
        self.item = item
    }
    public static func < (a: Self, b: Self) -> Bool { (a.section, a.item) < (b.section, b.item) }
    public var description: String { "\(section).\(item)" }
}

/// A row of a list: an item, or a section's header or footer.
public enum ListRow: Hashable, Sendable, CustomStringConvertible {
    case header(section: Int)
    case item(ListIndexPath)
    case footer(section: Int)

    public var description: String {
        switch self {
        case .header(let s): "header \(s)"
        case .item(let p): "item \(p)"
        case .footer(let s): "footer \(s)"
        }
    }
}

/// The shape of a section: how many items and whether it has a header and a footer. Items
/// themselves are the caller's values; the layout only needs their count.
public struct ListSectionShape: Hashable, Sendable {
    public var itemCount: Int
    public var hasHeader: Bool
    public var hasFooter: Bool
    /// A negative count is taken as an empty section.
    public init(itemCount: Int, hasHeader: Bool = false, hasFooter: Bool = false) {
        self.itemCount = max(0, itemCount)
        self.hasHeader = hasHeader
        self.hasFooter = hasFooter
    }
}
