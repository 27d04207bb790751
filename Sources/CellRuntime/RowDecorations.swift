import CellKit

/// A row's accessories and swipe actions as the engine keeps them for the whole run (the view
/// that shows them comes and goes with scrolling), and what the row's next update record says
/// about them: which accessories showed and why, and which swipe edge opened or closed. Rows
/// without any keep none of this (`EngineRow.decorationState` stays nil).
final class RowDecorations {
    var decorations: CellDecorations
    /// The accessories traced last (descriptions); nil before the row's first trace.
    private var lastShown: [String]?
    private var lastEditing = false
    private var lastExpanded = false
    /// What this pass changed, for the "why".
    private var accessoriesWereSet = false
    private var swipeNote: String?

    /// `tracedState`: the state the row was last traced in (without accessories), so what
    /// shows next is news of an event, not of the first display.
    init(_ decorations: CellDecorations, tracedState: CellConfigurationState? = nil) {
        self.decorations = decorations
        if let tracedState {
            lastShown = []
            lastEditing = tracedState.isEditing
            lastExpanded = tracedState.isExpanded
        }
    }

    /// As after a traced pass in `state` (a released row made again): what shows next is news
    /// only when it differs from what showed then.
    func restoreTraced(_ state: CellConfigurationState) {
        lastShown = decorations.shownAccessories(editing: state.isEditing).map(\.description)
        lastEditing = state.isEditing
        lastExpanded = state.isExpanded
    }

    var isSwipeOpen: Bool { decorations.openSwipeEdge != .none }

    func setAccessories(_ accessories: [CellAccessory]) {
        decorations.accessories = accessories
        accessoriesWereSet = true
    }

    /// Opens `edge`'s actions (`none` closes); `how` says why a close happened ("tap"). A
    /// `full` swipe performs the first action when the edge's configuration says so
    /// (`performsFirstActionWithFullSwipe`), else it opens the actions as a partial one does.
    func openSwipe(_ edge: SwipeEdge, full: Bool = false, how: String? = nil) {
        let performs = full && decorations.swipeConfiguration(for: edge)?.performsFirstActionWithFullSwipe == true
        guard edge != decorations.openSwipeEdge || performs != decorations.isFullSwipe else { return }
        decorations.openSwipeEdge = edge
        decorations.isFullSwipe = performs
        let actions = decorations.swipeActions(for: edge).map { $0.title ?? "\($0.image.map { "\($0)" } ?? "")" }
        if edge == .none {
            swipeNote = "closed" + (how.map { " (\($0))" } ?? "")
        } else if performs, let first = decorations.swipeActions(for: edge).first {
            swipeNote = "\(edge.rawValue) full swipe performed \(actions[0])" + (first.style == .destructive ? " (destructive)" : "")
        } else {
            swipeNote = "\(edge.rawValue) actions open" + (full ? " (full swipe; performsFirstActionWithFullSwipe is false)" : "")
                + ": " + actions.joined(separator: ", ")
        }
    }

    /// The update record's words for the pass that brought the row to `state`: the accessories
    /// shown, when they (or the outline disclosure's direction) changed, and the swipe change.
    func traceWords(for state: CellConfigurationState) -> (accessories: String?, swipe: String?) {
        defer {
            accessoriesWereSet = false
            swipeNote = nil
            lastEditing = state.isEditing
            lastExpanded = state.isExpanded
        }
        let shown = decorations.shownAccessories(editing: state.isEditing)
        let names = shown.map(\.description)
        let rotates = shown.contains { $0.kind == .outlineDisclosure } && lastShown != nil && lastExpanded != state.isExpanded
        var accessoriesText: String?
        if names != lastShown || accessoriesWereSet || rotates {
            var reasons: [String] = []
            if lastShown == nil { reasons.append("first display") }
            if accessoriesWereSet { reasons.append("accessories set") }
            if lastShown != nil && lastEditing != state.isEditing { reasons.append("editing changed") }
            if rotates { reasons.append("expanded changed") }
            let hidden = (lastShown ?? []).filter { !names.contains($0) }
            var text = names.isEmpty ? "none shown" : "shown: " + names.joined(separator: ", ")
            if !hidden.isEmpty { text += "; hidden: " + hidden.joined(separator: ", ") }
            if !reasons.isEmpty { text += " (" + reasons.joined(separator: ", ") + ")" }
            accessoriesText = text
        }
        lastShown = names
        return (accessoriesText, swipeNote)
    }
}

extension EngineRow {
    /// Gives the row's view its decorations (a view from the pool has none).
    func attachDecorations() {
        guard let decorationState, case .cell(let c) = view else { return }
        c.decorations = decorationState.decorations
    }

    /// A cell event's new accessories and swipe edge: kept on the row, shown by its view in the
    /// next pass (whose record says what changed). A swipe sets the cell's `swiped` state.
    func applyDecorationChanges(accessories: [CellAccessory]?, swipe: SwipeEdge?, fullSwipe: Bool = false) throws(EngineError) {
        let state = decorationState ?? RowDecorations(CellDecorations(), tracedState: lastState)
        if let accessories { state.setAccessories(accessories) }
        if let swipe {
            guard swipe == .none || !state.decorations.swipeActions(for: swipe).isEmpty else {
                throw EngineError("\(name) has no \(swipe.rawValue) swipe actions; give its item \"swipeActions\": {\"\(swipe.rawValue)\": [{\"title\": …}]}")
            }
            state.openSwipe(swipe, full: fullSwipe)
            applyState(StateChange(swiped: swipe != .none))
        }
        decorationState = state
        dataChanged = true
        attachDecorations()
        setNeedsUpdateConfiguration()
    }

    /// A touch (highlight or selection) on a cell whose swipe actions are open closes them, and
    /// does nothing else, as in UIKit: the state change without those flags.
    func tapClosingSwipe(_ change: StateChange) -> StateChange {
        guard change.highlighted == true || change.selected == true, let decorationState else { return change }
        var rest = change
        rest.highlighted = nil
        rest.selected = nil
        rest.swiped = false
        decorationState.openSwipe(.none, how: "tap")
        dataChanged = true
        attachDecorations()
        return rest
    }
}
