/// Whether a cell draws the hairline separator below it (UIKit's
/// `UIListSeparatorConfiguration.Visibility` for the bottom separator).
public enum ListSeparatorVisibility: String, Hashable, Sendable, CaseIterable {
    /// The list decides: plain, grouped and inset-grouped lists separate rows; grouped lists
    /// leave the last row of a section without one (the section's edge ends it); sidebars never.
    case automatic
    case visible
    case hidden
}

extension ListAppearance {
    /// Whether rows of this list are separated by hairlines by default (not in sidebars).
    public var showsSeparators: Bool {
        switch self {
        case .plain, .grouped, .insetGrouped: true
        case .sidebar, .sidebarPlain: false
        }
    }

    /// Whether the last row of a section keeps its separator by default: only plain lists, where
    /// sections run on without a visual edge.
    public var separatesLastRowOfSection: Bool { self == .plain }
}
