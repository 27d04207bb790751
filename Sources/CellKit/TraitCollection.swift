/// The environment a view is displayed in, as UIKit's `UITraitCollection`.
/// A value type: a trait change is a new collection handed to every cell's configuration state.

public enum UserInterfaceStyle: String, Hashable, Sendable, CaseIterable, Codable {
    case light, dark
}

public enum LayoutDirection: String, Hashable, Sendable, CaseIterable, Codable {
    case leftToRight, rightToLeft
}

public enum UserInterfaceSizeClass: String, Hashable, Sendable, CaseIterable, Codable {
    case unspecified, compact, regular
}

public enum AccessibilityContrast: String, Hashable, Sendable, CaseIterable, Codable {
    case normal, high
}

/// UIKit's `UIUserInterfaceLevel`: content presented above other content (a sheet, a popover,
/// a split view's side) is elevated, and in dark mode its system backgrounds are lighter so it
/// stands apart from what is beneath.
public enum UserInterfaceLevel: String, Hashable, Sendable, CaseIterable, Codable {
    case base, elevated
}

/// UIKit's `UILegibilityWeight`: bold when the person has turned Bold Text on, and the system's
/// text styles are then drawn heavier.
public enum LegibilityWeight: String, Hashable, Sendable, CaseIterable, Codable {
    case regular, bold
}

/// UIKit's `UIUserInterfaceIdiom`, the kinds of device cellhost models: a phone or a pad.
public enum UserInterfaceIdiom: String, Hashable, Sendable, CaseIterable, Codable {
    case phone, pad
}

/// The list appearance a view sits in (UIKit's `UIListEnvironment`); the iOS 18 `listCell()`
/// factories read it inside `updated(for:)`.
public enum ListEnvironment: String, Hashable, Sendable, CaseIterable, Codable {
    case none, plain, grouped, insetGrouped, sidebar, sidebarPlain
}

/// Dynamic Type sizes, smallest to largest. `large` is the system default.
public enum ContentSizeCategory: String, Hashable, Sendable, CaseIterable, Codable, Comparable {
    case extraSmall, small, medium, large, extraLarge, extraExtraLarge, extraExtraExtraLarge
    case accessibilityMedium, accessibilityLarge, accessibilityExtraLarge
    case accessibilityExtraExtraLarge, accessibilityExtraExtraExtraLarge

    /// The five sizes above `extraExtraExtraLarge` switch list content to its accessibility layout.
    public var isAccessibilityCategory: Bool { index >= ContentSizeCategory.accessibilityMedium.index }

    public var index: Int { ContentSizeCategory.allCases.firstIndex(of: self)! }

    public static func < (a: Self, b: Self) -> Bool { a.index < b.index }

    /// Short names as UIKit prints them (`UICTContentSizeCategoryL` → `L`), used by traces and the CLI.
    public var shortName: String {
        switch self {
        case .extraSmall: "XS"
        case .small: "S"
        case .medium: "M"
        case .large: "L"
        case .extraLarge: "XL"
        case .extraExtraLarge: "XXL"
        case .extraExtraExtraLarge: "XXXL"
        case .accessibilityMedium: "AX1"
        case .accessibilityLarge: "AX2"
        case .accessibilityExtraLarge: "AX3"
        case .accessibilityExtraExtraLarge: "AX4"
        case .accessibilityExtraExtraExtraLarge: "AX5"
        }
    }

    /// Accepts the raw value (`accessibilityLarge`) or the short name (`AX2`, case-insensitive).
    public init?(name: String) {
        if let c = ContentSizeCategory(rawValue: name) { self = c; return }
        guard let c = ContentSizeCategory.allCases.first(where: { $0.shortName.lowercased() == name.lowercased() })
        else { return nil }
        self = c
    }
}

public struct TraitCollection: Hashable, Sendable {
    public var userInterfaceStyle: UserInterfaceStyle
    public var preferredContentSizeCategory: ContentSizeCategory
    public var layoutDirection: LayoutDirection
    public var horizontalSizeClass: UserInterfaceSizeClass
    public var verticalSizeClass: UserInterfaceSizeClass
    /// Pixels per point: 1, 2 or 3.
    public var displayScale: Double
    public var listEnvironment: ListEnvironment
    public var accessibilityContrast: AccessibilityContrast
    public var userInterfaceLevel: UserInterfaceLevel
    public var legibilityWeight: LegibilityWeight
    public var userInterfaceIdiom: UserInterfaceIdiom

    public init(
        userInterfaceStyle: UserInterfaceStyle = .light,
        preferredContentSizeCategory: ContentSizeCategory = .large,
        layoutDirection: LayoutDirection = .leftToRight,
        horizontalSizeClass: UserInterfaceSizeClass = .compact,
        verticalSizeClass: UserInterfaceSizeClass = .regular,
        displayScale: Double = 2,
        listEnvironment: ListEnvironment = .none,
        accessibilityContrast: AccessibilityContrast = .normal,
        userInterfaceLevel: UserInterfaceLevel = .base,
        legibilityWeight: LegibilityWeight = .regular,
        userInterfaceIdiom: UserInterfaceIdiom = .phone
    ) {
        self.userInterfaceStyle = userInterfaceStyle
        self.preferredContentSizeCategory = preferredContentSizeCategory
        self.layoutDirection = layoutDirection
        self.horizontalSizeClass = horizontalSizeClass
        self.verticalSizeClass = verticalSizeClass
        self.displayScale = displayScale
        self.listEnvironment = listEnvironment
        self.accessibilityContrast = accessibilityContrast
        self.userInterfaceLevel = userInterfaceLevel
        self.legibilityWeight = legibilityWeight
        self.userInterfaceIdiom = userInterfaceIdiom
    }

    /// The defaults of an iPhone in portrait: light, Large text, left-to-right, @2x.
    public static let `default` = TraitCollection()

    /// Returns a copy with one trait changed, as `UITraitCollection.modifyingTraits`.
    public func with<V>(_ keyPath: WritableKeyPath<TraitCollection, V>, _ value: V) -> TraitCollection {
        var copy = self
        copy[keyPath: keyPath] = value
        return copy
    }
}
