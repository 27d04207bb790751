import CellHost
import CellKit
import CellPlugins
import CellRender

/// The list every figure runs against: a 390×844 pt viewport at scale 3 (1170×2532 px), one
/// section of items cycling through built-in styles (cell, subtitle, value, with and without
/// symbols) and the sample plugins' types. Built from one parsed template per kind, so a million
/// items cost no stream text.
struct BenchList {
    static let viewport = Size(width: 390, height: 844)
    static let scale = 3

    let registry: PluginRegistry
    let catalog: ConfigurationCatalog
    let textEngine: TextEngine
    let templates: [ItemDescription]
    let baseScene: SceneDescription

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
        var lines = [
            #"{"scene": {"appearance": "insetGrouped", "viewport": {"width": 390, "height": 844}, "scale": 3}}"#,
            #"{"section": {"id": "all", "header": "Items"}}"#,
            #"{"item": {"id": "t0", "set": {"text": "Inbox", "image": {"symbol": "tray"}}}}"#,
            #"{"item": {"id": "t1", "style": "subtitleCell", "set": {"text": "Drafts", "secondaryText": "3 unsent messages", "image": {"symbol": "envelope"}}}}"#,
            #"{"item": {"id": "t2", "style": "valueCell", "set": {"text": "Flagged", "secondaryText": "12"}}}"#,
        ]
        for (i, type) in plugins.typeIdentifiers.sorted().enumerated() {
            lines.append(#"{"item": {"id": "p\#(i)", "type": "\#(type)"}}"#)
        }
        let (scene, _) = try EventStreamParser.parse(lines.joined(separator: "\n"), source: "bench")
        baseScene = scene
        templates = scene.sections[0].items
    }

    /// How many of the templates are plugin types (the rest are built-in).
    var pluginTemplateCount: Int { templates.count - 3 }

    /// `count` items named item0, item1, … cycling through the templates.
    func scene(items count: Int) -> SceneDescription {
        var scene = baseScene
        var items: [ItemDescription] = []
        items.reserveCapacity(count)
        for i in 0..<count {
            var item = templates[i % templates.count]
            item.id = "item\(i)"
            items.append(item)
        }
        scene.sections[0].items = items
        return scene
    }

    /// An engine over `count` items; `renderer` nil = damage only, no pixels.
    func engine(items count: Int, renderer: (any FrameRenderer)?) throws -> Engine {
        try Engine(scene: scene(items: count), catalog: catalog,
                   options: .init(textMeasurer: textEngine, renderer: renderer))
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
