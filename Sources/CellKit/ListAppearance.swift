/// The appearance of a list (UIKit's `UICollectionLayoutListConfiguration.Appearance`). It picks
/// the default content and background styles of its cells, headers and footers, and how rows sit.
public enum ListAppearance: String, Hashable, Sendable, CaseIterable, Codable {
    case plain, grouped, insetGrouped, sidebar, sidebarPlain

    /// The trait the list gives its views, which the iOS 18 `listCell()`/`header()` styles read.
    public var listEnvironment: ListEnvironment {
        switch self {
        case .plain: .plain
        case .grouped: .grouped
        case .insetGrouped: .insetGrouped
        case .sidebar: .sidebar
        case .sidebarPlain: .sidebarPlain
        }
    }

    /// The appearance of a list environment; nil for `none` (not in a list).
    public init?(_ environment: ListEnvironment) {
        switch environment {
        case .none: return nil
        case .plain: self = .plain
        case .grouped: self = .grouped
        case .insetGrouped: self = .insetGrouped
        case .sidebar: self = .sidebar
        case .sidebarPlain: self = .sidebarPlain
        }
    }

    /// `defaultContentConfiguration()`'s style for a cell, header or footer in this list.
    /// Sidebar-plain lists use sidebar cells, as UIKit's.
    public func defaultContentStyle(for role: ConfigurableViewRole) -> ListContentConfiguration.Style {
        switch (role, self) {
        case (.cell, .plain), (.cell, .grouped), (.cell, .insetGrouped): .cell
        case (.cell, .sidebar), (.cell, .sidebarPlain): .sidebarCell
        case (.header, .plain): .plainHeader
        case (.header, .grouped), (.header, .insetGrouped): .groupedHeader
        case (.header, .sidebar), (.header, .sidebarPlain): .sidebarHeader
        case (.footer, .plain): .plainFooter
        case (.footer, _): .groupedFooter
        }
    }

    /// `defaultBackgroundConfiguration()`'s style for a cell, header or footer in this list.
    public func defaultBackgroundStyle(for role: ConfigurableViewRole) -> BackgroundConfiguration.Style {
        switch (role, self) {
        case (.cell, .plain): .listPlainCell
        case (.cell, .grouped), (.cell, .insetGrouped): .listGroupedCell
        case (.cell, .sidebar), (.cell, .sidebarPlain): .listSidebarCell
        case (.header, .plain), (.footer, .plain): .listPlainHeaderFooter
        case (.header, .sidebar), (.header, .sidebarPlain): .listSidebarHeader
        case (_, _): .listGroupedHeaderFooter
        }
    }

    /// Rows of inset-grouped lists are inset from the list's edges by this much and their
    /// sections get rounded corners; other appearances run edge to edge.
    public var rowInset: Double { self == .insetGrouped ? 20 : 0 }

    /// The width of UIKit's readable content guide at the Large text size: the column an iPad
    /// keeps text to when a view is far wider than a line should be.
    public static let readableContentWidth: Double = 672

    /// `rowInset` on a device: on a pad at a regular width, inset-grouped sections keep to the
    /// readable content width, centred in the list, and never come closer to its edges than the
    /// phone's inset (so a pad list narrower than the readable width looks as a phone's does).
    /// In a compact width (Slide Over, a narrow split) a pad lays out as a phone; other
    /// appearances run edge to edge on every device.
    public func rowInset(for traits: TraitCollection, listWidth: Double) -> Double {
        guard self == .insetGrouped, traits.userInterfaceIdiom == .pad, traits.horizontalSizeClass == .regular
        else { return rowInset }
        return max(rowInset, (listWidth - ListAppearance.readableContentWidth) / 2)
    }
    public var sectionCornerRadius: Double { self == .insetGrouped ? 10 : 0 }
    /// Space standing in for a missing header in grouped lists (sections stay apart).
    public var sectionSpacingWithoutHeader: Double {
        switch self {
        case .grouped, .insetGrouped: 20
        case .plain, .sidebar, .sidebarPlain: 0
        }
    }
    /// The layout margins a list gives its cells (content margins win where larger).
    public var cellLayoutMargins: DirectionalEdgeInsets {
        DirectionalEdgeInsets(top: 11, leading: 16, bottom: 11, trailing: 16)
    }

    /// `cellLayoutMargins` under `traits`: wider at a regular width, as UIKit's system minimum
    /// layout margins are.
    public func cellLayoutMargins(for traits: TraitCollection) -> DirectionalEdgeInsets {
        cellLayoutMargins.widened(for: traits.horizontalSizeClass)
    }
}

extension DirectionalEdgeInsets {
    /// UIKit's system minimum side margins: 16 points at a compact width, 20 at a regular
    /// width (an iPad's full-screen or wide split view). Margins already wider stay; top and
    /// bottom do not depend on the width.
    public func widened(for sizeClass: UserInterfaceSizeClass) -> DirectionalEdgeInsets {
        guard sizeClass == .regular else { return self }
        var wide = self
        wide.leading = Swift.max(leading, 20)
        wide.trailing = Swift.max(trailing, 20)
        return wide
    }
}

/// Whether a configurable view is a cell or a section's header or footer.
public enum ConfigurableViewRole: String, Hashable, Sendable, CaseIterable {
    case cell, header, footer
}
