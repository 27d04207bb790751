/// The hierarchy of a list's outline items, with NSDiffableDataSourceSectionSnapshot's
/// semantics: an item's children show (one level deeper, below it) only while it and every
/// ancestor are expanded; collapsing hides the descendants and keeps their own expanded states,
/// so expanding again shows them as they were (a grandchild collapsed stays collapsed); deleting
/// an item deletes its subtree. The section's item list holds the visible items only; this
/// holds everything else the outline knows. Items with no outline never reach it: a list without
/// children has no `EngineOutline` at all.
struct EngineOutline {
    struct Node {
        /// The item as described, without its children (they are nodes of their own).
        var item: ItemDescription
        var parent: String?
        var children: [String]
        var isExpanded: Bool
        var level: Int
    }

    private(set) var nodes: [String: Node] = [:]
    /// Rows of items hidden by a collapse, kept with their data (properties set, state flags,
    /// their own expanded state) for when they show again; their views went to the pool.
    private var parkedRows: [String: EngineRow] = [:]

    /// Registers an item of the list at `level`, with its subtree; answers the item without its
    /// children, as the section's list holds it.
    @discardableResult
    mutating func add(_ item: ItemDescription, parent: String? = nil, level: Int = 0) -> ItemDescription {
        var bare = item
        bare.children = []
        nodes[item.id] = Node(item: bare, parent: parent, children: item.children.map(\.id),
                              isExpanded: item.isExpanded, level: level)
        for child in item.children { add(child, parent: item.id, level: level + 1) }
        return bare
    }

    func level(of id: String) -> Int { nodes[id]?.level ?? 0 }
    func isExpanded(_ id: String) -> Bool { nodes[id]?.isExpanded ?? false }
    func hasChildren(_ id: String) -> Bool { !(nodes[id]?.children.isEmpty ?? true) }

    /// The closest collapsed ancestor, when the item is hidden under one.
    func collapsedAncestor(of id: String) -> String? {
        var parent = nodes[id]?.parent
        var hiddenBy: String?
        while let p = parent, let node = nodes[p] {
            if !node.isExpanded { hiddenBy = p }
            parent = node.parent
        }
        return hiddenBy
    }

    mutating func setExpanded(_ id: String, _ expanded: Bool) { nodes[id]?.isExpanded = expanded }

    /// The descendants that show while `id` is expanded: each child, and below an expanded child
    /// its own visible descendants, in list order.
    func visibleDescendants(of id: String) -> [ItemDescription] {
        var shown: [ItemDescription] = []
        func walk(_ id: String) {
            for child in nodes[id]?.children ?? [] {
                guard let node = nodes[child] else { continue }
                shown.append(node.item)
                if node.isExpanded { walk(child) }
            }
        }
        walk(id)
        return shown
    }

    /// The section's visible items for top-level `items`: each followed by its visible
    /// descendants where it is expanded. Registers every item with children.
    mutating func flatten(_ items: [ItemDescription]) -> [ItemDescription] {
        var visible: [ItemDescription] = []
        for item in items {
            let bare = add(item)
            visible.append(bare)
            if item.isExpanded { visible += visibleDescendants(of: item.id) }
        }
        return visible
    }

    mutating func park(_ row: EngineRow) { parkedRows[row.name] = row }
    mutating func unpark(_ id: String) -> EngineRow? { parkedRows.removeValue(forKey: id) }

    /// Forgets `id` and its subtree (deleted), and unlinks it from its parent.
    mutating func remove(_ id: String) {
        guard let node = nodes.removeValue(forKey: id) else { return }
        parkedRows[id] = nil
        if let parent = node.parent { nodes[parent]?.children.removeAll { $0 == id } }
        for child in node.children {
            nodes[child]?.parent = nil
            remove(child)
        }
    }
}

extension EngineOutline {
    /// A hidden item that expands or collapses: its parked row (if it was ever shown) takes the
    /// state, for when it shows again.
    mutating func setParkedState(of id: String, expanded: Bool) {
        parkedRows[id]?.applyState(StateChange(expanded: expanded))
    }
}
