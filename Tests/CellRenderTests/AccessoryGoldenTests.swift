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

    static func swiped(_ edge: SwipeEdge, style: UserInterfaceStyle, direction: LayoutDirection) -> RasterImage {
        let traits = traits(style, direction)
        let decorations = CellDecorations(
            accessories: [CellAccessory(.disclosureIndicator)],
            leadingSwipeActions: SwipeActionsConfiguration(actions: [
                SwipeAction(title: "Pin", backgroundColor: .systemOrange, image: Image(systemName: "bookmark"))]),
            trailingSwipeActions: SwipeActionsConfiguration(actions: [
                SwipeAction(title: "Delete", style: .destructive, image: Image(systemName: "trash")),
                SwipeAction(title: "More", image: Image(systemName: "ellipsis")),
                SwipeAction(title: "Archive", backgroundColor: .systemIndigo)]),
            openSwipeEdge: edge)
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

    @Test func aClosedSwipeLooksLikeACellWithoutSwipeActions() {
        let closed = Self.swiped(.none, style: .light, direction: .leftToRight)
        let traits = Self.traits(.light, .leftToRight)
        let plain = Self.render([
            Self.cell("Swiped open", traits: traits, decorations: CellDecorations(accessories: [CellAccessory(.disclosureIndicator)])),
            Self.cell("Neighbour", traits: traits, decorations: CellDecorations(accessories: [CellAccessory(.disclosureIndicator)])),
        ], traits: traits)
        #expect(closed.differingPixelCount(to: plain, tolerance: 0) == 0)
    }
}
