/// `{"expand": "id"}` / `{"collapse": "id"}`: an outline item opens or closes, as
/// `NSDiffableDataSourceSectionSnapshot.expand(_:)` / `collapse(_:)` applied to the list. The
/// item's cell takes `isExpanded`, and its visible descendants are inserted below it or removed.
public struct OutlineChange: Sendable, Hashable {
    public var itemID: String
    /// True for `expand`, false for `collapse`.
    public var expands: Bool

    public init(itemID: String, expands: Bool) {
        self.itemID = itemID
        self.expands = expands
    }
}

extension ItemDescription {
    /// Every item below this one in its outline, depth first (children before later siblings),
    /// whether expanded or not.
    public var outlineDescendants: [ItemDescription] {
        var all: [ItemDescription] = []
        func walk(_ item: ItemDescription) {
            for child in item.children {
                all.append(child)
                walk(child)
            }
        }
        walk(self)
        return all
    }
}
