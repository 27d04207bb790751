import Testing
@testable import CellKit

/// `UIListSeparatorConfiguration` on a cell: each hairline's visibility, insets and colour.
@Suite struct ListSeparatorConfigurationTests {
    let measurer = FixedAdvanceTextMeasurer()

    func cell(_ configure: (inout ListSeparatorConfiguration) -> Void, traits: TraitCollection = .default) -> Cell {
        let cell = Cell(appearance: .plain, traits: traits)
        var content = cell.defaultContentConfiguration()
        content.text = "Row"
        cell.contentConfiguration = content
        configure(&cell.separatorConfiguration)
        return cell
    }

    /// Every fill in `color` (resolved for the default traits): the hairlines drawn in it.
    func lines(_ cell: Cell, _ color: Color, width: Double = 390) -> [Rect] {
        let height = cell.preferredHeight(forWidth: width, measurer: measurer)
        var list = DisplayList()
        cell.draw(size: Size(width: width, height: height), measurer: measurer, into: &list)
        let resolved = color.resolved(with: cell.traitCollection)
        return list.commands.compactMap { if case .fill(let r, resolved) = $0 { r } else { nil } }
    }

    @Test func defaultsDrawTheBottomHairlineFromTheTextAsBefore() {
        #expect(lines(cell { _ in }, .separator) == [Rect(x: 16, y: 43.5, width: 374, height: 0.5)])
    }

    @Test func visibilityInsetsAndColourApplyToEachEdge() {
        let c = cell {
            $0.topSeparatorVisibility = .visible
            $0.topSeparatorInsets = .init(leading: 0, trailing: 0)
            $0.bottomSeparatorInsets = .init(leading: 40, trailing: 20)
            $0.color = .systemRed
        }
        #expect(lines(c, .systemRed) == [Rect(x: 0, y: 0, width: 390, height: 0.5), Rect(x: 40, y: 43.5, width: 330, height: 0.5)])
        #expect(lines(cell { $0.bottomSeparatorVisibility = .hidden }, .separator).isEmpty)
        #expect(lines(cell { $0.bottomSeparatorInsets = .init(trailing: 16) }, .separator)
                == [Rect(x: 16, y: 43.5, width: 358, height: 0.5)], "an automatic leading edge still follows the text")
    }

    @Test func rightToLeftMirrorsTheInsets() {
        var traits = TraitCollection.default
        traits.layoutDirection = .rightToLeft
        let c = cell({ $0.bottomSeparatorInsets = .init(leading: 40, trailing: 20) }, traits: traits)
        #expect(lines(c, .separator) == [Rect(x: 20, y: 43.5, width: 330, height: 0.5)])
    }

    @Test func aSelectedCellUsesTheMultipleSelectionColourAndRedrawsForIt() throws {
        let c = cell { $0.multipleSelectionColor = .systemBlue }
        let size = Size(width: 390, height: c.preferredHeight(forWidth: 390, measurer: measurer))
        var list = DisplayList()
        c.draw(size: size, measurer: measurer, into: &list)
        c.isSelected = true
        c.updateConfigurationIfNeeded()
        #expect(c.redrawBackground(size: size, measurer: measurer, updating: &list) == nil,
                "the separator colour changes with the selection: not a background-only redraw")
        #expect(lines(c, .systemBlue).count == 1 && lines(c, .separator).isEmpty)
        #expect(c.separatorConfiguration.description == "selected systemBlue #007AFF/#0A84FF")
    }
}
