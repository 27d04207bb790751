import Testing
@testable import CellKit

@Suite struct SeparatorTests {
    let measurer = FixedAdvanceTextMeasurer()

    /// Fills in the separator colour for `traits`: what a row records for its hairline.
    func separators(in list: DisplayList, traits: TraitCollection = .default) -> [Rect] {
        let colour = Color.separator.resolved(with: traits)
        return list.commands.compactMap { if case .fill(let r, colour) = $0 { r } else { nil } }
    }

    func cell(_ appearance: ListAppearance, image: Bool = false, traits: TraitCollection = .default) -> Cell {
        let cell = Cell(appearance: appearance, traits: traits)
        var content = cell.defaultContentConfiguration()
        content.text = "Row"
        if image { content.image = Image(systemName: "star") }
        cell.contentConfiguration = content
        return cell
    }

    func draw(_ cell: Cell, lastInSection: Bool = false, width: Double = 390) -> DisplayList {
        let height = cell.preferredHeight(forWidth: width, measurer: measurer)
        var list = DisplayList()
        cell.draw(size: Size(width: width, height: height), measurer: measurer, isLastInSection: lastInSection, into: &list)
        return list
    }

    @Test func aPlainRowEndsInAOnePixelHairlineFromItsTextToItsTrailingEdge() throws {
        let list = draw(cell(.plain))
        let line = try #require(separators(in: list).first)
        #expect(separators(in: list).count == 1)
        #expect(line == Rect(x: 16, y: 44 - 0.5, width: 390 - 16, height: 0.5))
        // Drawn last, over the background.
        if case .fill(let r, _) = try #require(list.commands.last) { #expect(r == line) } else { Issue.record("separator is not the last command") }
    }

    @Test func theHairlineIsOnePixelAtEveryScale() throws {
        for scale in [1.0, 2, 3] {
            var traits = TraitCollection.default
            traits.displayScale = scale
            let line = try #require(separators(in: draw(cell(.grouped, traits: traits)), traits: traits).first)
            #expect(line.height * scale == 1)
            #expect(line.maxY == 44)
        }
    }

    @Test func withAnImageTheSeparatorStartsAtTheTextNotTheImage() throws {
        let c = cell(.insetGrouped, image: true)
        let list = draw(c, width: 350)
        let line = try #require(separators(in: list).first)
        let layout = try #require(c.contentView as? ListContentView)
            .layout(width: 350, context: c.layoutContext(measurer: measurer))
        let text = try #require(layout.textFrame), image = try #require(layout.imageFrame)
        #expect(line.minX == text.minX)
        #expect(line.minX > image.maxX)
        #expect(line.maxX == 350)
    }

    @Test func rightToLeftTheSeparatorRunsFromTheLeftEdgeToTheText() throws {
        var traits = TraitCollection.default
        traits.layoutDirection = .rightToLeft
        let c = cell(.plain, image: true, traits: traits)
        let line = try #require(separators(in: draw(c), traits: traits).first)
        let text = try #require((c.contentView as? ListContentView)?
            .layout(width: 390, context: c.layoutContext(measurer: measurer)).textFrame)
        #expect(line.minX == 0)
        #expect(line.maxX == text.maxX)
    }

    @Test func groupedSectionsEndWithoutASeparatorPlainOnesKeepIt() {
        #expect(separators(in: draw(cell(.grouped), lastInSection: true)).isEmpty)
        #expect(separators(in: draw(cell(.insetGrouped), lastInSection: true)).isEmpty)
        #expect(separators(in: draw(cell(.plain), lastInSection: true)).count == 1)
        #expect(separators(in: draw(cell(.grouped), lastInSection: false)).count == 1)
    }

    @Test func sidebarsHeadersAndFootersDrawNone() {
        #expect(separators(in: draw(cell(.sidebar))).isEmpty)
        #expect(separators(in: draw(cell(.sidebarPlain))).isEmpty)
        for role in [ConfigurableViewRole.header, .footer] {
            let view = HeaderFooterView(role: role, appearance: .plain)
            var content = view.defaultContentConfiguration()
            content.text = "Section"
            view.contentConfiguration = content
            var list = DisplayList()
            view.draw(size: Size(width: 390, height: view.preferredHeight(forWidth: 390, measurer: measurer)),
                      measurer: measurer, into: &list)
            #expect(separators(in: list).isEmpty)
        }
    }

    @Test func aCellCanHideOrForceItsSeparatorUntilReused() {
        let c = cell(.grouped)
        c.bottomSeparatorVisibility = .hidden
        #expect(separators(in: draw(c)).isEmpty)
        c.bottomSeparatorVisibility = .visible
        #expect(separators(in: draw(c, lastInSection: true)).count == 1)
        c.bottomSeparatorVisibility = .hidden
        c.prepareForReuse()
        #expect(c.bottomSeparatorVisibility == .automatic)
    }

    @Test func darkModeResolvesTheSeparatorColour() throws {
        var dark = TraitCollection.default
        dark.userInterfaceStyle = .dark
        let light = try #require(separators(in: draw(cell(.plain))).first)
        let darkLine = try #require(separators(in: draw(cell(.plain, traits: dark)), traits: dark).first)
        #expect(light == darkLine)
        #expect(Color.separator.resolved(with: dark) != Color.separator.resolved(with: .default))
    }

    @Test func aListDrawsNoSeparatorUnderTheLastRowOfAGroupedSection() throws {
        let list = ListView.itemsWithHeader(3, appearance: .grouped, viewport: 800, measurer: measurer)
        list.layoutVisibleRows()
        let counts = try (0..<3).map { try separators(in: #require(list.draw(.item(ListIndexPath(section: 0, item: $0))))).count }
        #expect(counts == [1, 1, 0])
        #expect(try separators(in: #require(list.draw(.header(section: 0)))).isEmpty)
    }
}
