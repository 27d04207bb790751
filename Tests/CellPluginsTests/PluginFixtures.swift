import CellKit
import CellPlugins
import Testing

/// The loader's refusals, as the plugin tests read them.
enum PluginFixtures {
    /// The loader's sentence refusing `path`, naming it; nil when the plugin loads.
    static func refusal(_ path: String, registry: PluginRegistry = PluginRegistry()) -> String? {
        do {
            try registry.load(path)
            return nil
        } catch {
            #expect(error.path == path)
            return error.description
        }
    }
}

extension Color {
    /// The colour as it comes back from a plugin: plain components, no system name.
    var withoutName: Color { Color(red: red, green: green, blue: blue, alpha: alpha) }
}
