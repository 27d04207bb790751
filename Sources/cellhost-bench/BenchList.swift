import CellIO
import CellRuntime
import CellKit
import CellPlugins
import CellRender

/// The list every figure runs against: a 390×844 pt viewport at scale 3 (1170×2532 px), one
/// section of items cycling through built-in styles (cell, subtitle, value, with and without
/// symbols) and the sample plugins' types. Described as a stream would describe it, with one
/// `items` line (a series of templates), so a million items cost no stream text and no
/// per-item description.
struct BenchList {
    static let viewport = Size(width: 390, height: 844)
    static let scale = 3

    let registry: PluginRegistry
    let catalog: ConfigurationCatalog
    let textEngine: TextEngine
    /// The item objects the series cycles through, as JSON.
    let templateObjects: [String]

    /// Ids of visible items of each kind, for single-cell events.
    static let builtinCell = "item1"
    static let pluginCell = "item3"

    init(pluginPaths: [String]) throws {
        registry = PluginRegistry()
        for path in pluginPaths { try registry.load(path) }
        let plugins = PluginConfigurationProvider(registry: registry)
        var catalog = ConfigurationCatalog()
        catalog.add(plugins)
        self.catalog = catalog
        textEngine = try TextEngine()
        var templates = [
            #"{"set": {"text": "Inbox", "image": {"symbol": "tray"}}}"#,
            #"{"style": "subtitleCell", "set": {"text": "Drafts", "secondaryText": "3 unsent messages", "image": {"symbol": "envelope"}}}"#,
            #"{"style": "valueCell", "set": {"text": "Flagged", "secondaryText": "12"}}"#,
        ]
        for type in plugins.typeIdentifiers.sorted() { templates.append(#"{"type": "\#(type)"}"#) }
        templateObjects = templates
    }

    /// How many of the templates are plugin types (the rest are built-in).
    var pluginTemplateCount: Int { templateObjects.count - 3 }

    /// The stream text of a list of `count` items named item0, item1, … cycling through the templates.
    func stream(items count: Int) -> String {
        [
            #"{"scene": {"appearance": "insetGrouped", "viewport": {"width": 390, "height": 844}, "scale": 3}}"#,
            #"{"section": {"id": "all", "header": "Items"}}"#,
            #"{"items": {"id": "item{n}", "count": \#(count), "templates": [\#(templateObjects.joined(separator: ", "))]}}"#,
        ].joined(separator: "\n")
    }

    /// `count` items named item0, item1, … cycling through the templates.
    func scene(items count: Int) throws -> SceneDescription {
        try EventStreamParser.parse(stream(items: count), source: "bench").0
    }

    /// An engine over `count` items; `renderer` nil = damage only, no pixels.
    func engine(items count: Int, renderer: (any FrameRenderer)?, recordsPropertyChanges: Bool = true) throws -> Engine {
        try Engine(scene: try scene(items: count), catalog: catalog,
                   options: .init(textMeasurer: textEngine, renderer: renderer, recordsPropertyChanges: recordsPropertyChanges))
    }

    func compositorRenderer() -> CompositorRenderer {
        CompositorRenderer(viewport: Self.viewport, scale: Self.scale, textEngine: textEngine, showsDamage: false,
                           writesFrames: false)
    }

    static func highlight(_ id: String, _ on: Bool, number: Int) -> Event {
        Event(number: number, line: number, actions: [.cells(CellEvent(targets: [.cell(id)], state: StateChange(highlighted: on)))])
    }

    static func style(_ style: UserInterfaceStyle, number: Int) -> Event {
        Event(number: number, line: number, actions: [.traits(TraitChange(userInterfaceStyle: style))])
    }
}
