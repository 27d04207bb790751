import Testing
@testable import CellKit

/// A cell keeps a content configuration it already restyled for a state that restyles alike, and
/// a list content view appends its last recording while nothing it draws from changed. Both
/// shortcuts must give exactly what restyling, comparing and recording anew give.
@Suite struct RestyleConsistencyTests {
    let measurer = FixedAdvanceTextMeasurer()

    /// Flags and traits each style reacts to, or not, one at a time and together.
    static let states: [CellConfigurationState] = {
        var states: [CellConfigurationState] = [CellConfigurationState()]
        var s = CellConfigurationState()
        s.isHighlighted = true; states.append(s)
        s.isSelected = true; states.append(s)
        s.isHighlighted = false; states.append(s)
        s.isDisabled = true; states.append(s)
        s = CellConfigurationState(); s.isFocused = true; states.append(s)
        s = CellConfigurationState(); s.isEditing = true; s.isSwiped = true; states.append(s)
        s = CellConfigurationState(); s.cellDragState = .lifting; s.cellDropState = .targeted; states.append(s)
        s = CellConfigurationState(); s.traitCollection.userInterfaceStyle = .dark; states.append(s)
        s = CellConfigurationState(); s.traitCollection.preferredContentSizeCategory = .accessibilityLarge; states.append(s)
        s = CellConfigurationState(); s.traitCollection.listEnvironment = .sidebar; states.append(s)
        s.isSelected = true; states.append(s)
        s = CellConfigurationState(); s.traitCollection.listEnvironment = .insetGrouped; s.isHighlighted = true
        states.append(s)
        return states
    }()

    /// Every style, plain and with customised properties (a locked colour, a customised font that
    /// keeps following Dynamic Type, one that does not).
    static let configurations: [ListContentConfiguration] = ListContentConfiguration.Style.allCases.flatMap { style in
        var plain = ListContentConfiguration(styleName: style.rawValue)!
        plain.text = "Title"
        plain.secondaryText = "Detail"
        plain.image = Image(systemName: "star")
        var custom = plain
        custom.textProperties.color = .systemRed
        custom.secondaryTextProperties.font = .preferredFont(forTextStyle: .caption1)
        custom.imageProperties.tintColor = .systemGreen
        var fixed = plain
        fixed.textProperties.adjustsFontForContentSizeCategory = false
        fixed.textProperties.font = .systemFont(ofSize: 21)
        return [plain, custom, fixed]
    }

    @Test func statesThatRestyleAlikeGiveTheSameConfigurationAndRestylingTwiceIsOnce() {
        var alikePairs = 0
        for configuration in Self.configurations {
            for a in Self.states {
                let once = configuration.updated(for: a)
                #expect(once.updated(for: a) == once, "restyling twice for one state is restyling once")
                for b in Self.states where configuration.restylesAlike(a, b) {
                    alikePairs += 1
                    #expect(once.updated(for: b) == once, "\(configuration.style): \(a) and \(b) restyle alike")
                    #expect(configuration.updated(for: b) == once)
                }
            }
        }
        #expect(alikePairs > Self.configurations.count * Self.states.count, "some different states restyle alike")
        var highlighted = CellConfigurationState()
        highlighted.isHighlighted = true
        #expect(ListContentConfiguration.cell().restylesAlike(CellConfigurationState(), highlighted))
        var selected = CellConfigurationState()
        selected.isSelected = true
        #expect(!ListContentConfiguration.cell().restylesAlike(CellConfigurationState(), selected))
        #expect(!CountedConfiguration(height: 1, counter: SizingCounter()).restylesAlike(highlighted, highlighted),
                "a type that does not say otherwise always restyles")
    }

    /// Two cells run the same passes, one keeping restyled configurations and skipping the
    /// comparison, one restyling and comparing every time: every record, height and drawing agree.
    @Test func keptRestylesEqualTheFullPass() throws {
        for (n, configuration) in Self.configurations.enumerated() where n % 2 == 0 {
            let fast = Cell(appearance: .insetGrouped), full = Cell(appearance: .insetGrouped)
            full.restyleReuse.isEnabled = false
            let cells = [fast, full]
            for cell in cells { cell.contentConfiguration = configuration }
            var records: [[String]] = [[], []]
            var step = 0
            func pass(_ change: (Cell) -> Void) throws {
                step += 1
                for (i, cell) in cells.enumerated() {
                    change(cell)
                    let update = cell.updateConfigurationIfNeeded()
                    let height = cell.preferredHeight(forWidth: 320, measurer: measurer)
                    var drawing = DisplayList()
                    cell.draw(size: Size(width: 320, height: height), measurer: measurer, into: &drawing)
                    records[i].append("\(step) \(update.map(Self.describe) ?? "no pass") \(height) \(drawing)")
                }
            }
            try pass { _ in }
            for state in Self.states {
                try pass { $0.mutateInputs { s in s = state } }
                try pass { $0.isHighlighted.toggle() }
            }
            try pass { $0.traitCollection.preferredContentSizeCategory = .extraLarge }
            try pass { $0.isHighlighted = true }
            try pass { cell in
                cell.contentConfiguration = try! cell.contentConfiguration!.setting("text", to: .string("Changed"))
            }
            try pass { $0.isHighlighted = false }
            try pass { cell in
                cell.configurationUpdateHandler = { cell, state in
                    guard state.isHighlighted, var c = cell.contentConfiguration as? ListContentConfiguration else { return }
                    c.secondaryText = "Pressed"
                    cell.contentConfiguration = c
                }
            }
            try pass { $0.isHighlighted = true }
            try pass { $0.isHighlighted = false }
            try pass { $0.automaticallyUpdatesContentConfiguration = false; $0.isSelected = true }
            try pass { $0.automaticallyUpdatesContentConfiguration = true; $0.isSelected = false }
            try pass { $0.prepareForReuse() }
            try pass { $0.contentConfiguration = configuration }
            try pass { $0.isHighlighted = true }
            #expect(records[0] == records[1], "\(configuration.style)")
            #expect(fast.restyleReuse.keptRestyles > 10 && full.restyleReuse.keptRestyles == 0, "the shortcut was taken")
        }
    }

    static func describe(_ u: ConfigurationUpdate<CellConfigurationState>) -> String {
        func props(_ c: (any ContentConfiguration)?) -> String {
            c.map { "\($0.inspectableProperties)" } ?? "nil"
        }
        return "\(u.viewAction) \(String(describing: u.supportsAnswer)) \(u.coalescedRequests) "
            + "\(props(u.contentBeforeUpdate)) \(props(u.contentAfterUpdate)) \(props(u.contentAfterHooks)) "
            + "\(String(describing: u.backgroundAfterHooks))"
    }

    /// A view that drew before appends what a fresh view with the same configuration records,
    /// after every change of what the drawing depends on.
    @Test func aKeptRecordingEqualsAFreshOne() {
        let view = ListContentView(configuration: Self.configurations[0])
        func expectFresh(_ bounds: Rect, _ context: LayoutContext, _ note: String) {
            var kept = DisplayList([.fill(Rect(x: 0, y: 0, width: 1, height: 1), .black)])
            view.draw(in: bounds, context: context, into: &kept)
            var fresh = DisplayList([.fill(Rect(x: 0, y: 0, width: 1, height: 1), .black)])
            ListContentView(configuration: view.listConfiguration).draw(in: bounds, context: context, into: &fresh)
            #expect(kept == fresh, "\(note)")
        }
        var context = LayoutContext(traits: .default, textMeasurer: measurer)
        let bounds = Rect(x: 0, y: 0, width: 320, height: 60)
        expectFresh(bounds, context, "first drawing")
        expectFresh(bounds, context, "the same drawing again")
        expectFresh(Rect(x: 4, y: 2, width: 320, height: 80), context, "moved and taller bounds")
        expectFresh(Rect(x: 0, y: 0, width: 200, height: 60), context, "narrower bounds")
        context.traits.userInterfaceStyle = .dark
        expectFresh(bounds, context, "dark mode")
        context.tintColor = .systemRed
        expectFresh(bounds, context, "another tint")
        context.superviewLayoutMargins = DirectionalEdgeInsets(top: 0, leading: 40, bottom: 0, trailing: 40)
        expectFresh(bounds, context, "wider margins")
        var changed = view.listConfiguration
        changed.text = "Another title"
        view.apply(changed)
        expectFresh(bounds, context, "a new configuration")
    }

    /// Colours keep their variants outside the value: equality, hashing and changes behave as
    /// they did with the variants stored inline.
    @Test func colourVariantsBehaveAsValues() {
        let a = Color(name: "x", light: RGBA(red: 1, green: 0, blue: 0), dark: RGBA(red: 0, green: 0, blue: 1))
        let b = Color(name: "x", light: RGBA(red: 1, green: 0, blue: 0), dark: RGBA(red: 0, green: 0, blue: 1))
        #expect(a == b && a.hashValue == b.hashValue && a.isDynamic)
        var c = a
        c.dark = nil
        #expect(!c.isDynamic && c != a && a.dark == RGBA(red: 0, green: 0, blue: 1), "a copy changes alone")
        #expect(c == { var s = Color(red: 1, green: 0, blue: 0); s.name = "x"; return s }())
        c.darkHighContrast = RGBA(red: 0, green: 1, blue: 0)
        #expect(c.isDynamic && c.dark == nil && c.darkHighContrast == RGBA(red: 0, green: 1, blue: 0))
        let dark = TraitCollection(userInterfaceStyle: .dark)
        var high = dark
        high.accessibilityContrast = .high
        #expect(c.resolved(with: high).light == RGBA(red: 0, green: 1, blue: 0))
        #expect(c.resolved(with: dark).light == RGBA(red: 1, green: 0, blue: 0))
        let faded = Color.systemBlue.withAlphaComponent(0.5)
        #expect(faded.name == nil && faded.light.alpha == 0.5 && faded.dark?.alpha == 0.5
            && faded.lightHighContrast?.alpha == 0.5 && faded.darkHighContrast?.alpha == 0.5)
        #expect(faded.darkHighContrast?.red == Color.systemBlue.darkHighContrast?.red)
        #expect(Set([a, b, c]).count == 2)
    }
}

/// A cell that keeps no configuration stages applies, draws and reports what one that keeps
/// them does; only the stages before the pass and after `updated(for:)` are left out.
@Suite struct ConfigurationStageTests {
    @Test func withoutStagesOnlyTheStagesAreMissing() {
        let measurer = FixedAdvanceTextMeasurer()
        let kept = Cell(appearance: .insetGrouped), bare = Cell(appearance: .insetGrouped)
        bare.recordsConfigurationStages = false
        var content = ListContentConfiguration.subtitleCell()
        content.text = "Title"
        content.secondaryText = "Detail"
        for cell in [kept, bare] { cell.contentConfiguration = content }
        for change: (Cell) -> Void in [{ _ in }, { $0.isHighlighted = true }, { $0.isSelected = true },
                                       { $0.isHighlighted = false }, { $0.contentConfiguration = ListContentConfiguration.valueCell() }] {
            var updates: [ConfigurationUpdate<CellConfigurationState>] = []
            var drawings: [DisplayList] = []
            for cell in [kept, bare] {
                change(cell)
                guard let update = cell.updateConfigurationIfNeeded() else { Issue.record("no pass"); return }
                updates.append(update)
                var list = DisplayList()
                cell.draw(size: Size(width: 320, height: cell.preferredHeight(forWidth: 320, measurer: measurer)),
                          measurer: measurer, into: &list)
                drawings.append(list)
            }
            let (a, b) = (updates[0], updates[1])
            #expect(a.contentBeforeUpdate != nil && a.contentAfterUpdate != nil && a.backgroundAfterUpdate != nil)
            #expect(b.contentBeforeUpdate == nil && b.contentAfterUpdate == nil)
            #expect(b.backgroundBeforeUpdate == nil && b.backgroundAfterUpdate == nil)
            #expect(a.contentAfterHooks.map { "\($0.inspectableProperties)" } == b.contentAfterHooks.map { "\($0.inspectableProperties)" })
            #expect(a.backgroundAfterHooks == b.backgroundAfterHooks)
            #expect(a.viewAction == b.viewAction && a.supportsAnswer == b.supportsAnswer && a.state == b.state)
            #expect(drawings[0] == drawings[1])
        }
    }
}

/// Property tables read stored properties at their offsets: every built-in table's paths are
/// stored, and what a read at an offset gives is what the key path gives.
@Suite struct PropertyOffsetReadTests {
    @Test func everyBuiltInPropertyIsReadAtItsOffsetAsTheKeyPathReadsIt() throws {
        #expect(ListContentConfiguration.propertyTable.descriptors.allSatisfy { $0.lens.storedOffset != nil })
        #expect(BackgroundConfiguration.propertyTable.descriptors.allSatisfy { $0.lens.storedOffset != nil })
        var content = ListContentConfiguration.subtitleCell()
        content.text = "Title"
        content.secondaryTextProperties.color = .systemRed
        content.imageProperties.tintColor = .systemGreen
        content.textProperties.numberOfLines = 3
        content.alpha = 0.5
        for d in ListContentConfiguration.propertyTable.descriptors {
            let viaOffset = d.read(content)
            let fresh = try ListContentConfiguration.subtitleCell().setting(d.name, to: viaOffset.value)
            #expect(fresh.inspectableProperty(named: d.name)?.value == viaOffset.value, "\(d.name)")
        }
        let props = Dictionary(uniqueKeysWithValues: content.inspectableProperties.map { ($0.name, $0) })
        #expect(props["text"]?.value == .string("Title") && props["text"]?.isCustomized == true)
        #expect(props["secondaryTextProperties.color"]?.value == .color(.systemRed))
        #expect(props["secondaryTextProperties.color"]?.isCustomized == true)
        #expect(props["textProperties.color"]?.isCustomized == false)
        #expect(props["imageProperties.tintColor"]?.value == .color(.systemGreen))
        #expect(props["textProperties.numberOfLines"]?.value == .int(3))
        #expect(props["alpha"]?.value == .double(0.5))
        var background = BackgroundConfiguration.listGroupedCell()
        background.cornerRadius = 8
        background.shadowProperties.radius = 4
        let b = Dictionary(uniqueKeysWithValues: background.inspectableProperties.map { ($0.name, $0) })
        #expect(b["cornerRadius"]?.value == .double(8) && b["cornerRadius"]?.isCustomized == true)
        #expect(b["shadowProperties.radius"]?.value == .double(4) && b["strokeWidth"]?.isCustomized == false)
        #expect(b["backgroundColor"]?.value == .color(.secondarySystemGroupedBackground))
    }

    /// A table whose path goes through a computed property: no offset, so the key path reads it.
    struct ThroughComputed: PropertyInspectable, Equatable {
        var storage = Customizable(wrappedValue: 2.0)
        var label = Customizable<String?>(wrappedValue: nil)
        var computed: Customizable<Double> {
            get { storage }
            set { storage = newValue }
        }
        static let propertyTable = PropertyTable<ThroughComputed>([
            PropertyDescriptor("computed", \ThroughComputed.computed),
            PropertyDescriptor("label", \ThroughComputed.label),
        ])
        var typeIdentifier: String { "test.throughComputed" }
    }

    @Test func aComputedPathIsReadThroughItsKeyPath() throws {
        let descriptors = ThroughComputed.propertyTable.descriptors
        #expect(descriptors[0].lens.storedOffset == nil && descriptors[1].lens.storedOffset != nil)
        var value = ThroughComputed()
        #expect(value.inspectableProperties == [InspectableProperty(name: "computed", value: .double(2), isCustomized: false),
                                                InspectableProperty(name: "label", value: .none, isCustomized: false)])
        value = try value.setting("computed", to: .double(5)).setting("label", to: .string("Five"))
        #expect(value.inspectableProperties == [InspectableProperty(name: "computed", value: .double(5), isCustomized: true),
                                                InspectableProperty(name: "label", value: .string("Five"), isCustomized: true)])
    }
}

/// Leaving out unchanged properties leaves out exactly those: the reported changes, their order
/// and reasons are the full diff's, for lists of one type and of two.
@Suite struct ReportedChangeTests {
    @Test func changesWithoutUnchangedAreTheFullDiffFiltered() throws {
        var before = ListContentConfiguration.sidebarCell()
        before.text = "Title"
        before.textProperties.numberOfLines = 2
        var selected = CellConfigurationState()
        selected.isSelected = true
        let afterUpdate = before.updated(for: selected)
        var afterHooks = afterUpdate
        afterHooks.secondaryText = "Set by a hook"
        let lists = [before.inspectableProperties, afterUpdate.inspectableProperties, afterHooks.inspectableProperties]
        let other = BackgroundConfiguration.listSidebarCell().inspectableProperties
        for (b, u, h) in [(lists[0], lists[1], lists[2]), (lists[0], lists[0], lists[0]), (lists[0], lists[1], other),
                          (other, lists[1], lists[2])] {
            for setByEvent: Set<String> in [[], ["text"], ["textProperties.color", "cornerRadius"]] {
                let full = PropertyChange.changes(before: b, afterUpdate: u, afterHooks: h, setByEvent: setByEvent)
                let reported = PropertyChange.changes(before: b, afterUpdate: u, afterHooks: h, setByEvent: setByEvent,
                                                      includingUnchanged: false)
                #expect(reported == full.filter { $0.reason != .unchanged })
            }
        }
        let reported = PropertyChange.changes(before: lists[0], afterUpdate: lists[1], afterHooks: lists[2],
                                              includingUnchanged: false)
        #expect(reported.contains { $0.name == "textProperties.color" && $0.reason == .restyledByState })
        #expect(reported.contains { $0.name == "secondaryText" && $0.reason == .setByHook })
        #expect(reported.contains { $0.name == "text" && $0.reason == .lockedKept })
    }
}
