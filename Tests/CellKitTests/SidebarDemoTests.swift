import Testing
@testable import CellKit

/// The WWDC20 "Modern cell configuration" demo: one sidebar cell configuration in seven states
/// shows seven different appearances, from the default configurations alone.
@Suite struct SidebarDemoTests {
    static let states: [(String, CellConfigurationState)] = [
        ("normal", CellConfigurationState()),
        ("highlighted", CellConfigurationState(isHighlighted: true)),
        ("selected", CellConfigurationState(isSelected: true)),
        ("highlighted+selected", CellConfigurationState(isHighlighted: true, isSelected: true)),
        ("disabled", CellConfigurationState(isDisabled: true)),
        ("disabled+selected", CellConfigurationState(isSelected: true, isDisabled: true)),
        ("drop target", CellConfigurationState(cellDropState: .targeted)),
    ]

    struct Appearance: Hashable {
        var background: Color
        var text: Color
    }

    func appearances(_ traits: TraitCollection) -> [Appearance] {
        var content = ListContentConfiguration.sidebarCell()
        content.image = Image(systemName: "star")
        content.text = "Stars"
        let background = BackgroundConfiguration.listSidebarCell()
        return Self.states.map { _, state in
            var state = state
            state.traitCollection = traits
            let c = content.updated(for: state), b = background.updated(for: state)
            return Appearance(background: b.resolvedBackgroundColor(for: .tintColor).resolved(with: traits),
                              text: c.textProperties.resolvedColor().resolved(with: traits))
        }
    }

    @Test func sevenStatesResolveToSevenDistinctAppearances() {
        for traits in [TraitCollection.default, TraitCollection(userInterfaceStyle: .dark)] {
            let all = appearances(traits)
            #expect(Set(all).count == 7, "\(traits.userInterfaceStyle): \(all)")
        }
    }

    @Test func selectionFillsWithTheTintAndTurnsTextWhite() {
        let all = appearances(.default)
        #expect(all[2] == Appearance(background: Color.tintColor.resolved(with: .default), text: Color.white))
        #expect(all[0].background.alpha == 0)
    }
}
