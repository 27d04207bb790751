import CellKit
import Testing
@testable import CellRender

/// Every cell accessory as the compositor draws it, in light and dark, left to right and right
/// to left (editing controls in an editing cell, the outline disclosure collapsed and expanded,
/// the multiselect circle empty and selected), and open swipe actions on either edge.
@Suite struct AccessoryGoldenTests {
    static let width = 320.0
    static let scale = 2

    /// One row per accessory: its title and how the cell is set up.
    static let rows: [(title: String, accessories: [CellAccessory], editing: Bool, selected: Bool, expanded: Bool)] = [
        ("Disclosure", [CellAccessory(.disclosureIndicator)], false, false, false),
        ("Checkmark", [CellAccessory(.checkmark)], false, false, false),
        ("Delete", [CellAccessory(.delete)], true, false, false),
        ("Insert", [CellAccessory(.insert)], true, false, false),
        ("Reorder", [CellAccessory(.reorder)], true, false, false),
        ("Outline", [CellAccessory(.outlineDisclosure)], false, false, false),
        ("Expanded", [CellAccessory(.outlineDisclosure)], false, false, true),
        ("Detail", [CellAccessory(.detail)], false, false, false),
        ("Multiselect", [CellAccessory(.multiselect)], true, false, false),
        ("Selected", [CellAccessory(.multiselect)], true, true, false),
        ("Label", [CellAccessory(.label(text: "12")), CellAccessory(.disclosureIndicator)], false, false, false),
        ("Custom", [CellAccessory(.customView(image: Image(systemName: "star.fill"), size: Size(width: 20, height: 20)),
                                  placement: .leading, tintColor: .systemYellow)], false, false, false),
    ]

    static func traits(_ style: UserInterfaceStyle, _ direction: LayoutDirection) -> TraitCollection {
        var traits = TraitCollection(userInterfaceStyle: style)
        traits.layoutDirection = direction
        return traits
    }

    /// Cells of a plain list stacked in one frame, one layer each.
    static func render(_ cells: [Cell], traits: TraitCollection) -> RasterImage {
        let heights = cells.map { $0.preferredHeight(forWidth: width, measurer: Fixtures.engine).rounded(.up) }
        let total = heights.reduce(0, +)
        let compositor = Compositor(viewport: Size(width: width, height: total), scale: scale,
                                    background: Color.systemBackground.resolved(with: traits), textEngine: Fixtures.engine)
        var y = 0.0
        for (i, cell) in cells.enumerated() {
            var list = DisplayList()
            let size = Size(width: width, height: heights[i])
            cell.draw(size: size, measurer: Fixtures.engine, into: &list)
            compositor.setLayer(i, frame: Rect(origin: Point(x: 0, y: y), size: size), content: list)
            y += heights[i]
        }
        let report = compositor.renderFrame()
        #expect(report.problems.isEmpty, "\(report.problems)")
        return compositor.snapshot()
    }

    static func cell(_ title: String, traits: TraitCollection, decorations: CellDecorations) -> Cell {
        let cell = Cell(appearance: .plain, traits: traits)
        var content = cell.defaultContentConfiguration()
        content.text = title
        content.image = Image(systemName: "folder")
        cell.contentConfiguration = content
        cell.decorations = decorations
        return cell
    }

    static func accessoryList(_ style: UserInterfaceStyle, _ direction: LayoutDirection) -> RasterImage {
        let traits = traits(style, direction)
        let cells = rows.map { row in
            let c = cell(row.title, traits: traits, decorations: CellDecorations(accessories: row.accessories))
            c.isEditing = row.editing
            c.isSelected = row.selected
            c.isExpanded = row.expanded
            return c
        }
        return render(cells, traits: traits)
    }

    @Test(arguments: UserInterfaceStyle.allCases)
    func everyAccessoryLeftToRightAndRightToLeft(style: UserInterfaceStyle) {
        for direction in [LayoutDirection.leftToRight, .rightToLeft] {
            goldens.check(Self.accessoryList(style, direction), "accessories-\(style.rawValue)-\(direction == .leftToRight ? "ltr" : "rtl")")
        }
    }

    /// Right to left is the mirror image of left to right, glyph for glyph: the same ink,
    /// flipped (text shapes mirror only by position, so compare ink per row band).
    @Test func rightToLeftMirrorsEveryAccessory() {
        let ltr = Self.accessoryList(.light, .leftToRight), rtl = Self.accessoryList(.light, .rightToLeft)
        #expect(ltr.width == rtl.width && ltr.height == rtl.height)
        #expect(ltr.differingPixelCount(to: rtl, tolerance: 8) > 1000)
    }

    static func swiped(_ edge: SwipeEdge, style: UserInterfaceStyle, direction: LayoutDirection,
                       full: Bool = false) -> RasterImage {
        let traits = traits(style, direction)
        var decorations = CellDecorations(
            accessories: [CellAccessory(.disclosureIndicator)],
            leadingSwipeActions: SwipeActionsConfiguration(actions: [
                SwipeAction(title: "Pin", backgroundColor: .systemOrange, image: Image(systemName: "bookmark"))]),
            trailingSwipeActions: SwipeActionsConfiguration(actions: [
                SwipeAction(title: "Delete", style: .destructive, image: Image(systemName: "trash")),
                SwipeAction(title: "More", image: Image(systemName: "ellipsis")),
                SwipeAction(title: "Archive", backgroundColor: .systemIndigo)]),
            openSwipeEdge: edge)
        decorations.isFullSwipe = full
        let open = cell("Swiped open", traits: traits, decorations: decorations)
        open.isSwiped = edge != .none
        let neighbour = cell("Neighbour", traits: traits, decorations: CellDecorations(accessories: [CellAccessory(.disclosureIndicator)]))
        return render([open, neighbour], traits: traits)
    }

    @Test func openSwipeActions() {
        goldens.check(Self.swiped(.trailing, style: .light, direction: .leftToRight), "swipe-trailing-light-ltr")
        goldens.check(Self.swiped(.leading, style: .light, direction: .leftToRight), "swipe-leading-light-ltr")
        goldens.check(Self.swiped(.trailing, style: .dark, direction: .rightToLeft), "swipe-trailing-dark-rtl")
    }

    /// A full swipe: the first action's button spans the row, its label at the end the swipe
    /// came from; the content has slid off the row.
    @Test func aFullSwipeSpansTheRowWithTheFirstAction() throws {
        let traits = Self.traits(.light, .leftToRight)
        let image = Self.swiped(.trailing, style: .light, direction: .leftToRight, full: true)
        let red = Color.systemRed.resolved(with: traits)
        let rowHeight = Int(Self.cell("x", traits: traits, decorations: CellDecorations()).preferredHeight(
            forWidth: Self.width, measurer: Fixtures.engine).rounded(.up)) * Self.scale
        for x in [2, image.width / 2, image.width - 3] {
            let p = image.rgba(x: x, y: 2)
            let wanted = [red.red, red.green, red.blue].map { Int(($0 * 255).rounded()) }
            #expect(zip([p.red, p.green, p.blue].map(Int.init), wanted).allSatisfy { abs($0 - $1) <= 2 },
                    "the row is the destructive button's red at x \(x): \(p)")
        }
        #expect(image.rgba(x: image.width / 2, y: rowHeight + 4).red > 240, "the neighbour is untouched")
        goldens.check(image, "swipe-full-trailing-light-ltr")
        goldens.check(Self.swiped(.leading, style: .dark, direction: .rightToLeft, full: true), "swipe-full-leading-dark-rtl")
    }

    @Test func aClosedSwipeLooksLikeACellWithoutSwipeActions() {
        let closed = Self.swiped(.none, style: .light, direction: .leftToRight)
        let traits = Self.traits(.light, .leftToRight)
        let plain = Self.render([
            Self.cell("Swiped open", traits: traits, decorations: CellDecorations(accessories: [CellAccessory(.disclosureIndicator)])),
            Self.cell("Neighbour", traits: traits, decorations: CellDecorations(accessories: [CellAccessory(.disclosureIndicator)])),
        ], traits: traits)
        #expect(closed.differingPixelCount(to: plain, tolerance: 0) == 0)
    }

    /// A decorated cell honours the list's and its own separator configuration (insets, a top
    /// separator, the colour) as an undecorated one does; automatic insets start at the text.
    @Test func decoratedCellsHonourSeparatorInsets() throws {
        let traits = Self.traits(.light, .leftToRight)
        var listWide = ListSeparatorConfiguration()
        listWide.bottomSeparatorInsets = .init(leading: 0, trailing: 40)
        var own = listWide
        own.topSeparatorVisibility = .visible
        own.topSeparatorInsets = .init(leading: 60, trailing: 60)
        own.color = .systemRed
        let decorations = CellDecorations(accessories: [CellAccessory(.disclosureIndicator)])
        let cells = ["List insets", "Own separators", "Automatic"].map { Self.cell($0, traits: traits, decorations: decorations) }
        cells[0].separatorConfiguration = listWide
        cells[1].separatorConfiguration = own
        let thickness = 1 / max(1, traits.displayScale)
        func fills(_ cell: Cell) -> [(Rect, Color)] {
            let size = Size(width: Self.width, height: cell.preferredHeight(forWidth: Self.width, measurer: Fixtures.engine))
            var list = DisplayList()
            cell.draw(size: size, measurer: Fixtures.engine, into: &list)
            return list.commands.compactMap { if case .fill(let r, let c) = $0, r.height == thickness { (r, c) } else { nil } }
        }
        let separator = Color.separator.resolved(with: traits)
        let first = fills(cells[0])
        #expect(first.count == 1 && first[0].0.minX == 0 && first[0].0.width == Self.width - 40 && first[0].1 == separator,
                "the list's bottom insets: \(first)")
        let second = fills(cells[1])
        let red = Color.systemRed.resolved(with: traits)
        #expect(second.contains { $0.0.minY == 0 && $0.0.minX == 60 && $0.0.width == Self.width - 120 && $0.1 == red },
                "the item's top separator: \(second)")
        #expect(second.contains { $0.0.minY > 0 && $0.0.minX == 0 && $0.0.width == Self.width - 40 && $0.1 == red })
        let automatic = fills(cells[2])
        #expect(automatic.count == 1 && automatic[0].0.minX > 16 && automatic[0].0.maxX == Self.width,
                "automatic: from the text to the edge: \(automatic)")
        goldens.check(Self.render(cells, traits: traits), "accessories-separator-insets")
    }
}
