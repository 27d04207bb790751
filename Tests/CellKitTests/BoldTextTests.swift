import Testing
@testable import CellKit

/// Bold Text (`legibilityWeight` bold) draws the system text styles of list content one weight
/// heavier; fonts the code chose stay as chosen.
@Suite struct BoldTextTests {
    static let bold = CellConfigurationState(traitCollection: TraitCollection(legibilityWeight: .bold))

    @Test func textStylesTakeTheNextHeavierWeight() {
        let regular = ListContentConfiguration.subtitleCell().updated(for: CellConfigurationState())
        let heavier = ListContentConfiguration.subtitleCell().updated(for: Self.bold)
        #expect(regular.textProperties.font.weight == .regular && heavier.textProperties.font.weight == .semibold)
        #expect(heavier.secondaryTextProperties.font.weight == .semibold)
        #expect(heavier.textProperties.font.pointSize == regular.textProperties.font.pointSize, "only the weight changes")
        let header = ListContentConfiguration.sidebarHeader().updated(for: Self.bold)
        #expect(header.textProperties.font.weight == .bold, "a semibold style becomes bold")
        #expect(!ListContentConfiguration.statesRestyleAlike(CellConfigurationState(), Self.bold))
    }

    @Test func aFontSetByCodeStaysAsSet() {
        var c = ListContentConfiguration.cell()
        c.textProperties.font = Font(pointSize: 20, weight: .regular)
        #expect(c.updated(for: Self.bold).textProperties.font.weight == .regular)
    }
}
