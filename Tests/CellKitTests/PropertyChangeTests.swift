import Testing
@testable import CellKit

@Suite struct PropertyChangeTests {
    @Test func eachPropertySaysWhyItChangedOrStayed() throws {
        var before = ListContentConfiguration.sidebarCell()
        before.text = "Stars"
        before.secondaryTextProperties.color = .systemOrange
        let state = CellConfigurationState(isSelected: true)
        let afterUpdate = before.updated(for: state)
        var afterHooks = afterUpdate
        afterHooks.imageProperties.tintColor = .systemYellow
        let changes = PropertyChange.changes(before: before.inspectableProperties, afterUpdate: afterUpdate.inspectableProperties,
                                             afterHooks: afterHooks.inspectableProperties, setByEvent: ["text"])
        func change(_ name: String) -> PropertyChange? { changes.first { $0.name == name } }
        #expect(change("textProperties.color")?.reason == .restyledByState)
        #expect(change("textProperties.color")?.oldValue == .color(.label))
        #expect(change("textProperties.color")?.newValue == .color(.white))
        #expect(change("secondaryTextProperties.color")?.reason == .lockedKept)
        #expect(change("imageProperties.tintColor")?.reason == .setByHook)
        #expect(change("text")?.reason == .setByEvent)
        #expect(change("alpha")?.reason == .unchanged)
        #expect(changes.count == afterHooks.inspectableProperties.count)
    }

    @Test func configurationsOfDifferentTypesAreMatchedByName() {
        let list = ListContentConfiguration.cell().inspectableProperties
        let background = BackgroundConfiguration.clear().inspectableProperties
        let changes = PropertyChange.changes(before: list, afterUpdate: list, afterHooks: background)
        let shared = Set(list.map(\.name)).intersection(background.map(\.name))
        #expect(shared == ["image"])
        #expect(changes.count == list.count + background.count - shared.count)
        #expect(changes.filter { !shared.contains($0.name) }.allSatisfy { $0.reason == .setByHook })
        #expect(changes.first { $0.name == "textProperties.font" }?.newValue == PropertyValue.none)
    }
}
