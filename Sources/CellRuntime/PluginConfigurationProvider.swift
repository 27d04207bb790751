import CellKit
import CellPlugins

/// Plugin configuration types as the engine's configurations: every type of every plugin loaded
/// into `registry`, each starting from the plugin's defaults.
public struct PluginConfigurationProvider: ConfigurationProvider {
    public let registry: PluginRegistry

    public init(registry: PluginRegistry) { self.registry = registry }

    public var typeIdentifiers: [String] { registry.plugins.flatMap { $0.types.map(\.typeIdentifier) } }

    public func makeConfiguration(type: String, style: String?, appearance: ListEnvironment) throws(ConfigurationProviderError)
        -> any ContentConfiguration {
        guard let t = registry.type(type) else { throw ConfigurationProviderError("no loaded plugin provides type \"\(type)\"") }
        if let style { throw ConfigurationProviderError("\"style\": \"\(style)\" applies to list content; plugin type \(type) has no styles") }
        guard let config = t.makeDefault() else {
            throw ConfigurationProviderError("plugin type \(type) could not make its default configuration (make_default returned NULL)")
        }
        return config
    }

    /// How traces name the loaded plugins: "path (type, type)".
    public var pluginSummaries: [String] {
        registry.plugins.map { p in "\(p.name) \(p.version) — \(p.path) (\(p.types.map(\.typeIdentifier).joined(separator: ", ")))" }
    }
}
