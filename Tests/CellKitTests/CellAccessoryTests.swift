import Testing
@testable import CellKit

/// Accessories and swipe actions around a cell's content view: UIKit's defaults per kind, the
/// content view shrinking and shifting, editing showing and hiding the editing controls, right
/// to left, reserved widths, and open swipe actions sliding the content.
@Suite struct CellAccessoryTests {
    let measurer = FixedAdvanceTextMeasurer()
    let width = 390.0

    func cell(_ accessories: [CellAccessory], traits: TraitCollection = .default, swipe: CellDecorations? = nil) -> Cell {
        let cell = Cell(appearance: .plain, traits: traits)
        var content = cell.defaultContentConfiguration()
        content.text = "Row"
        cell.contentConfiguration = content
        var decorations = swipe ?? CellDecorations()
        decorations.accessories = accessories
        cell.decorations = decorations
        return cell
    }

    func draw(_ cell: Cell) -> DisplayList {
        let height = cell.preferredHeight(forWidth: width, measurer: measurer)
        var list = DisplayList()
        cell.draw(size: Size(width: width, height: height), measurer: measurer, into: &list)
        return list
    }

    func texts(_ list: DisplayList) -> [TextRun] { list.commands.compactMap { if case .text(let t) = $0 { t } else { nil } } }
    /// The symbols drawn visibly (a hidden accessory is recorded transparent).
    func symbols(_ list: DisplayList) -> [(String, Rect, Color)] {
        list.commands.compactMap { if case .symbol(let n, let f, _, _, let c) = $0, c.alpha > 0 { (n, f, c) } else { nil } }
    }
    func separator(_ list: DisplayList) -> Rect? {
        let colour = Color.separator.resolved(with: .default)
        return list.commands.compactMap { if case .fill(let r, colour) = $0 { r } else { nil } }.last
    }

    @Test func kindsHaveUIKitsDefaultPlacementDisplayAndTint() {
        let tint = Color.tintColor
        let expected: [(CellAccessory.Kind, CellAccessory.Placement, CellAccessory.DisplayedState, Color)] = [
            (.disclosureIndicator, .trailing, .always, .tertiaryLabel), (.checkmark, .trailing, .always, tint),
            (.delete, .leading, .whenEditing, .systemRed), (.insert, .leading, .whenEditing, .systemGreen),
            (.reorder, .trailing, .whenEditing, .systemGray), (.outlineDisclosure, .trailing, .always, tint),
            (.detail, .trailing, .always, tint), (.multiselect, .leading, .whenEditing, tint),
            (.label(text: "3"), .trailing, .always, .secondaryLabel),
        ]
        for (kind, placement, displayed, colour) in expected {
            let a = CellAccessory(kind)
            #expect(a.placement == placement, "\(kind)")
            #expect(a.displayed == displayed, "\(kind)")
            #expect(a.resolvedTint(cellTint: tint) == colour, "\(kind)")
        }
        #expect(CellAccessory(.checkmark, tintColor: .systemOrange).resolvedTint(cellTint: tint) == .systemOrange)
    }

    @Test func aTrailingAccessoryNarrowsTheContentAndALeadingOneShiftsTextAndSeparator() throws {
        let plain = draw(cell([]))
        let withDisclosure = draw(cell([CellAccessory(.disclosureIndicator)]))
        let plainText = try #require(texts(plain).first), text = try #require(texts(withDisclosure).first)
        #expect(text.frame.minX == plainText.frame.minX)
        #expect(text.frame.maxX < plainText.frame.maxX)
        let chevron = try #require(symbols(withDisclosure).first)
        #expect(chevron.0 == "chevron.right")
        #expect(text.frame.maxX <= chevron.1.minX)
        // The chevron's ink ends at the trailing layout margin.
        #expect(abs(chevron.1.midX - (width - 16 - 5)) <= 3)

        let editing = cell([CellAccessory(.delete)])
        editing.isEditing = true
        let edited = draw(editing)
        let shifted = try #require(texts(edited).first)
        #expect(shifted.frame.minX == 16 + 22 + 16)
        #expect(try #require(separator(edited)).minX == shifted.frame.minX)
        // The red disc is drawn in the leading margin.
        let disc = edited.commands.compactMap { if case .roundedRect(let r, _, let c) = $0, c == Color.systemRed.resolved(with: .default) { r } else { nil } }
        #expect(disc == [Rect(x: 16, y: (editing.preferredHeight(forWidth: width, measurer: measurer) - 22) / 2, width: 22, height: 22)])
    }

    @Test func editingShowsAndHidesTheEditingControls() {
        let c = cell([CellAccessory(.disclosureIndicator, displayed: .whenNotEditing), CellAccessory(.reorder)])
        #expect(symbols(draw(c)).map(\.0) == ["chevron.right"])
        c.isEditing = true
        let list = draw(c)
        #expect(symbols(list).isEmpty)
        let grey = Color.systemGray.resolved(with: .default)
        let bars = list.commands.filter { if case .roundedRect(_, _, grey) = $0 { true } else { false } }
        #expect(bars.count == 3)
    }

    @Test func rightToLeftMirrorsAccessoriesAndContent() throws {
        var traits = TraitCollection.default
        traits.layoutDirection = .rightToLeft
        let ltr = draw(cell([CellAccessory(.disclosureIndicator), CellAccessory(.label(text: "12"))]))
        let rtl = draw(cell([CellAccessory(.disclosureIndicator), CellAccessory(.label(text: "12"))], traits: traits))
        let l = try #require(symbols(ltr).first), r = try #require(symbols(rtl).first)
        #expect(r.0 == "chevron.left")
        #expect(abs(r.1.midX - (width - l.1.midX)) <= 1)
        let labelL = try #require(texts(ltr).first { $0.text == "12" }), labelR = try #require(texts(rtl).first { $0.text == "12" })
        #expect(labelR.frame.minX == width - labelL.frame.maxX)
    }

    @Test func reservedWidthsLineAccessoriesUp() throws {
        let narrow = draw(cell([CellAccessory(.label(text: "1"), reservedLayoutWidth: .custom(40)), CellAccessory(.disclosureIndicator)]))
        let wide = draw(cell([CellAccessory(.label(text: "1234"), reservedLayoutWidth: .custom(40)), CellAccessory(.disclosureIndicator)]))
        let a = try #require(texts(narrow).first { $0.text == "1" }), b = try #require(texts(wide).first { $0.text == "1234" })
        #expect(abs(a.frame.midX - b.frame.midX) <= 0.5)
        let rowA = try #require(texts(narrow).first { $0.text == "Row" }), rowB = try #require(texts(wide).first { $0.text == "Row" })
        #expect(rowA.frame.maxX == rowB.frame.maxX)
    }

    @Test func theOutlineDisclosurePointsDownWhenExpanded() throws {
        let c = cell([CellAccessory(.outlineDisclosure)])
        #expect(try #require(symbols(draw(c)).first).0 == "chevron.right")
        c.isExpanded = true
        #expect(try #require(symbols(draw(c)).first).0 == "chevron.down")
    }

    @Test func openSwipeActionsSlideTheContentByTheirWidth() throws {
        let actions = CellDecorations(trailingSwipeActions: SwipeActionsConfiguration(actions: [
            SwipeAction(title: "Delete", style: .destructive), SwipeAction(title: "More"),
        ]))
        let closed = cell([CellAccessory(.disclosureIndicator)], swipe: actions)
        let before = try #require(texts(draw(closed)).first)
        var open = actions
        open.openSwipeEdge = .trailing
        let swiped = cell([CellAccessory(.disclosureIndicator)], swipe: open)
        let list = draw(swiped)
        let fills = list.commands.compactMap { c -> (Rect, Color)? in if case .fill(let r, let colour) = c, r.height > 1 { (r, colour) } else { nil } }
        let red = Color.systemRed.resolved(with: .default), gray = Color.systemGray.resolved(with: .default)
        let buttons = fills.filter { $0.1 == red || $0.1 == gray }
        #expect(buttons.map(\.1) == [red, gray])
        let delete = buttons[0].0, more = buttons[1].0
        #expect(delete.maxX == width)
        #expect(more.maxX == delete.minX)
        #expect(delete.width >= 74 && more.width >= 74)
        let total = delete.width + more.width
        let after = try #require(texts(list).first { $0.text == "Row" })
        #expect(after.frame.minX == before.frame.minX - total)
        let titles = texts(list).filter { $0.color == .white }.map(\.text)
        #expect(titles == ["Delete", "More"])
    }

    @Test func anUndecoratedCellRecordsWhatItDidBefore() {
        let a = Cell(appearance: .plain)
        var content = a.defaultContentConfiguration()
        content.text = "Row"
        a.contentConfiguration = content
        let b = cell([])
        #expect(!b.hasDecorations)
        #expect(draw(a) == draw(b))
    }
}

extension CellAccessoryTests {
    @Test func anItemWithChildrenGetsAnOutlineDisclosureOnlyWithoutAccessoriesOfItsOwn() {
        #expect(CellDecorations().withDefaultOutlineDisclosure().accessories == [CellAccessory(.outlineDisclosure)])
        let own = CellDecorations(accessories: [CellAccessory(.checkmark)])
        #expect(own.withDefaultOutlineDisclosure() == own)
    }
}

extension CellAccessoryTests {
    /// Accessories and swipe images grow with the text size (capped), as UIKit's symbols do.
    @Test func accessoriesAndSwipeImagesScaleWithTheTextSize() throws {
        func drawn(_ size: ContentSizeCategory) throws -> (disc: Rect, image: Rect) {
            var traits = TraitCollection.default
            traits.preferredContentSizeCategory = size
            let c = cell([CellAccessory(.delete)], traits: traits, swipe: CellDecorations(
                trailingSwipeActions: SwipeActionsConfiguration(actions: [SwipeAction(title: "Delete", image: Image(systemName: "trash"))]),
                openSwipeEdge: .trailing))
            c.isEditing = true
            let list = draw(c)
            let disc = try #require(list.commands.compactMap { if case .roundedRect(let r, _, _) = $0, r.width == r.height { r } else { nil } }.first)
            let image = try #require(symbols(list).first { $0.0 == "trash" }).1
            return (disc, image)
        }
        let large = try drawn(.large), huge = try drawn(.accessibilityExtraExtraExtraLarge)
        #expect(large.disc.width == 22 && large.image.width == 22)
        #expect(huge.disc.width == 44 && huge.image.width == 44, "scaled, and capped at twice the standard size")
    }
}

extension CellAccessoryTests {
    /// On a selected sidebar cell's tint fill the content turns white, and so do accessories
    /// with their default tint; an explicit tint and the editing controls keep their colours.
    @Test func aSelectedSidebarCellDrawsDefaultTintedAccessoriesInWhite() throws {
        let traits = TraitCollection(listEnvironment: .sidebar)
        let c = Cell(appearance: .sidebar, traits: traits)
        var content = c.defaultContentConfiguration()
        content.text = "Row"
        c.contentConfiguration = content
        c.decorations = CellDecorations(accessories: [CellAccessory(.outlineDisclosure), CellAccessory(.checkmark, tintColor: .systemOrange)])
        func colours() -> [Color] { symbols(draw(c)).map(\.2) }
        let resolvedTraits = c.traitCollection
        #expect(colours() == [Color.tintColor.resolved(with: resolvedTraits), Color.systemOrange.resolved(with: resolvedTraits)])
        c.isSelected = true
        #expect(colours() == [.white, Color.systemOrange.resolved(with: resolvedTraits)])
    }
}

extension CellAccessoryTests {
    /// Editing and not editing record the same commands, the hidden accessories transparent in
    /// place: an animated editing change then moves the text and fades the controls command by
    /// command (the engine's interpolation), rather than cross-fading two whole rows.
    @Test func editingRecordsTheSameCommandsWithTheHiddenControlsTransparent() throws {
        let c = cell([CellAccessory(.delete), CellAccessory(.disclosureIndicator, displayed: .whenNotEditing), CellAccessory(.reorder)])
        let before = draw(c)
        c.isEditing = true
        let after = draw(c)
        func kind(_ command: DisplayCommand) -> String { String("\(command)".prefix { $0 != "(" }) }
        #expect(before.commands.map(kind) == after.commands.map(kind))
        let red = Color.systemRed.resolved(with: .default)
        let discs = { (list: DisplayList) in
            list.commands.compactMap { if case .roundedRect(let r, _, let colour) = $0, colour.red == red.red, r.width == r.height { (r, colour.alpha) } else { nil } }
        }
        let hiddenDisc = try #require(discs(before).first), shownDisc = try #require(discs(after).first)
        #expect(hiddenDisc.1 == 0 && shownDisc.1 == 1)
        #expect(hiddenDisc.0 == shownDisc.0, "a hidden control waits where it will show")
        let textBefore = try #require(texts(before).first), textAfter = try #require(texts(after).first)
        #expect(textAfter.frame.minX > textBefore.frame.minX)
    }
}
