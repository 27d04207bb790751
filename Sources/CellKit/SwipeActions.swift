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
    /// A full swipe (across the row) performs the first action instead of leaving the buttons
    /// open; UIKit's default is true.
    public var performsFirstActionWithFullSwipe: Bool
    public init(actions: [SwipeAction], performsFirstActionWithFullSwipe: Bool = true) {
        self.actions = actions
        self.performsFirstActionWithFullSwipe = performsFirstActionWithFullSwipe
    }
}

/// Which edge's swipe actions are open.
public enum SwipeEdge: String, Hashable, Sendable, CaseIterable {
    case none, leading, trailing
}
