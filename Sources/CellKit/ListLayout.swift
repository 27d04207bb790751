/// Where every row of a list sits at one width. Rows are stacked in slots — per section a
/// header slot, the items, a footer slot — whose heights start as estimates and become exact as
/// rows are measured (self-sized). Only what differs from the estimate is stored (`PrefixSums`,
/// `SparsePages`): a list of a million items of which a few screens were shown costs a few pages,
/// not a number per row.
public struct ListLayout: Sendable {
    public let appearance: ListAppearance
    public let width: Double
    /// How far rows sit from the list's side edges (`ListAppearance.rowInset(for:listWidth:)`).
    public let rowInset: Double
    public let sections: [ListSectionShape]
    public let estimatedItemHeight: Double
    public let estimatedHeaderFooterHeight: Double
    /// The flat slot of each section's header; the section's items follow it, then its footer.
    private let sectionStarts: [Int]
    private var heights: PrefixSums
    /// Slots whose height is their own (self-sized, or fixed spacing); unwritten = estimated.
    private var measured: SparsePages<Bool>

    public init(appearance: ListAppearance, width: Double, sections: [ListSectionShape],
                estimatedItemHeight: Double = 44, estimatedHeaderFooterHeight: Double = 38, rowInset: Double? = nil) {
        self.appearance = appearance
        self.width = width
        self.rowInset = rowInset ?? appearance.rowInset
        self.sections = sections.map { shape in
            var valid = shape
            valid.itemCount = max(0, shape.itemCount)
            return valid
        }
        self.estimatedItemHeight = estimatedItemHeight
        self.estimatedHeaderFooterHeight = estimatedHeaderFooterHeight
        var starts: [Int] = []
        starts.reserveCapacity(sections.count)
        var slots = 0
        for section in self.sections {
            starts.append(slots)
            slots += section.itemCount + 2
        }
        sectionStarts = starts
        heights = PrefixSums(count: slots, estimate: estimatedItemHeight)
        measured = SparsePages(count: slots)
        for (section, start) in zip(self.sections, starts) {
            heights.set(section.hasHeader ? estimatedHeaderFooterHeight : appearance.sectionSpacingWithoutHeader, at: start)
            heights.set(section.hasFooter ? estimatedHeaderFooterHeight : 0, at: start + section.itemCount + 1)
        }
        markEmptySlotsMeasured()
    }

    /// The slots of missing headers and footers hold fixed spacing: they never size themselves.
    private mutating func markEmptySlotsMeasured() {
        for (section, start) in zip(sections, sectionStarts) {
            if !section.hasHeader { measured.set(true, at: start) { _ in false } }
            if !section.hasFooter { measured.set(true, at: start + section.itemCount + 1) { _ in false } }
        }
    }

    /// Number of slots (rows plus the empty header/footer slots of sections without them).
    public var slotCount: Int { heights.count }

    /// Pages of height storage written so far (what the layout costs beyond a few bytes per 512 slots).
    var allocatedPageCount: Int { heights.allocatedPageCount + measured.allocatedPageCount }

    /// Bytes of height storage written so far (memory tests bound it per row).
    var allocatedBytes: Int { heights.allocatedBytes + measured.allocatedBytes }

    public var contentHeight: Double { heights.total }

    /// The row in `slot`; nil for the slot of a missing header or footer.
    public func row(atSlot slot: Int) -> ListRow? {
        guard slot >= 0, slot < slotCount else { return nil }
        let section = sectionIndex(ofSlot: slot)
        let offset = slot - sectionStarts[section]
        let shape = sections[section]
        if offset == 0 { return shape.hasHeader ? .header(section: section) : nil }
        if offset == shape.itemCount + 1 { return shape.hasFooter ? .footer(section: section) : nil }
        return .item(ListIndexPath(section: section, item: offset - 1))
    }

    public func slot(of row: ListRow) -> Int? {
        switch row {
        case .header(let s):
            return sections.indices.contains(s) && sections[s].hasHeader ? sectionStarts[s] : nil
        case .footer(let s):
            return sections.indices.contains(s) && sections[s].hasFooter ? sectionStarts[s] + sections[s].itemCount + 1 : nil
        case .item(let p):
            guard sections.indices.contains(p.section), (0..<sections[p.section].itemCount).contains(p.item) else { return nil }
            return sectionStarts[p.section] + 1 + p.item
        }
    }

    private func sectionIndex(ofSlot slot: Int) -> Int {
        var low = 0, high = sectionStarts.count - 1
        while low < high {
            let mid = (low + high + 1) / 2
            if sectionStarts[mid] <= slot { low = mid } else { high = mid - 1 }
        }
        return low
    }

    /// The row's frame in list coordinates. Inset-grouped rows (and their headers and footers)
    /// are inset from the list's edges; other appearances run edge to edge.
    public func frame(ofSlot slot: Int) -> Rect {
        let inset = rowInset
        return Rect(x: inset, y: heights.sum(ofFirst: slot), width: max(0, width - 2 * inset), height: heights[slot])
    }

    public func frame(of row: ListRow) -> Rect? { slot(of: row).map(frame(ofSlot:)) }

    /// The width a row is self-sized at.
    public var rowWidth: Double { max(0, width - 2 * rowInset) }

    public func isMeasured(slot: Int) -> Bool { measured.stored(at: slot) ?? false }

    /// Records a row's self-sized height. Returns whether the layout changed.
    @discardableResult
    public mutating func setMeasuredHeight(_ height: Double, forSlot slot: Int) -> Bool {
        let changed = heights[slot] != height
        heights.set(height, at: slot)
        measured.set(true, at: slot) { _ in false }
        return changed
    }

    /// Every measured slot with its height, in slot order (a layout rebuilt for changed items
    /// carries these over, so rows that no longer exist as objects keep their sizes).
    public func forEachMeasuredSlot(_ body: (_ slot: Int, _ height: Double) -> Void) {
        measured.forEachStored { slot, isMeasured in if isMeasured { body(slot, heights[slot]) } }
    }

    /// Sizes every row now, through `height` (deterministic content height up front, at O(n) cost).
    public mutating func measureAllRows(_ height: (ListRow) -> Double) {
        for slot in 0..<slotCount {
            if let row = row(atSlot: slot), !isMeasured(slot: slot) { setMeasuredHeight(height(row), forSlot: slot) }
        }
    }

    /// Forgets measured heights (after a trait change every row must size itself again); the
    /// heights stay as the new estimates.
    public mutating func invalidateMeasurements() {
        measured.removeAll()
        markEmptySlotsMeasured()
    }

    /// Slots that intersect the viewport `[offset, offset + height)`, empty slots included.
    public func visibleSlots(viewportHeight: Double, contentOffset: Double) -> Range<Int> {
        guard slotCount > 0, viewportHeight > 0 else { return 0..<0 }
        let top = max(0, contentOffset)
        let first = min(heights.index(containing: top), slotCount)
        var last = min(heights.index(containing: contentOffset + viewportHeight), slotCount - 1)
        // A slot that starts exactly at the bottom edge is not visible.
        while last > first && heights.sum(ofFirst: last) >= contentOffset + viewportHeight { last -= 1 }
        return first < slotCount ? first..<(last + 1) : slotCount..<slotCount
    }

    /// The visible rows (items, headers, footers) for a viewport.
    public func visibleRows(viewportHeight: Double, contentOffset: Double) -> [ListRow] {
        visibleSlots(viewportHeight: viewportHeight, contentOffset: contentOffset).compactMap { slot in
            heights[slot] > 0 ? row(atSlot: slot) : nil
        }
    }

    /// For an inset-grouped item: the section's items as one rounded rect, in the row's own
    /// coordinates, so clipping a row to it rounds only the section's outer corners.
    public func sectionClip(forSlot slot: Int) -> (rect: Rect, cornerRadius: Double)? {
        guard appearance.sectionCornerRadius > 0, case .item(let path)? = row(atSlot: slot) else { return nil }
        let start = sectionStarts[path.section] + 1
        let end = start + sections[path.section].itemCount
        let top = heights.sum(ofFirst: start), bottom = heights.sum(ofFirst: end)
        let rowTop = heights.sum(ofFirst: slot)
        return (Rect(x: 0, y: top - rowTop, width: rowWidth, height: bottom - top), appearance.sectionCornerRadius)
    }
}
