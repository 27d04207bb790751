import CellKit

/// What outline changes do to the engine's rows: `expand` inserts the item's visible
/// descendants below it, `collapse` removes them (their rows are parked with their data, so
/// they show again as they were), deleting a parent removes its subtree; rows are indented by
/// their level. Rows inserted or removed move the rows below them as the engine's inserts and
/// deletes do (in an animated event, they slide).
extension Engine {
    /// Whether an item of `items` has children: only then are the rows shown not the items themselves.
    static func hasChildren(_ items: ItemList) -> Bool {
        items.runs.contains { run in
            if case .items(let written) = run { return written.contains { !$0.children.isEmpty } }
            return false
        }
    }

    /// The section's visible items for the scene's items: an item with children is followed by
    /// its visible descendants when it starts expanded. A list with no children is returned
    /// as it is, and no outline is made.
    static func visibleItems(_ items: ItemList, outline: inout EngineOutline?) -> ItemList {
        guard hasChildren(items) else { return items }
        var tree = outline ?? EngineOutline()
        var visible = ItemList()
        for run in items.runs {
            switch run {
            case .items(let written): for item in tree.flatten(written) { visible.append(item) }
            case .columns(let written): for item in tree.flatten(written.items) { visible.append(item) }
            case .series(let series): visible.append(series)
            }
        }
        outline = tree
        return visible
    }

    /// This event's outline records, for its trace; the engine's list is left empty.
    func takeOutlineTraces() -> [OutlineTrace] {
        defer { outlineTraces = [] }
        return outlineTraces
    }

    /// Gives a new row its outline level and, for a parent that is expanded, its state.
    func takeOutlinePlace(of row: EngineRow) {
        guard let node = outline?.nodes[row.name] else { return }
        row.indentationLevel = node.level
        if node.isExpanded { row.flags.isExpanded = true }
        if !node.children.isEmpty { giveDefaultOutlineDisclosure(to: row) }
    }

    /// A parent's row gets UIKit's default for an outline header: an outline-disclosure
    /// accessory when its item sets no accessories (drawn rotated while expanded); an item that
    /// lists accessories keeps exactly those.
    func giveDefaultOutlineDisclosure(to row: EngineRow) {
        let current = row.decorationState?.decorations ?? CellDecorations()
        let decorations = current.withDefaultOutlineDisclosure()
        guard decorations != current else { return }
        if let state = row.decorationState { state.decorations = decorations } else { row.decorationState = RowDecorations(decorations) }
    }

    /// Why a cell is not in the list, when the outline hides it.
    func hiddenReason(_ id: String) -> String? {
        guard let parent = outline?.collapsedAncestor(of: id) else { return nil }
        return "item \"\(id)\" is hidden: \"\(parent)\" above it is collapsed"
    }

    /// `expand` / `collapse`: the item's cell takes `isExpanded`; its visible descendants are
    /// inserted below it or removed. Expanding an expanded item (or collapsing a collapsed one)
    /// changes nothing; an item hidden under a collapsed ancestor changes its own expanded state
    /// only, shown when its ancestors expand (as in a section snapshot).
    func applyOutline(_ change: OutlineChange, forceFrame: inout Bool) throws(EngineError) {
        let id = change.itemID
        let verb = change.expands ? "expand" : "collapse"
        guard let node = outline?.nodes[id], !node.children.isEmpty else {
            throw EngineError("\"\(verb)\" needs an item with children; \"\(id)\" has none")
        }
        var trace = OutlineTrace(item: id, action: change.expands ? .expand : .collapse, level: node.level)
        defer { outlineTraces.append(trace) }
        if outline!.collapsedAncestor(of: id) != nil {
            outline!.setExpanded(id, change.expands)
            outline!.setParkedState(of: id, expanded: change.expands)
            return
        }
        let r = try row(for: .cell(id))
        r.noteCause(verb)
        r.applyState(StateChange(expanded: change.expands))
        guard node.isExpanded != change.expands, let (section, index) = position(of: r) else { return }
        let shift: ItemShift
        if change.expands {
            outline!.setExpanded(id, true)
            let shown = showRows(outline!.visibleDescendants(of: id), section: section, after: index)
            trace.inserted = shown
            shift = ItemShift(section: section, at: index + 1, delta: shown.count)
        } else {
            let count = outline!.visibleDescendants(of: id).count
            outline!.setExpanded(id, false)
            trace.removed = hideRows(count: count, section: section, after: index)
            shift = ItemShift(section: section, at: index + 1, delta: -count)
            forceFrame = true
        }
        rebuildLayout(shift: shift)
    }

    /// An inserted item with children: registered in the outline at the top level, inserted,
    /// and followed by its visible descendants when it is expanded.
    func insertOutlineItem(_ item: ItemDescription, inSection sectionID: String, at index: Int?) throws(EngineError) {
        if outline == nil { outline = EngineOutline() }
        let bare = outline!.add(item)
        try insert(bare, inSection: sectionID, at: index)
        guard item.isExpanded, let r = rowsByName[item.id], let (section, at) = position(of: r) else { return }
        let shown = showRows(outline!.visibleDescendants(of: item.id), section: section, after: at)
        outlineTraces.append(OutlineTrace(item: item.id, action: .expand, level: 0, inserted: shown))
        rebuildLayout(shift: ItemShift(section: section, at: at + 1, delta: shown.count))
    }

    /// Before an item of the outline is deleted: its visible descendants are deleted, and it
    /// leaves the outline with its subtree. Answers true when the item was hidden under a
    /// collapsed ancestor (it has no row on screen, and nothing else is to be done).
    func deleteFromOutline(_ id: String) throws(EngineError) -> Bool {
        guard let node = outline?.nodes[id] else { return false }
        if outline!.collapsedAncestor(of: id) != nil {
            outline!.remove(id)
            return true
        }
        let shown = node.isExpanded ? outline!.visibleDescendants(of: id) : []
        for d in shown.reversed() { try delete(d.id) }
        if !shown.isEmpty {
            outlineTraces.append(OutlineTrace(item: id, action: .delete, level: node.level, removed: shown.map(\.id)))
        }
        outline!.remove(id)
        return false
    }

    /// The section and item index of a made row.
    private func position(of r: EngineRow) -> (section: Int, index: Int)? {
        for si in sections.indices {
            if let i = sections[si].rows.first(where: { $0.value === r })?.key { return (si, i) }
        }
        return nil
    }

    /// Inserts `items` below item `index` of section `section`, bringing back the rows parked
    /// for them (the others are made when shown). Answers their ids.
    private func showRows(_ items: [ItemDescription], section: Int, after index: Int) -> [String] {
        for (k, item) in items.enumerated() { sections[section].items.insert(item, at: index + 1 + k) }
        sections[section].released.insert(count: items.count, at: index + 1)
        sections[section].rows = Engine.shifting(sections[section].rows, from: index + 1, by: items.count)
        for (k, item) in items.enumerated() {
            guard let parked = outline!.unpark(item.id) else { continue }
            sections[section].rows[index + 1 + k] = parked
            rowsByName[item.id] = parked
        }
        return items.map(\.id)
    }

    /// Removes the `count` items below item `index` of section `section`; their rows give their
    /// views back and are parked. Answers their ids.
    private func hideRows(count: Int, section: Int, after index: Int) -> [String] {
        guard count > 0 else { return [] }
        // Released rows are made again first, so they are parked with what was kept of them.
        if sections[section].released.hasKept(in: (index + 1)..<(index + 1 + count)) {
            for k in 1...count where sections[section].rows[index + k] == nil
                && sections[section].released.hasKept(at: index + k) {
                _ = try? row(section: section, item: index + k)
            }
        }
        sections[section].released.remove(count: count, at: index + 1)
        var removed: [String] = []
        for k in 1...count {
            let item = sections[section].items.remove(at: index + 1)
            removed.append(item.id)
            guard let r = sections[section].rows.removeValue(forKey: index + k) else { continue }
            rowsByName[r.name] = nil
            attached[ObjectIdentifier(r)] = nil
            r.detachView(to: &pool)
            renderer.removeLayer(r.layerID)
            r.layerFrame = nil
            outline!.park(r)
        }
        sections[section].rows = Engine.shifting(sections[section].rows, from: index + 1 + count, by: -count)
        return removed
    }
}
