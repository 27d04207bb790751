import Testing
@testable import CellKit

@Suite struct ConfigurationStateNamingTests {
    @Test func aNormalStateHasNoActiveFlags() {
        #expect(CellConfigurationState().activeFlagNames.isEmpty)
    }

    @Test func activeFlagsAreNamedInDeclarationOrderWithDragAndDropValues() {
        let state = CellConfigurationState(isHighlighted: true, isSelected: true, isReordering: true,
                                           cellDragState: .lifting, cellDropState: .targeted)
        #expect(state.activeFlagNames == ["highlighted", "selected", "reordering", "drag=lifting", "drop=targeted"])
    }

    @Test func customStatesAreLeftToTheCaller() {
        let state = CellConfigurationState(isDisabled: true, customStates: ["urgent": .bool(true)])
        #expect(state.activeFlagNames == ["disabled"])
    }
}
