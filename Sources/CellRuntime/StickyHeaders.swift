import CellKit

/// Sticky section headers of plain lists, as UIKit's list layout pins them
/// (`UICollectionLayoutListConfiguration.headerMode = .supplementary` in `.plain`): the header
/// of the section at the top of the viewport stays at the top while its section scrolls under
/// it, until the section's end pushes it up (the next section's header then takes its place).
/// While it is displaced from where its slot is, its configuration state is `isPinned`, and its
/// `listPlainHeaderFooter` background restyles as UIKit's pinned plain header (translucent over
/// a material blur). Its layer is kept above the rows it floats over.
extension Engine {
    /// Moves the top section's header to where it sticks, adds it to `visible` (last, so it is
    /// drawn over the rows) when its own slot has scrolled out, and sets `isPinned` on it (and
    /// clears it on the header pinned before).
    func pinHeaders(_ visible: inout [EngineRow]) {
        var header: EngineRow?
        var pinned = false
        if let first = visible.first, let section = sectionIndex(of: first), let h = sections[section].header {
            let natural = listLayout.frame(ofSlot: h.slot)
            let bottom = sectionBottom(section) ?? natural.maxY
            let y = max(natural.minY, min(contentOffset, bottom - natural.height))
            pinned = y > natural.minY
            h.frame = Rect(x: natural.minX, y: y, width: natural.width, height: natural.height)
            h.size = h.frame.size
            h.clip = nil
            // Last, so it is drawn over the rows; a header in its own place keeps its order.
            if y > natural.minY || !visible.contains(where: { $0 === h }) {
                visible.removeAll { $0 === h }
                visible.append(h)
            }
            header = h
        }
        if let previous = pinnedHeader, previous !== header || !pinned {
            setPinned(previous, false)
            pinnedHeader = nil
        }
        guard let header, pinned else { return }
        let becomesPinned = pinnedHeader !== header
        setPinned(header, true)
        pinnedHeader = header
        // A layer set after the header's would cover it: the header's layer goes and is set
        // again after theirs, on top.
        if header.layerFrame != nil && (becomesPinned || visible.contains { $0 !== header && $0.layerFrame == nil }) {
            renderer.removeLayer(header.layerID)
            header.layerFrame = nil
        }
    }

    private func setPinned(_ header: EngineRow, _ pinned: Bool) {
        guard header.flags.isPinned != pinned else { return }
        header.noteCause(pinned ? "sticks to the top" : "scrolls with its section")
        header.applyState(StateChange(pinned: pinned))
    }

    private func sectionIndex(of row: EngineRow) -> Int? {
        switch listLayout.row(atSlot: row.slot) {
        case .header(let s)?, .footer(let s)?: s
        case .item(let p)?: p.section
        case nil: nil
        }
    }

    /// Where the section's last row (its footer, else its last item) ends; nil for an empty
    /// section without a footer.
    private func sectionBottom(_ section: Int) -> Double? {
        let shape = listLayout.sections[section]
        if let footer = listLayout.frame(of: .footer(section: section)) { return footer.maxY }
        guard shape.itemCount > 0 else { return nil }
        return listLayout.frame(of: .item(ListIndexPath(section: section, item: shape.itemCount - 1)))?.maxY
    }
}
