import Testing
@testable import CellKit

/// `lastUpdate` is made when asked from what the pass did and the configurations the view still
/// holds; it must name what the pass applied even after the view's configurations moved on.
@Suite struct LastUpdateRecordTests {
    static func cell() -> Cell {
        let cell = Cell(appearance: .insetGrouped)
        var content = cell.defaultContentConfiguration()
        content.text = "Applied"
        cell.contentConfiguration = content
        return cell
    }

    static func text(_ configuration: (any ContentConfiguration)?) -> String? {
        (configuration as? ListContentConfiguration)?.text
    }

    @Test func settersAfterThePassLeaveTheRecordOfWhatItApplied() throws {
        let cell = Self.cell()
        cell.isHighlighted = true
        cell.runPendingUpdate()
        let applied = try #require(cell.lastUpdate)
        var next = cell.defaultContentConfiguration()
        next.text = "Not yet applied"
        cell.contentConfiguration = next
        cell.backgroundColor = .systemRed
        var background = BackgroundConfiguration.listCell()
        background.cornerRadius = 9
        cell.backgroundConfiguration = background
        let record = try #require(cell.lastUpdate)
        #expect(Self.text(record.contentAfterHooks) == "Applied")
        #expect(record.backgroundAfterHooks == applied.backgroundAfterHooks)
        #expect(record.state.isHighlighted && record.isFirstUpdate && record.previousState == nil)
        cell.runPendingUpdate()
        let after = try #require(cell.lastUpdate)
        #expect(Self.text(after.contentAfterHooks) == "Not yet applied")
        #expect(after.backgroundAfterHooks?.cornerRadius == 9)
    }

    @Test func aHookReadsThePreviousPassWhileTheNextOneRestyles() throws {
        let cell = Self.cell()
        cell.runPendingUpdate()
        let first = try #require(cell.lastUpdate)
        let seen = Box()
        cell.configurationUpdateHandler = { cell, _ in
            seen.background = cell.lastUpdate?.backgroundAfterHooks
            seen.highlighted = cell.lastUpdate?.state.isHighlighted
        }
        cell.runPendingUpdate()
        cell.isHighlighted = true
        cell.runPendingUpdate()
        #expect(seen.highlighted == false, "the record is still the previous pass's")
        #expect(seen.background == first.backgroundAfterHooks, "not the background restyled for the highlight")
        #expect(cell.lastUpdate?.backgroundAfterHooks != first.backgroundAfterHooks)
        #expect(cell.lastUpdate?.state.isHighlighted == true)
    }

    @Test func stagesAreRecordedOnlyWhenAskedFor() throws {
        let cell = Self.cell()
        cell.runPendingUpdate()
        cell.isSelected = true
        cell.runPendingUpdate()
        let recorded = try #require(cell.lastUpdate)
        #expect(recorded.backgroundBeforeUpdate != nil && recorded.backgroundAfterUpdate != nil)
        #expect(recorded.backgroundBeforeUpdate != recorded.backgroundAfterUpdate)
        #expect(Self.text(recorded.contentBeforeUpdate) == "Applied")
        cell.recordsConfigurationStages = false
        cell.isSelected = false
        cell.runPendingUpdate()
        let bare = try #require(cell.lastUpdate)
        #expect(bare.contentBeforeUpdate == nil && bare.contentAfterUpdate == nil)
        #expect(bare.backgroundBeforeUpdate == nil && bare.backgroundAfterUpdate == nil)
        #expect(bare.backgroundAfterHooks == cell.backgroundConfiguration)
        cell.prepareForReuse()
        #expect(cell.lastUpdate == nil)
    }

    final class Box: @unchecked Sendable {
        var background: BackgroundConfiguration?
        var highlighted: Bool?
    }
}
