import Synchronization
import Testing
@testable import CellKit

/// `runPendingUpdate()` is the pass `updateConfigurationIfNeeded()` runs, leaving its record in
/// `lastUpdate`; the background is restyled in place, as `updated(for:)` restyles a copy.
@Suite struct PendingUpdateTests {
    /// States a cell goes through: highlight, selection, disabling, a drop target, a drag, traits.
    static let steps: [@Sendable (inout CellConfigurationState) -> Void] = [
        { $0.isHighlighted = true }, { $0.isHighlighted = false }, { $0.isSelected = true },
        { $0.isHighlighted = true }, { $0.isDisabled = true }, { $0.cellDropState = .targeted },
        { $0.cellDropState = .none; $0.cellDragState = .lifting }, { $0.traitCollection.userInterfaceStyle = .dark },
        { $0 = CellConfigurationState(traitCollection: $0.traitCollection) },
    ]

    static func cell(_ appearance: ListAppearance, customised: Bool) -> Cell {
        let cell = Cell(appearance: appearance)
        var content = cell.defaultContentConfiguration()
        content.text = "Row"
        cell.contentConfiguration = content
        var background = cell.defaultBackgroundConfiguration()
        if customised { background.cornerRadius = 4 }
        cell.backgroundConfiguration = background
        return cell
    }

    @Test(arguments: [ListAppearance.plain, .insetGrouped, .sidebar], [false, true])
    func bothEntriesRunTheSamePass(appearance: ListAppearance, customised: Bool) throws {
        let returning = Self.cell(appearance, customised: customised)
        let leaving = Self.cell(appearance, customised: customised)
        // The background as set, restyled by value for every state: what the in-place restyle must give.
        let background = try #require(returning.backgroundConfiguration)
        for step in Self.steps {
            returning.mutateInputs(step)
            leaving.mutateInputs(step)
            let record = try #require(returning.updateConfigurationIfNeeded())
            let outcome = try #require(leaving.runPendingUpdate())
            let kept = try #require(leaving.lastUpdate)
            #expect(outcome == .init(supportsAnswer: record.supportsAnswer, viewAction: record.viewAction))
            #expect(kept.supportsAnswer == record.supportsAnswer && kept.viewAction == record.viewAction)
            #expect(kept.state == record.state && kept.previousState == record.previousState)
            #expect(kept.backgroundAfterHooks == record.backgroundAfterHooks)
            #expect(kept.backgroundAfterUpdate == record.backgroundAfterUpdate)
            #expect(kept.backgroundAfterHooks == background.updated(for: record.state))
            let content = try #require(kept.contentAfterHooks)
            #expect(record.contentAfterHooks?.isEqual(to: content) == true)
            #expect(leaving.runPendingUpdate() == nil, "nothing pending after the pass")
            #expect(returning.updateConfigurationIfNeeded() == nil)
        }
    }

    @Test func theContentTypeIdentifierFollowsTheStoredConfiguration() {
        let cell = Self.cell(.plain, customised: false)
        #expect(cell.contentTypeIdentifier == "com.cellhost.list-content")
        cell.mutateInputs { $0.isHighlighted = true }
        cell.runPendingUpdate()
        #expect(cell.contentTypeIdentifier == "com.cellhost.list-content")
        cell.contentConfiguration = ForeignConfiguration()
        #expect(cell.contentTypeIdentifier == "test.foreign")
        cell.runPendingUpdate()
        #expect(cell.contentTypeIdentifier == "test.foreign")
        cell.contentConfiguration = nil
        #expect(cell.contentTypeIdentifier == nil)
        cell.contentConfiguration = ListContentConfiguration.cell()
        #expect(cell.contentTypeIdentifier == "com.cellhost.list-content")
    }

    /// A restyle returns the same type, so passes that restyle do not ask the configuration for
    /// its identifier again; setting a value does.
    @Test func theTypeIdentifierIsReadOncePerValueSet() {
        let reads = IdentifierReadCount()
        let cell = Cell(appearance: .insetGrouped)
        cell.contentConfiguration = IdentifierCountingConfiguration(reads: reads, restyledFor: false)
        #expect(cell.contentTypeIdentifier == "test.counting")
        #expect(reads.count == 1)
        for highlighted in [true, false, true] {
            cell.mutateInputs { $0.isHighlighted = highlighted }
            cell.runPendingUpdate()
            #expect(cell.contentTypeIdentifier == "test.counting")
        }
        #expect(reads.count == 1, "three restyles, no new read")
        cell.contentConfiguration = IdentifierCountingConfiguration(reads: reads, restyledFor: false)
        #expect(cell.contentTypeIdentifier == "test.counting")
        #expect(reads.count == 2, "a value set is read anew")
    }

    /// Taking a row's flags keeps the view's traits, and requests a pass only when a flag or
    /// custom state really changed.
    @Test func takingFlagsKeepsTraitsAndRequestsOnlyRealChanges() throws {
        let cell = Self.cell(.insetGrouped, customised: false)
        cell.traitCollection = cell.traitCollection.with(\.userInterfaceStyle, .dark)
        _ = cell.runPendingUpdate()
        var flags = CellConfigurationState()
        flags.isSelected = true
        flags[ConfigurationStateCustomKey("urgent")] = .bool(true)
        cell.takeFlags(of: flags)
        let state = cell.configurationState
        #expect(state.isSelected && state[ConfigurationStateCustomKey("urgent")] == .bool(true))
        #expect(state.traitCollection.userInterfaceStyle == .dark, "the flags' default traits are not taken")
        #expect(cell.runPendingUpdate() != nil)
        cell.takeFlags(of: flags)
        #expect(cell.runPendingUpdate() == nil, "the same flags again request nothing")
    }
}

/// Counts how often its configurations were asked for their type identifier.
final class IdentifierReadCount: Sendable {
    private let reads = Mutex(0)
    var count: Int { reads.withLock { $0 } }
    func note() { reads.withLock { $0 += 1 } }
}

/// A configuration whose restyle really changes it (it records the highlight), counting reads
/// of its identifier.
struct IdentifierCountingConfiguration: ContentConfiguration, Equatable, PropertyInspectable {
    let reads: IdentifierReadCount
    var restyledFor: Bool
    var typeIdentifier: String {
        reads.note()
        return "test.counting"
    }
    func makeContentView() -> any ContentView { ForeignView(configuration: ForeignConfiguration()) }
    func updated(for state: any ConfigurationState) -> Self {
        var copy = self
        copy.restyledFor = state.cellState.isHighlighted
        return copy
    }
    static func == (a: Self, b: Self) -> Bool { a.reads === b.reads && a.restyledFor == b.restyledFor }
    static let propertyTable = PropertyTable<IdentifierCountingConfiguration>([])
}
