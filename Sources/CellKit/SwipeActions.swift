/// UIKit's `UIContextualAction`: one button a swiped cell reveals.
public struct SwipeAction: Hashable, Sendable {
    public enum Style: String, Hashable, Sendable, CaseIterable { case normal, destructive }

    public var title: String?
    public var style: Style
    /// nil = UIKit's default for the style: red for destructive, gray for normal.
    public var backgroundColor: Color?
    /// Drawn above the title (or alone, centred), in white.
    public var image: Image?

    public init(title: String?, style: Style = .normal, backgroundColor: Color? = nil, image: Image? = nil) {
        self.title = title
        self.style = style
        self.backgroundColor = backgroundColor
        self.image = image
    }

    public var resolvedBackgroundColor: Color { backgroundColor ?? (style == .destructive ? .systemRed : .systemGray) }
}

/// UIKit's `UISwipeActionsConfiguration`: the buttons one edge of a cell reveals, the first
/// one outermost (at the cell's edge).
public struct SwipeActionsConfiguration: Hashable, Sendable {
    public var actions: [SwipeAction]
    public init(actions: [SwipeAction]) { self.actions = actions }
}

/// Which edge's swipe actions are open.
public enum SwipeEdge: String, Hashable, Sendable, CaseIterable {
    case none, leading, trailing
}

/// What a cell shows around its content view: accessories and swipe actions, and which swipe
/// edge is open. A cell without any keeps none at all, so its passes do no decoration work.
public struct CellDecorations: Hashable, Sendable {
    public var accessories: [CellAccessory]
    public var leadingSwipeActions: SwipeActionsConfiguration?
    public var trailingSwipeActions: SwipeActionsConfiguration?
    /// Only an edge that has actions opens; `none` when closed.
    public var openSwipeEdge: SwipeEdge

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

    /// The accessories a cell in `state` shows, in order.
    public func shownAccessories(editing: Bool) -> [CellAccessory] { accessories.filter { $0.isShown(editing: editing) } }
}
