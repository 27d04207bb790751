import Testing
@testable import CellKit

/// `indentationLevel` × `indentationWidth` moves a cell's content and separator from the leading
/// edge, as UIKit's list cells in an outline; the background keeps the cell's full width.
@Suite struct IndentationTests {
    let measurer = FixedAdvanceTextMeasurer()

    func cell(level: Int, width: Double = ConfigurableViewIndentation.defaultWidth, traits: TraitCollection = .default) -> Cell {
        let cell = Cell(appearance: .plain, traits: traits)
        var content = cell.defaultContentConfiguration()
        content.text = "Row"
        cell.contentConfiguration = content
        cell.indentationLevel = level
        cell.indentationWidth = width
        return cell
    }

    func draw(_ cell: Cell, width: Double = 390) -> DisplayList {
        let height = cell.preferredHeight(forWidth: width, measurer: measurer)
        var list = DisplayList()
        cell.draw(size: Size(width: width, height: height), measurer: measurer, into: &list)
        return list
    }

    func textFrame(_ list: DisplayList) -> Rect? {
        list.commands.lazy.compactMap { if case .text(let run) = $0 { run.frame } else { nil } }.first
    }

    func separator(_ list: DisplayList, traits: TraitCollection = .default) -> Rect? {
        let colour = Color.separator.resolved(with: traits)
        return list.commands.compactMap { if case .fill(let r, colour) = $0 { r } else { nil } }.first
    }

    @Test func eachLevelMovesTextAndSeparatorByTheIndentationWidth() throws {
        let flat = draw(cell(level: 0)), indented = draw(cell(level: 2))
        let text0 = try #require(textFrame(flat)), text2 = try #require(textFrame(indented))
        #expect(text2.minX - text0.minX == 20)
        let line0 = try #require(separator(flat)), line2 = try #require(separator(indented))
        #expect(line2.minX - line0.minX == 20)
        #expect(line2.maxX == 390, "the separator still runs to the trailing edge")
        #expect(draw(cell(level: 3, width: 16)).commands.contains {
            if case .text(let run) = $0 { run.frame.minX == text0.minX + 48 } else { false }
        }, "indentationWidth sets the step")
    }

    @Test func rightToLeftIndentsFromTheRight() throws {
        var traits = TraitCollection.default
        traits.layoutDirection = .rightToLeft
        let flat = draw(cell(level: 0, traits: traits)), indented = draw(cell(level: 2, traits: traits))
        let text0 = try #require(textFrame(flat)), text2 = try #require(textFrame(indented))
        #expect(text0.maxX - text2.maxX == 20)
        let line0 = try #require(separator(flat, traits: traits)), line2 = try #require(separator(indented, traits: traits))
        #expect(line2.minX == 0 && line0.width - line2.width == 20)
    }

    @Test func aChangedLevelIsDrawnAfreshAndReuseResetsIt() throws {
        let c = cell(level: 0)
        let size = Size(width: 390, height: c.preferredHeight(forWidth: 390, measurer: measurer))
        var list = DisplayList()
        c.draw(size: size, measurer: measurer, into: &list)
        #expect(c.redrawBackground(size: size, measurer: measurer, updating: &list) == false,
                "unchanged, only the background would be re-recorded")
        c.indentationLevel = 1
        #expect(c.redrawBackground(size: size, measurer: measurer, updating: &list) == nil,
                "a new indentation re-records the whole row, not just its background")
        c.prepareForReuse()
        #expect(c.indentationLevel == 0)
    }
}
