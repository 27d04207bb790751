/// What a cell shows around its content view: accessories and swipe actions, and which swipe
/// edge is open. A cell without any keeps none at all, so its passes do no decoration work.
public struct CellDecorations: Hashable, Sendable {
    public var accessories: [CellAccessory]
    public var leadingSwipeActions: SwipeActionsConfiguration?
    public var trailingSwipeActions: SwipeActionsConfiguration?
    /// Only an edge that has actions opens; `none` when closed.
    public var openSwipeEdge: SwipeEdge
    /// The open edge was swiped fully and performs its first action: that action's button
    /// spans the row. Only while an edge whose configuration performs on a full swipe is open.
    public var isFullSwipe = false

    public init(accessories: [CellAccessory] = [], leadingSwipeActions: SwipeActionsConfiguration? = nil,
                trailingSwipeActions: SwipeActionsConfiguration? = nil, openSwipeEdge: SwipeEdge = .none) {
        self.accessories = accessories
        self.leadingSwipeActions = leadingSwipeActions
        self.trailingSwipeActions = trailingSwipeActions
        self.openSwipeEdge = openSwipeEdge
    }

    public var isEmpty: Bool { accessories.isEmpty && leadingSwipeActions == nil && trailingSwipeActions == nil }

    /// The actions of `edge`, when it has any.
    public func swipeActions(for edge: SwipeEdge) -> [SwipeAction] {
        switch edge {
        case .none: []
        case .leading: leadingSwipeActions?.actions ?? []
        case .trailing: trailingSwipeActions?.actions ?? []
        }
    }

    /// The configuration of `edge`'s actions.
    public func swipeConfiguration(for edge: SwipeEdge) -> SwipeActionsConfiguration? {
        switch edge {
        case .none: nil
        case .leading: leadingSwipeActions
        case .trailing: trailingSwipeActions
        }
    }

    /// The accessories a cell that is (not) editing shows, in order.
    public func shownAccessories(editing: Bool) -> [CellAccessory] { accessories.filter { $0.isShown(editing: editing) } }

    /// These decorations for an item with children in an outline: without accessories of its
    /// own it gets UIKit's outline disclosure (what the `.outlineDisclosure` header mode gives);
    /// an item that lists accessories keeps exactly those.
    public func withDefaultOutlineDisclosure() -> CellDecorations {
        guard accessories.isEmpty else { return self }
        var copy = self
        copy.accessories = [CellAccessory(.outlineDisclosure)]
        return copy
    }
}
