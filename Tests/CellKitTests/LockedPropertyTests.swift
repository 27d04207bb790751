import Testing
@testable import CellKit

@Suite struct LockedPropertyTests {
    @Test func aValueSetByTheUserIsMarkedCustomized() {
        var config = ListContentConfiguration.cell()
        #expect(!config.textProperties.$color.isCustomized)
        config.textProperties.color = .systemRed
        #expect(config.textProperties.$color.isCustomized)
        #expect(!config.secondaryTextProperties.$color.isCustomized)
    }

    @Test func aValueEqualToTheDefaultStaysLockedOnceSet() {
        var config = ListContentConfiguration.sidebarCell()
        config.textProperties.color = .label  // the normal-state default, set explicitly
        let selected = config.updated(for: CellConfigurationState(isSelected: true))
        #expect(selected.textProperties.color == .label)
        #expect(ListContentConfiguration.sidebarCell().updated(for: CellConfigurationState(isSelected: true))
            .textProperties.color == .white)
    }

    @Test func customizedTextColourSurvivesHighlightAndSelection() {
        var config = ListContentConfiguration.sidebarCell()
        config.textProperties.color = .systemPink
        for state in [CellConfigurationState(isHighlighted: true), CellConfigurationState(isSelected: true),
                      CellConfigurationState(isHighlighted: true, isSelected: true), CellConfigurationState(isDisabled: true)] {
            let updated = config.updated(for: state)
            #expect(updated.textProperties.resolvedColor() == .systemPink)
            #expect(updated.textProperties.$color.isCustomized)
        }
        // The properties left alone still follow the state.
        #expect(config.updated(for: CellConfigurationState(isSelected: true)).imageProperties.tintColor == .white)
    }

    @Test func updatedForStateNeverMutatesTheOriginal() {
        let original = ListContentConfiguration.sidebarCell()
        let copy = original
        _ = original.updated(for: CellConfigurationState(isSelected: true))
        #expect(original == copy)
        let background = BackgroundConfiguration.listSidebarCell()
        _ = background.updated(for: CellConfigurationState(isSelected: true))
        #expect(background == BackgroundConfiguration.listSidebarCell())
    }

    @Test func restyleSkipsCustomizedValuesAndAdjustKeepsTheFlag() {
        var value = Customizable(wrappedValue: 1.0)
        value.restyle(2)
        #expect(value.value == 2 && !value.isCustomized)
        value.wrappedValue = 3
        value.restyle(4)
        #expect(value.value == 3 && value.isCustomized)
        value.adjust(5)
        #expect(value.value == 5 && value.isCustomized)
    }

    @Test func customizedBackgroundColourSurvivesEveryState() {
        var background = BackgroundConfiguration.listPlainCell()
        background.backgroundColor = .systemYellow
        let highlighted = background.updated(for: CellConfigurationState(isHighlighted: true))
        #expect(highlighted.backgroundColor == .systemYellow)
        #expect(BackgroundConfiguration.listPlainCell().updated(for: CellConfigurationState(isHighlighted: true))
            .backgroundColor == .systemGray4)
    }
}
