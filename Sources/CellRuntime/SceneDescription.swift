import CellKit

/// The list an event stream starts from: its appearance, the viewport it is shown in, the traits,
/// and its sections of items — everything the stream's first lines describe.
public struct SceneDescription: Sendable, Equatable {
    /// The list appearance (`plain`, `grouped`, `insetGrouped`, `sidebar`, `sidebarPlain`); it picks
    /// the default content and background styles of every cell and header.
    public var appearance: ListEnvironment
    /// Viewport size in points.
    public var viewport: Size
    public var traits: TraitCollection
    public var sections: [SectionDescription]
    /// Trait combinations `cellhost test` runs the stream under; nil = the scene's traits only.
    public var matrix: TraitMatrix?
    /// How far `cellhost test` lets captures stray from their references.
    public var imageTolerance: ImageTolerance = .exact
    /// Every row's separators (`UICollectionLayoutListConfiguration.separatorConfiguration`);
    /// nil = UIKit's defaults for the appearance.
    public var separators: ListSeparatorConfiguration?

    public init(appearance: ListEnvironment = .insetGrouped, viewport: Size = Size(width: 390, height: 844),
                traits: TraitCollection = .default, sections: [SectionDescription] = []) {
        self.appearance = appearance
        self.viewport = viewport
        self.traits = traits
        self.sections = sections
    }

    /// Pixels per point, from the display-scale trait.
    public var scale: Double { traits.displayScale }

    public var itemCount: Int { sections.reduce(0) { $0 + $1.items.count } }
}

public struct SectionDescription: Sendable, Equatable {
    public var id: String
    public var header: String?
    public var footer: String?
    /// Items written out and item series (templates plus a count), in list order.
    public var items: ItemList
    public var line: Int
    /// A header or footer given as a configuration (a plugin type, any list content style,
    /// properties set): `header` / `footer` is then empty and only says there is one.
    public var headerContent: ItemDescription?
    public var footerContent: ItemDescription?

    public init(id: String, header: String? = nil, footer: String? = nil, items: ItemList = [], line: Int = 0) {
        self.id = id
        self.header = header
        self.footer = footer
        self.items = items
        self.line = line
    }
}

/// A cell of the list before any event: the configuration type it shows and how it is set up.
public struct ItemDescription: Sendable, Equatable {
    /// The built-in list content type, under its full and its short name.
    public static let listContentType = "com.cellhost.list-content"

    public var id: String
    /// `com.cellhost.list-content` (or `list`) or a plugin's reverse-DNS type id.
    public var type: String
    /// For list content: the style factory (`cell`, `subtitleCell`, `valueCell`, …); nil = the
    /// default style for the list appearance, as `defaultContentConfiguration()`.
    public var style: String?
    /// Initial property values, set (and so locked) in order.
    public var properties: [PropertyAssignment]
    public var background: BackgroundDescription?
    public var automaticallyUpdatesContentConfiguration: Bool
    public var automaticallyUpdatesBackgroundConfiguration: Bool
    /// `configurationUpdateHandler` rules: when the state matches, these properties are set.
    public var handlers: [UpdateHandlerRule]
    /// How the handler treats the cell's configuration (`"handler": {"form": …}`); `handlers`
    /// alone is the modify form.
    public var handlerForm: UpdateHandlerForm
    public var line: Int
    /// The cell's accessories and swipe actions (`accessories`, `swipeActions`); empty = none.
    public var decorations: CellDecorations
    /// The item's children in an outline (NSDiffableDataSourceSectionSnapshot's hierarchy), in
    /// order; empty for a leaf. Shown below the item, one level deeper, while it is expanded.
    public var children: [ItemDescription] {
        get { extras?.children ?? [] }
        set { changeExtras { $0.children = newValue } }
    }
    /// Whether the item starts expanded (only meaningful with children).
    public var isExpanded: Bool {
        get { extras?.isExpanded ?? false }
        set { changeExtras { $0.isExpanded = newValue } }
    }
    /// The item's separators (`itemSeparatorHandler`): the list's with the fields the item
    /// names changed; nil = the list's.
    public var separators: ListSeparatorConfiguration? {
        get { extras?.separators }
        set { changeExtras { $0.separators = newValue } }
    }
    /// Outline and separator settings, boxed: few items have them, and an item description is
    /// copied with every event that inserts one, so it stays the size it was without them.
    private var extras: ItemExtras?

    private mutating func changeExtras(_ change: (inout ItemExtras.Values) -> Void) {
        var values = extras?.values ?? ItemExtras.Values()
        change(&values)
        extras = values == ItemExtras.Values() ? nil : ItemExtras(values)
    }

    public init(id: String, type: String = ItemDescription.listContentType, style: String? = nil,
                properties: [PropertyAssignment] = [], background: BackgroundDescription? = nil,
                automaticallyUpdatesContentConfiguration: Bool = true,
                automaticallyUpdatesBackgroundConfiguration: Bool = true,
                handlers: [UpdateHandlerRule] = [], handlerForm: UpdateHandlerForm = .modify, line: Int = 0,
                decorations: CellDecorations = CellDecorations()) {
        self.decorations = decorations
        self.id = id
        self.type = type
        self.style = style
        self.properties = properties
        self.background = background
        self.automaticallyUpdatesContentConfiguration = automaticallyUpdatesContentConfiguration
        self.automaticallyUpdatesBackgroundConfiguration = automaticallyUpdatesBackgroundConfiguration
        self.handlers = handlers
        self.handlerForm = handlerForm
        self.line = line
    }

    public var isListContent: Bool { type == ItemDescription.listContentType }
}

/// An item's outline and separator settings, held by reference (`ItemDescription`); equal by value.
final class ItemExtras: Sendable, Equatable {
    struct Values: Sendable, Equatable {
        var children: [ItemDescription] = []
        var isExpanded = false
        var separators: ListSeparatorConfiguration?
    }

    let values: Values
    init(_ values: Values) { self.values = values }

    var children: [ItemDescription] { values.children }
    var isExpanded: Bool { values.isExpanded }
    var separators: ListSeparatorConfiguration? { values.separators }

    static func == (a: ItemExtras, b: ItemExtras) -> Bool { a.values == b.values }
}

/// `"set": {"textProperties.color": "white"}` — one property of a configuration and its new value.
public struct PropertyAssignment: Sendable, Hashable {
    public var name: String
    public var value: PropertyValue
    public init(name: String, value: PropertyValue) { self.name = name; self.value = value }
}

/// A cell's background: a factory style and properties set on it.
public struct BackgroundDescription: Sendable, Equatable {
    /// `listPlainCell`, `listGroupedCell`, `listSidebarCell`, `clear`, `listCell`, …; nil = the default
    /// for the list appearance.
    public var style: String?
    public var properties: [PropertyAssignment]
    public init(style: String? = nil, properties: [PropertyAssignment] = []) {
        self.style = style
        self.properties = properties
    }
}

/// A `configurationUpdateHandler` written in the stream: after `updated(for:)`, when every flag in
/// `when` matches the new state, `set` is applied (trace: "set by hook").
public struct UpdateHandlerRule: Sendable, Equatable {
    public var when: StateChange
    public var set: [PropertyAssignment]
    public var background: [PropertyAssignment]
    public init(when: StateChange, set: [PropertyAssignment], background: [PropertyAssignment] = []) {
        self.when = when
        self.set = set
        self.background = background
    }
}
