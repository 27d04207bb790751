import Testing
@testable import CellKit

@Suite struct CellUpdateCycleTests {
    let measurer = FixedAdvanceTextMeasurer()

    func sidebarCell() -> Cell {
        let cell = Cell(appearance: .sidebar)
        var content = cell.defaultContentConfiguration()
        content.image = Image(systemName: "star")
        content.text = "Stars"
        cell.contentConfiguration = content
        return cell
    }

    @Test func firstUpdateCreatesTheViewBeforeFirstDisplay() {
        let cell = sidebarCell()
        #expect(cell.contentView == nil && cell.needsUpdateConfiguration)
        var list = DisplayList()
        cell.draw(size: Size(width: 300, height: 51), measurer: measurer, into: &list)
        #expect(cell.lastUpdate?.isFirstUpdate == true)
        #expect(cell.lastUpdate?.viewAction == .created)
        #expect(list.commands.contains { if case .text(let run) = $0 { run.text == "Stars" } else { false } })
    }

    @Test func contentViewIsReusedAcrossStateChanges() throws {
        let cell = sidebarCell()
        cell.updateConfigurationIfNeeded()
        let view = try #require(cell.contentView)
        cell.isSelected = true
        let update = try #require(cell.updateConfigurationIfNeeded())
        #expect(update.viewAction == .reused && update.supportsAnswer == true)
        #expect(cell.contentView === view)
        let applied = try #require(view.configuration as? ListContentConfiguration)
        #expect(applied.textProperties.color == .white)
        #expect(update.previousState?.isSelected == false && update.state.isSelected)
    }

    @Test func contentViewIsReplacedWhenTheConfigurationTypeChanges() throws {
        let cell = sidebarCell()
        cell.updateConfigurationIfNeeded()
        let listView = try #require(cell.contentView)
        cell.contentConfiguration = ForeignConfiguration()
        let update = try #require(cell.updateConfigurationIfNeeded())
        #expect(update.viewAction == .replaced && update.supportsAnswer == false)
        #expect(cell.contentView !== listView && cell.contentView is ForeignView)
        cell.contentConfiguration = nil
        #expect(cell.updateConfigurationIfNeeded()?.viewAction == .removed)
        #expect(cell.contentView == nil)
    }

    @Test func requestsCoalesceIntoOnePassPerPass() {
        let cell = sidebarCell()
        cell.updateConfigurationIfNeeded()
        #expect(cell.updateConfigurationIfNeeded() == nil)
        var handlerRuns = 0
        cell.configurationUpdateHandler = { _, _ in handlerRuns += 1 }  // setting it requests an update
        cell.setNeedsUpdateConfiguration()
        cell.isHighlighted = true
        cell.isHighlighted = false
        cell.isSelected = true
        let update = cell.updateConfigurationIfNeeded()
        #expect(update?.coalescedRequests == 5)
        #expect(handlerRuns == 1)
        #expect(cell.updateConfigurationIfNeeded() == nil)
        cell.isSelected = true  // no change, no request
        #expect(!cell.needsUpdateConfiguration)
    }

    @Test func overrideRunsBeforeTheHandlerAndBothSeeTheNewState() throws {
        let cell = sidebarCell()
        var order: [String] = []
        cell.updateConfigurationOverride = { cell, state in
            order.append("override:\(state.isSelected)")
            var content = cell.defaultContentConfiguration()
            content.text = "Stars"
            if state.isSelected { content.textProperties.color = .systemYellow }
            cell.contentConfiguration = content
        }
        cell.configurationUpdateHandler = { _, state in order.append("handler:\(state.isSelected)") }
        cell.isSelected = true
        let update = try #require(cell.updateConfigurationIfNeeded())
        #expect(order == ["override:true", "handler:true"])
        let changes = update.contentChanges()
        #expect(changes.first { $0.name == "textProperties.color" }?.reason == .setByHook)
        #expect((cell.contentView?.configuration as? ListContentConfiguration)?.textProperties.color == .systemYellow)
    }

    @Test func theRecordExplainsRestyledAndLockedProperties() throws {
        let cell = sidebarCell()
        var content = try #require(cell.contentConfiguration as? ListContentConfiguration)
        content.secondaryTextProperties.color = .systemGreen
        cell.contentConfiguration = content
        cell.updateConfigurationIfNeeded()
        cell.isSelected = true
        let update = try #require(cell.updateConfigurationIfNeeded())
        let changes = update.contentChanges()
        #expect(changes.first { $0.name == "textProperties.color" }?.reason == .restyledByState)
        #expect(changes.first { $0.name == "secondaryTextProperties.color" }?.reason == .lockedKept)
        let background = update.backgroundChanges()
        #expect(background.first { $0.name == "backgroundColor" }?.newValue == PropertyValue.none)  // nil = tint
        #expect(background.first { $0.name == "backgroundColor" }?.reason == .restyledByState)
    }

    @Test func automaticUpdatesCanBeTurnedOff() throws {
        let cell = sidebarCell()
        cell.automaticallyUpdatesContentConfiguration = false
        cell.automaticallyUpdatesBackgroundConfiguration = false
        cell.updateConfigurationIfNeeded()
        cell.isSelected = true
        let update = try #require(cell.updateConfigurationIfNeeded())
        #expect((update.contentAfterUpdate as? ListContentConfiguration)?.textProperties.color == .label)
        #expect(update.backgroundAfterUpdate?.backgroundColor == .clear)
    }

    @Test func backgroundConfigurationAndBackgroundColorAreMutuallyExclusive() {
        let cell = Cell(appearance: .grouped)
        #expect(cell.backgroundConfiguration?.style == .listGroupedCell)
        cell.backgroundColor = .systemRed
        #expect(cell.backgroundConfiguration == nil)
        var list = DisplayList()
        // The last row of a grouped section: no separator, so the fill is all there is.
        cell.draw(size: Size(width: 100, height: 44), measurer: measurer, isLastInSection: true, into: &list)
        #expect(list.commands == [.fill(Rect(x: 0, y: 0, width: 100, height: 44), Color.systemRed.resolved(with: .default))])
        cell.backgroundConfiguration = .listPlainCell()
        #expect(cell.backgroundColor == nil)
    }

    @Test func defaultConfigurationsFollowTheAppearanceAndRole() {
        #expect(Cell(appearance: .plain).defaultContentConfiguration().style == .cell)
        #expect(Cell(appearance: .sidebarPlain).defaultContentConfiguration().style == .sidebarCell)
        #expect(Cell(appearance: .insetGrouped).defaultBackgroundConfiguration().style == .listGroupedCell)
        let header = HeaderFooterView(role: .header, appearance: .insetGrouped)
        #expect(header.defaultContentConfiguration().style == .groupedHeader)
        #expect(HeaderFooterView(role: .footer, appearance: .plain).defaultBackgroundConfiguration().style == .listPlainHeaderFooter)
        #expect(HeaderFooterView(role: .header, appearance: .sidebar).defaultContentConfiguration().style == .sidebarHeader)
        #expect(Cell(appearance: .sidebar).traitCollection.listEnvironment == .sidebar)
    }

    @Test func aConfigurationSetOnASelectedCellArrivesSelected() {
        let cell = Cell(appearance: .sidebar)
        cell.isSelected = true
        cell.contentConfiguration = ListContentConfiguration.sidebarCell()
        #expect((cell.contentConfiguration as? ListContentConfiguration)?.textProperties.color == .white)
    }

    @Test func selfSizingFollowsTheContentAndTraits() {
        let cell = sidebarCell()
        let large = cell.preferredHeight(forWidth: 300, measurer: measurer)
        #expect(large == 11 + 29 + 11)
        cell.traitCollection = TraitCollection(preferredContentSizeCategory: .accessibilityExtraLarge)
        let ax = cell.preferredHeight(forWidth: 300, measurer: measurer)
        #expect(ax > large * 2)
        #expect(cell.lastUpdate?.state.traitCollection.listEnvironment == .sidebar)
    }

    @Test func headerPinnedStateReachesTheBackground() throws {
        let header = HeaderFooterView(role: .header, appearance: .plain)
        var content = header.defaultContentConfiguration()
        content.text = "Section"
        header.contentConfiguration = content
        header.updateConfigurationIfNeeded()
        header.isPinned = true
        let update = try #require(header.updateConfigurationIfNeeded())
        #expect(update.backgroundAfterHooks?.visualEffect == .systemMaterial)
        #expect(update.state.isPinned)
    }

    @Test func prepareForReuseKeepsTheContentViewForTheNextRow() throws {
        let cell = sidebarCell()
        cell.isSelected = true
        cell.updateConfigurationIfNeeded()
        let view = try #require(cell.contentView)
        cell.prepareForReuse()
        #expect(!cell.isSelected && cell.contentConfiguration == nil)
        var next = cell.defaultContentConfiguration()
        next.text = "Next row"
        cell.contentConfiguration = next
        let update = try #require(cell.updateConfigurationIfNeeded())
        #expect(update.isFirstUpdate && update.viewAction == .reused)
        #expect(cell.contentView === view)
    }
}
