import Testing
@testable import CellKit

/// `PropertyChange.changes` skips comparing the values of a stage whose list is the previous
/// stage's (what `reportableLists` hands out for equal stages); the changes must be those of
/// equal lists in storage of their own.
@Suite struct UnchangedStageReportTests {
    static func copy(_ list: [InspectableProperty]) -> [InspectableProperty] { list.map { $0 } }

    @Test(arguments: [false, true])
    func sharedListsGiveTheChangesOfSeparateEqualLists(customised: Bool) {
        var content = ListContentConfiguration.sidebarCell()
        content.text = "Stars"
        if customised { content.textProperties.color = .systemOrange }
        var background = BackgroundConfiguration.listGroupedCell()
        if customised { background.cornerRadius = 6 }
        let states = [CellConfigurationState(), CellConfigurationState(isHighlighted: true),
                      CellConfigurationState(isSelected: true), CellConfigurationState(isDisabled: true)]
        for state in states {
            var hooked = content.updated(for: state)
            hooked.secondaryText = "set by a hook"
            let lists: [([InspectableProperty], [InspectableProperty], [InspectableProperty])] = [
                { let l = content.inspectableProperties; return (l, l, l) }(),
                { let l = content.inspectableProperties; return (l, content.updated(for: state).inspectableProperties, l) }(),
                { let l = content.inspectableProperties, u = content.updated(for: state).inspectableProperties; return (l, u, u) }(),
                { let l = content.inspectableProperties; return (l, l, hooked.inspectableProperties) }(),
                { let l = background.inspectableProperties, u = background.updated(for: state).inspectableProperties; return (l, u, u) }(),
                { let l = background.inspectableProperties; return (l, l, l) }(),
            ]
            for (before, afterUpdate, afterHooks) in lists {
                for setByEvent: Set<String> in [[], ["text", "backgroundColor"]] {
                    for includingUnchanged in [true, false] {
                        let shared = PropertyChange.changes(before: before, afterUpdate: afterUpdate, afterHooks: afterHooks,
                                                            setByEvent: setByEvent, includingUnchanged: includingUnchanged)
                        let separate = PropertyChange.changes(before: Self.copy(before), afterUpdate: Self.copy(afterUpdate),
                                                              afterHooks: Self.copy(afterHooks), setByEvent: setByEvent,
                                                              includingUnchanged: includingUnchanged)
                        #expect(shared == separate, "state \(state), set \(setByEvent)")
                    }
                }
            }
        }
    }

    @Test func equalStagesShareOneList() {
        let content = ListContentConfiguration.cell()
        var hooked = content
        hooked.secondaryText = "set by a hook"
        let lists = PropertyChange.reportableLists(before: content, afterUpdate: hooked, afterHooks: hooked)
        func base(_ list: [InspectableProperty]) -> UnsafePointer<InspectableProperty>? { list.withUnsafeBufferPointer { $0.baseAddress } }
        #expect(base(lists.afterUpdate) == base(lists.afterHooks))
        #expect(base(lists.before) != base(lists.afterUpdate))
        #expect(lists.before == content.inspectableProperties && lists.afterHooks == hooked.inspectableProperties)
    }
}
