import Testing
@testable import CellKit

/// A regular width widens the side margins from 16 to 20 points, as UIKit's system minimum
/// layout margins do: the list content's own margins, the cell's margins (until code sets them),
/// and so where text starts and where the separator begins.
@Suite struct SizeClassMarginsTests {
    let measurer = FixedAdvanceTextMeasurer()
    static let regular = TraitCollection(horizontalSizeClass: .regular)

    @Test func listContentMarginsWidenAtARegularWidth() {
        let compact = ListContentConfiguration.cell().updated(for: CellConfigurationState())
        let wide = ListContentConfiguration.cell().updated(for: CellConfigurationState(traitCollection: Self.regular))
        #expect(compact.directionalLayoutMargins == DirectionalEdgeInsets(top: 11, leading: 16, bottom: 11, trailing: 16))
        #expect(wide.directionalLayoutMargins == DirectionalEdgeInsets(top: 11, leading: 20, bottom: 11, trailing: 20))
        // Margins already wider stay as they are.
        let sidebar = ListContentConfiguration.sidebarHeader().updated(for: CellConfigurationState(traitCollection: Self.regular))
        #expect(sidebar.directionalLayoutMargins.leading == 20)
        // A width change restyles, so a kept restyle is not reused across it.
        #expect(!ListContentConfiguration.statesRestyleAlike(CellConfigurationState(), CellConfigurationState(traitCollection: Self.regular)))
    }

    @Test func aCellsMarginsFollowTheSizeClassUntilCodeSetsThem() {
        let cell = Cell(appearance: .plain)
        #expect(cell.layoutMargins.leading == 16)
        cell.traitCollection = Self.regular
        #expect(cell.layoutMargins.leading == 20 && cell.layoutMargins.trailing == 20)
        cell.traitCollection = .default
        #expect(cell.layoutMargins.leading == 16)
        cell.layoutMargins = DirectionalEdgeInsets(top: 11, leading: 30, bottom: 11, trailing: 30)
        cell.traitCollection = Self.regular
        #expect(cell.layoutMargins.leading == 30, "margins set by code are kept")
    }

    @Test func textAndSeparatorStartFurtherInAtARegularWidth() throws {
        func textStart(_ traits: TraitCollection) throws -> (text: Double, separator: Double) {
            let cell = Cell(appearance: .plain, traits: traits)
            var content = cell.defaultContentConfiguration()
            content.text = "Row"
            cell.contentConfiguration = content
            let height = cell.preferredHeight(forWidth: 700, measurer: measurer)
            var list = DisplayList()
            cell.draw(size: Size(width: 700, height: height), measurer: measurer, into: &list)
            let text = try #require(list.commands.compactMap { if case .text(let run) = $0 { run.frame.minX } else { nil } }.first)
            let separator = try #require(cell.separatorFrame(size: Size(width: 700, height: height), isLastInSection: false,
                                                             context: cell.layoutContext(measurer: measurer)))
            return (text, separator.minX)
        }
        let compact = try textStart(.default), wide = try textStart(Self.regular)
        #expect(compact.text == 16 && compact.separator == 16)
        #expect(wide.text == 20 && wide.separator == 20)
    }
}
