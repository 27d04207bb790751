import Testing
@testable import CellKit

/// A trace reports a pass through `reportableLists`, which reads equal stages once and only the
/// customised properties when the three stages are one configuration: what it reports must be
/// exactly what every stage read in full reports, and the customised read must be the
/// customised part of the full read.
struct TracedPropertyListsTests {
    private static func contentStages() -> [ListContentConfiguration] {
        var plain = ListContentConfiguration.cell()
        plain.text = "Inbox"
        var locked = ListContentConfiguration.subtitleCell()
        locked.text = "Stars"
        locked.textProperties.color = .systemOrange
        locked.imageProperties.tintColor = .systemPink
        locked.secondaryText = "12"
        return [ListContentConfiguration.cell(), plain, locked]
    }

    private static func backgrounds() -> [BackgroundConfiguration] {
        var rounded = BackgroundConfiguration.listGroupedCell()
        rounded.cornerRadius = 6
        rounded.shadowProperties.opacity = 0.3
        return [BackgroundConfiguration.listGroupedCell(), rounded]
    }

    @Test func customisedPropertiesAreTheCustomisedPartOfEveryProperty() {
        for content in Self.contentStages() {
            #expect(content.customizedProperties == content.inspectableProperties.filter(\.isCustomized))
        }
        for background in Self.backgrounds() {
            #expect(background.customizedProperties == background.inspectableProperties.filter(\.isCustomized))
        }
        #expect(Self.contentStages()[2].customizedProperties.count == 4)
    }

    @Test func aPassReportsTheSameChangesFromEitherLists() {
        let states = [CellConfigurationState(), CellConfigurationState(isHighlighted: true),
                      CellConfigurationState(isSelected: true), CellConfigurationState(isDisabled: true)]
        // What an event set is customised by the set: the names come from the customised ones.
        func eventSets(_ customised: [InspectableProperty]) -> [Set<String>] {
            [[], Set(customised.prefix(1).map(\.name)), Set(customised.map(\.name))]
        }
        func full(_ stages: [[InspectableProperty]?]) -> PropertyChange.PropertyLists {
            (stages[0] ?? [], stages[1] ?? [], stages[2] ?? [])
        }
        func same(_ full: PropertyChange.PropertyLists, _ reportable: PropertyChange.PropertyLists, _ set: Set<String>) -> Bool {
            PropertyChange.changes(before: full.before, afterUpdate: full.afterUpdate, afterHooks: full.afterHooks,
                                   setByEvent: set, includingUnchanged: false)
                == PropertyChange.changes(before: reportable.before, afterUpdate: reportable.afterUpdate,
                                          afterHooks: reportable.afterHooks, setByEvent: set, includingUnchanged: false)
        }
        for state in states {
            for content in Self.contentStages() {
                let restyled = content.updated(for: state)
                var hooked = restyled
                hooked.secondaryText = "set by a hook"
                let stageSets: [(ListContentConfiguration?, ListContentConfiguration?, ListContentConfiguration?)] = [
                    (content, content, content), (content, restyled, restyled), (content, content, hooked), (content, nil, nil),
                ]
                for (b, u, h) in stageSets {
                    for set in eventSets(content.customizedProperties) {
                        #expect(same(full([b, u, h].map { $0?.inspectableProperties }),
                                     PropertyChange.reportableLists(before: b, afterUpdate: u, afterHooks: h), set))
                    }
                }
            }
            for background in Self.backgrounds() {
                let restyled = background.updated(for: state)
                for (b, u, h) in [(background, background, background), (background, restyled, restyled)] {
                    for set in eventSets(background.customizedProperties) {
                        #expect(same(full([b, u, h].map { $0.inspectableProperties }),
                                     PropertyChange.reportableLists(before: b, afterUpdate: u, afterHooks: h), set))
                    }
                }
            }
        }
    }

    @Test func equalStagesAreReadForTheirCustomisedPropertiesOnly() {
        let locked = Self.contentStages()[2]
        let lists = PropertyChange.reportableLists(before: locked, afterUpdate: locked, afterHooks: locked)
        #expect(lists.before == locked.customizedProperties && lists.afterHooks == locked.customizedProperties)
        #expect(lists.before.count < locked.inspectableProperties.count)
    }

    /// Passes in a row, each starting from the last one's final stage (or from a value an event
    /// changed): with a carried read, each pass gets the lists it gets without one, and a
    /// "before" stage that is the last final stage takes that stage's list instead of a new read.
    @Test func aCarriedReadGivesTheSameListsAndSavesTheBeforeRead() {
        // Text sizes restyle the content, highlight and selection the background.
        func state(_ size: ContentSizeCategory, highlighted: Bool = false, selected: Bool = false) -> CellConfigurationState {
            var s = CellConfigurationState(isHighlighted: highlighted, isSelected: selected)
            s.traitCollection.preferredContentSizeCategory = size
            return s
        }
        let states = [state(.large, highlighted: true), state(.extraLarge), state(.small, selected: true),
                      state(.small, selected: true), state(.accessibilityLarge), state(.large, highlighted: true)]
        let eventSetsBefore = 4
        func storage(_ list: [InspectableProperty]) -> UnsafePointer<InspectableProperty>? {
            list.withUnsafeBufferPointer { $0.baseAddress }
        }
        let contentRead = RecentFullReads<any ContentConfiguration>(), backgroundRead = RecentFullReads<BackgroundConfiguration>()
        var content = Self.contentStages()[1]
        var background = Self.backgrounds()[1]
        var lastFinal: (content: [InspectableProperty]?, background: [InspectableProperty]?)
        var carriedReads = (content: 0, background: 0)
        for (i, state) in states.enumerated() {
            let eventSet = i == eventSetsBefore
            if eventSet {  // an event sets a property: the "before" stage is not the last final stage
                content.secondaryText = "changed"
                background.cornerRadius = 9
            }
            let (restyled, restyledBackground) = (content.updated(for: state), background.updated(for: state))
            let carried = PropertyChange.reportableLists(before: content, afterUpdate: restyled, afterHooks: restyled,
                                                         recent: contentRead)
            let fresh = PropertyChange.reportableLists(before: content, afterUpdate: restyled, afterHooks: restyled)
            #expect(carried.before == fresh.before && carried.afterUpdate == fresh.afterUpdate && carried.afterHooks == fresh.afterHooks)
            let carriedBackground = PropertyChange.reportableLists(before: background, afterUpdate: restyledBackground,
                                                                   afterHooks: restyledBackground, recent: backgroundRead)
            let freshBackground = PropertyChange.reportableLists(before: background, afterUpdate: restyledBackground,
                                                                 afterHooks: restyledBackground)
            #expect(carriedBackground.before == freshBackground.before && carriedBackground.afterHooks == freshBackground.afterHooks)
            // Only a restyled stage is read in full; three equal stages are read for their customised properties.
            if restyled != content {
                if let last = lastFinal.content {
                    #expect((storage(carried.before) == storage(last)) == !eventSet, "pass \(i)")
                    if !eventSet { carriedReads.content += 1 }
                }
                lastFinal.content = carried.afterHooks
            }
            if restyledBackground != background {
                if let last = lastFinal.background {
                    #expect((storage(carriedBackground.before) == storage(last)) == !eventSet, "pass \(i)")
                    if !eventSet { carriedReads.background += 1 }
                }
                lastFinal.background = carriedBackground.afterHooks
            }
            (content, background) = (restyled, restyledBackground)
        }
        #expect(carriedReads.content >= 2 && carriedReads.background >= 2, "\(carriedReads)")
    }

    /// A highlight toggled on and off restyles the background back to the look of two passes
    /// ago: that stage takes the list read then. No more than two reads are kept.
    @Test func aToggledStateTakesTheListOfTwoPassesAgo() {
        let recent = RecentFullReads<BackgroundConfiguration>()
        var background = Self.backgrounds()[1]
        var finals: [[InspectableProperty]] = []
        for pass in 0..<6 {
            let restyled = background.updated(for: CellConfigurationState(isHighlighted: pass % 2 == 0))
            let lists = PropertyChange.reportableLists(before: background, afterUpdate: restyled, afterHooks: restyled, recent: recent)
            let fresh = PropertyChange.reportableLists(before: background, afterUpdate: restyled, afterHooks: restyled)
            #expect(lists.before == fresh.before && lists.afterUpdate == fresh.afterUpdate && lists.afterHooks == fresh.afterHooks)
            #expect(restyled != background, "every pass restyles")
            if pass >= 2 {
                #expect(lists.afterUpdate.sharesStorage(with: finals[pass - 2]), "pass \(pass) read its restyled stage again")
            }
            if pass >= 1 { #expect(lists.before.sharesStorage(with: finals[pass - 1])) }
            #expect(recent.count <= RecentFullReads<BackgroundConfiguration>.capacity)
            finals.append(lists.afterHooks)
            background = restyled
        }
        // A third look is read, and pushes out the oldest.
        var rounded = background
        rounded.cornerRadius = 20
        let third = PropertyChange.reportableLists(before: background, afterUpdate: rounded, afterHooks: rounded, recent: recent)
        #expect(!third.afterHooks.sharesStorage(with: finals[4]) && !third.afterHooks.sharesStorage(with: finals[5]))
        #expect(recent.count == 2 && recent.list(matching: rounded, same: ==) != nil)
        #expect(recent.list(matching: background, same: ==) != nil)
    }
}
