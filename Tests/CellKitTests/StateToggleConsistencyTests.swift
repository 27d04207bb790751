import Testing
@testable import CellKit

/// A cell hands back a restyle it made for an equal state when the configuration's restyle is
/// pure, and that must give exactly what restyling every pass gives, through sets, hooks,
/// automatic updates switched off and reuse.
@Suite struct StateToggleConsistencyTests {
    @Test func takenBackRestylesEqualTheFullPass() throws {
        let restyles = [SizingCounter(), SizingCounter()]
        let fast = Cell(appearance: .insetGrouped), full = Cell(appearance: .insetGrouped)
        full.restyleReuse.isEnabled = false
        let cells = [fast, full]
        for (i, cell) in cells.enumerated() { cell.contentConfiguration = PureTintConfiguration(title: "A", restyles: restyles[i]) }
        var records: [[String]] = [[], []]
        var step = 0
        func pass(_ change: (Cell) -> Void) {
            step += 1
            for (i, cell) in cells.enumerated() {
                change(cell)
                let update = cell.updateConfigurationIfNeeded()
                let shown = (cell.contentView?.configuration).map { "\($0.inspectableProperties)" } ?? "no view"
                records[i].append("\(step) \(update.map(RestyleConsistencyTests.describe) ?? "no pass") \(shown)")
            }
        }
        pass { _ in }
        for _ in 0..<3 {
            pass { $0.isHighlighted = true }
            pass { $0.isHighlighted = false }
            pass { $0.isSelected.toggle() }
        }
        pass { $0.traitCollection.userInterfaceStyle = .dark }
        pass { $0.isSelected.toggle() }
        pass { $0.contentConfiguration = try! $0.contentConfiguration!.setting("title", to: .string("B")) }
        pass { $0.isSelected.toggle() }
        pass { $0.isSelected.toggle() }
        pass { $0.contentConfiguration = try! $0.contentConfiguration!.setting("tint", to: .string("locked")) }
        pass { $0.isHighlighted = true }
        pass { $0.isHighlighted = false }
        pass { cell in
            cell.configurationUpdateHandler = { cell, state in
                guard state.isHighlighted, let c = cell.contentConfiguration else { return }
                cell.contentConfiguration = try! c.setting("title", to: .string("Pressed"))
            }
        }
        pass { $0.isHighlighted = true }
        pass { $0.isHighlighted = false }
        pass { $0.isHighlighted = true }
        pass { $0.configurationUpdateHandler = nil; $0.isHighlighted = false }
        pass { $0.automaticallyUpdatesContentConfiguration = false; $0.isSelected.toggle() }
        pass { $0.automaticallyUpdatesContentConfiguration = true; $0.isSelected.toggle() }
        pass { $0.prepareForReuse() }
        for (i, cell) in cells.enumerated() {
            cell.contentConfiguration = PureTintConfiguration(title: "C", restyles: restyles[i])
        }
        pass { $0.isHighlighted = true }
        pass { $0.isHighlighted = false }
        pass { $0.isHighlighted = true }
        #expect(records[0] == records[1])
        #expect(fast.restyleReuse.reusedRestyles >= 10 && full.restyleReuse.reusedRestyles == 0, "the shortcut was taken")
        #expect(restyles[0].calls + fast.restyleReuse.reusedRestyles == restyles[1].calls, "each reuse is one restyle fewer")
    }

    /// A highlight toggled on and off swaps the content view between the two kept restyles:
    /// they are compared once, and each answer still reaches the view.
    @Test func theKeptPairIsComparedOnce() {
        let comparisons = SizingCounter()
        let fast = Cell(appearance: .plain), full = Cell(appearance: .plain)
        full.restyleReuse.isEnabled = false
        var configuration = PureTintConfiguration(title: "A", restyles: SizingCounter())
        configuration.comparisons = comparisons
        for cell in [fast, full] { cell.contentConfiguration = configuration }
        var counts: [Int] = []
        for cell in [fast, full] {
            comparisons.calls = 0
            for _ in 0..<7 {
                cell.updateConfigurationIfNeeded()
                let shown = cell.contentView?.configuration as? PureTintConfiguration
                #expect(shown?.tint == (cell.isHighlighted ? "plain+highlighted" : "plain"))
                cell.isHighlighted.toggle()
            }
            counts.append(comparisons.calls)
        }
        #expect(counts == [1, 6], "the first pass makes the view; then one comparison, not one a pass")
    }

    @Test func aRestyleThatIsNotPureRunsEveryPass() {
        let restyles = SizingCounter()
        let cell = Cell(appearance: .plain)
        var configuration = PureTintConfiguration(title: "A", restyles: restyles)
        configuration.isPure = false
        cell.contentConfiguration = configuration
        for _ in 0..<6 {
            cell.isHighlighted.toggle()
            cell.updateConfigurationIfNeeded()
        }
        #expect(restyles.calls == 7 && cell.restyleReuse.reusedRestyles == 0)
    }
}

/// `tint` names the state's selection and highlight unless set; `title` is a set value. Its
/// restyle is pure unless `isPure` is off (then it claims nothing).
struct PureTintConfiguration: ContentConfigurationFastPaths, Equatable {
    var title: String
    var tint = "none"
    var tintIsSet = false
    var isPure = true
    let restyles: SizingCounter
    /// Counts `isEqual(to:)` calls.
    var comparisons = SizingCounter()

    var typeIdentifier: String { "test.pure-tint" }
    var restyleIsPure: Bool { isPure }
    func makeContentView() -> any ContentView { PureTintView(configuration: self) }

    func updated(for state: any ConfigurationState) -> Self {
        restyles.calls += 1
        var copy = self
        let s = state.cellState
        if !tintIsSet { copy.tint = (s.isSelected ? "selected" : "plain") + (s.isHighlighted ? "+highlighted" : "") }
        return copy
    }

    var inspectableProperties: [InspectableProperty] {
        [InspectableProperty(name: "title", value: .string(title), isCustomized: true),
         InspectableProperty(name: "tint", value: .string(tint), isCustomized: tintIsSet)]
    }

    func isEqual(to other: any ContentConfiguration) -> Bool {
        comparisons.calls += 1
        return (other as? Self) == self
    }

    func setting(_ name: String, to value: PropertyValue) throws(ConfigurationPropertyError) -> Self {
        guard case .string(let text) = value else { throw .invalidValue(property: name, reason: "not a string") }
        var copy = self
        switch name {
        case "title": copy.title = text
        case "tint": copy.tint = text; copy.tintIsSet = true
        default: throw .unknownProperty(name, typeIdentifier: typeIdentifier)
        }
        return copy
    }

    static func == (a: Self, b: Self) -> Bool {
        a.title == b.title && a.tint == b.tint && a.tintIsSet == b.tintIsSet && a.isPure == b.isPure && a.restyles === b.restyles
    }
}

final class PureTintView: ContentView {
    var configuration: any ContentConfiguration
    init(configuration: PureTintConfiguration) { self.configuration = configuration }
    func sizeThatFits(_ targetSize: Size, context: LayoutContext) -> Size { Size(width: targetSize.width, height: 44) }
    func draw(in bounds: Rect, context: LayoutContext, into list: inout DisplayList) {}
}
