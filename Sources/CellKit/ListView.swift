/// A scrolling list: a `ListLayout` plus live views for the visible rows only. Items are the
/// caller's values, described to cells by `configureCell`; a `Cell` exists only while its row is
/// visible. Views of rows that scroll away go to a reuse pool (keeping their content views) and
/// serve the rows that scroll in, so memory follows the viewport, not the item count.
public final class ListView {
    public let appearance: ListAppearance
    public private(set) var layout: ListLayout
    public let measurer: any TextMeasuring
    public var viewportHeight: Double
    public var contentOffset: Double

    /// Sets up a (new or reused) cell for an item: its content, flags, hooks.
    public var configureCell: (Cell, ListIndexPath) -> Void
    /// Sets up a header or footer view (`view.role`) for a section.
    public var configureHeaderFooter: (HeaderFooterView, Int) -> Void

    public private(set) var liveCells: [ListIndexPath: Cell] = [:]
    public private(set) var liveHeaderFooters: [ListRow: HeaderFooterView] = [:]
    private var cellPool: [Cell] = []
    private var headerPool: [HeaderFooterView] = []
    private var footerPool: [HeaderFooterView] = []
    /// Views created since the list was made (new views, as opposed to reused ones).
    public private(set) var createdViewCount = 0

    /// The traits of every view in the list; the list environment follows the appearance.
    public var traits: TraitCollection {
        didSet {
            traits.listEnvironment = appearance.listEnvironment
            guard traits != oldValue else { return }
            for cell in liveCells.values { cell.traitCollection = traits }
            for view in liveHeaderFooters.values { view.traitCollection = traits }
            layout.invalidateMeasurements()
            // The idiom and the width class move an inset-grouped list's rows (a pad's readable width).
            if appearance.rowInset(for: traits, listWidth: layout.width) != layout.rowInset { resetLayout() }
        }
    }

    public init(appearance: ListAppearance, width: Double, viewportHeight: Double, sections: [ListSectionShape],
                traits: TraitCollection = .default, measurer: any TextMeasuring,
                configureCell: @escaping (Cell, ListIndexPath) -> Void,
                configureHeaderFooter: @escaping (HeaderFooterView, Int) -> Void = { _, _ in }) {
        self.appearance = appearance
        layout = ListLayout(appearance: appearance, width: width, sections: sections,
                            rowInset: appearance.rowInset(for: traits, listWidth: width))
        self.measurer = measurer
        self.viewportHeight = viewportHeight
        contentOffset = 0
        var listTraits = traits
        listTraits.listEnvironment = appearance.listEnvironment
        self.traits = listTraits
        self.configureCell = configureCell
        self.configureHeaderFooter = configureHeaderFooter
    }

    public var visibleRows: [ListRow] {
        layout.visibleRows(viewportHeight: viewportHeight, contentOffset: contentOffset)
    }

    /// Views sitting in the reuse pools.
    public var pooledViewCount: Int { cellPool.count + headerPool.count + footerPool.count }

    /// A row that got a view in a layout pass.
    public struct EnteredRow: Hashable, Sendable {
        public var row: ListRow
        /// The view came from the reuse pool (with its content view) rather than being created.
        public var reused: Bool
    }

    /// What a layout pass did to the live views.
    public struct VisibleRowsChange: Hashable, Sendable {
        public var entered: [EnteredRow]
        public var left: [ListRow]
        /// Rows whose self-sized height changed the layout.
        public var resized: [ListRow]
    }

    /// Brings live views in line with the viewport: views of rows that left go to the pool, rows
    /// that entered get a view (reused when one is pooled), are configured, run their first update
    /// and are measured; every live row is re-measured. Repeats while measuring moves rows in or
    /// out of view, so the result is stable.
    @discardableResult
    public func layoutVisibleRows() -> VisibleRowsChange {
        var change = VisibleRowsChange(entered: [], left: [], resized: [])
        for _ in 0..<8 {
            let rows = visibleRows
            let wanted = Set(rows)
            for (path, cell) in liveCells where !wanted.contains(.item(path)) {
                liveCells[path] = nil
                cell.prepareForReuse()
                cellPool.append(cell)
                change.left.append(.item(path))
            }
            for (row, view) in liveHeaderFooters where !wanted.contains(row) {
                liveHeaderFooters[row] = nil
                view.prepareForReuse()
                if view.role == .footer { footerPool.append(view) } else { headerPool.append(view) }
                change.left.append(row)
            }
            var moved = false
            for row in rows {
                switch row {
                case .item(let path):
                    if liveCells[path] == nil {
                        let reused = !cellPool.isEmpty
                        let cell = cellPool.popLast() ?? makeCell()
                        cell.traitCollection = traits
                        configureCell(cell, path)
                        liveCells[path] = cell
                        change.entered.append(EnteredRow(row: row, reused: reused))
                    }
                case .header(let section), .footer(let section):
                    if liveHeaderFooters[row] == nil {
                        let isHeader = { if case .header = row { true } else { false } }()
                        let reused = !(isHeader ? headerPool : footerPool).isEmpty
                        let view = (isHeader ? headerPool.popLast() : footerPool.popLast())
                            ?? makeHeaderFooter(role: isHeader ? .header : .footer)
                        view.traitCollection = traits
                        configureHeaderFooter(view, section)
                        liveHeaderFooters[row] = view
                        change.entered.append(EnteredRow(row: row, reused: reused))
                    }
                }
                if measure(row) {
                    change.resized.append(row)
                    moved = true
                }
            }
            if !moved { break }
        }
        return change
    }

    private func makeCell() -> Cell {
        createdViewCount += 1
        return Cell(appearance: appearance, traits: traits)
    }

    private func makeHeaderFooter(role: ConfigurableViewRole) -> HeaderFooterView {
        createdViewCount += 1
        return HeaderFooterView(role: role, appearance: appearance, traits: traits)
    }

    /// Self-sizes a live row; true when its height changed the layout.
    private func measure(_ row: ListRow) -> Bool {
        guard let slot = layout.slot(of: row) else { return false }
        let height: Double
        switch row {
        case .item(let path):
            guard let cell = liveCells[path] else { return false }
            height = cell.preferredHeight(forWidth: layout.rowWidth, measurer: measurer)
        case .header, .footer:
            guard let view = liveHeaderFooters[row] else { return false }
            height = view.preferredHeight(forWidth: layout.rowWidth, measurer: measurer)
        }
        return layout.setMeasuredHeight(height, forSlot: slot)
    }

    /// Replaces the list's shape or width (items inserted or removed, the viewport resized):
    /// every live view goes back to the pool and rows are laid out afresh from estimates.
    public func reload(sections: [ListSectionShape], width: Double? = nil) {
        for cell in liveCells.values {
            cell.prepareForReuse()
            cellPool.append(cell)
        }
        for (row, view) in liveHeaderFooters {
            view.prepareForReuse()
            if case .footer = row { footerPool.append(view) } else { headerPool.append(view) }
        }
        liveCells = [:]
        liveHeaderFooters = [:]
        resetLayout(width: width ?? layout.width, sections: sections)
    }

    /// A fresh layout at the list's traits, keeping its estimates.
    private func resetLayout(width: Double? = nil, sections: [ListSectionShape]? = nil) {
        let width = width ?? layout.width
        layout = ListLayout(appearance: appearance, width: width, sections: sections ?? layout.sections,
                            estimatedItemHeight: layout.estimatedItemHeight,
                            estimatedHeaderFooterHeight: layout.estimatedHeaderFooterHeight,
                            rowInset: appearance.rowInset(for: traits, listWidth: width))
    }

    /// Re-measures every live row after update passes (a state or trait change may resize).
    @discardableResult
    public func remeasureLiveRows() -> [ListRow] {
        let rows = liveCells.keys.map { ListRow.item($0) } + liveHeaderFooters.keys
        return rows.filter(measure)
    }

    /// Sizes every row now with a sizing cell configured per item, for an exact content height
    /// before scrolling (O(items); rows already measured are kept).
    public func measureAllRows() {
        let sizingCell = Cell(appearance: appearance, traits: traits)
        let sizingHeader = HeaderFooterView(role: .header, appearance: appearance, traits: traits)
        let sizingFooter = HeaderFooterView(role: .footer, appearance: appearance, traits: traits)
        let width = layout.rowWidth
        layout.measureAllRows { row in
            switch row {
            case .item(let path):
                sizingCell.prepareForReuse()
                configureCell(sizingCell, path)
                return sizingCell.preferredHeight(forWidth: width, measurer: measurer)
            case .header(let section), .footer(let section):
                let view = { if case .header = row { sizingHeader } else { sizingFooter } }()
                view.prepareForReuse()
                configureHeaderFooter(view, section)
                return view.preferredHeight(forWidth: width, measurer: measurer)
            }
        }
    }

    /// Records a live row in its own coordinates (inset-grouped items clipped to their section's
    /// rounded shape); nil when the row has no live view.
    public func draw(_ row: ListRow) -> DisplayList? {
        guard let slot = layout.slot(of: row) else { return nil }
        let size = layout.frame(ofSlot: slot).size
        var list = DisplayList()
        switch row {
        case .item(let path):
            guard let cell = liveCells[path] else { return nil }
            cell.draw(size: size, measurer: measurer, clip: layout.sectionClip(forSlot: slot),
                      isLastInSection: path.item == layout.sections[path.section].itemCount - 1, into: &list)
        case .header, .footer:
            guard let view = liveHeaderFooters[row] else { return nil }
            view.draw(size: size, measurer: measurer, into: &list)
        }
        return list
    }
}
