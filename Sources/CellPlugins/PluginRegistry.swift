import Synchronization

/// Every plugin loaded in this process, side by side. Type identifiers are unique across all of
/// them; loading the same library twice returns the plugin already loaded. Nothing is ever
/// unloaded (plugins with Swift code must not be dlclosed, and handles may outlive a registry).
public final class PluginRegistry: Sendable {
    private struct State {
        var plugins: [LoadedPlugin] = []
        var typeOwners: [String: String] = [:]  // type id → plugin path
    }
    private let state = Mutex(State())

    public init() {}

    public var plugins: [LoadedPlugin] { state.withLock { $0.plugins } }

    /// Loads and validates the plugin at `path`, or throws why it was refused.
    @discardableResult
    public func load(_ path: String) throws(PluginLoadError) -> LoadedPlugin {
        let result: Result<LoadedPlugin, PluginLoadError> = state.withLock { state in
            do throws(PluginLoadError) {
                let plugin = try PluginLoader.load(path: path, takenTypeIdentifiers: state.typeOwners,
                                                   alreadyLoaded: state.plugins)
                if state.plugins.contains(where: { $0 === plugin }) { return .success(plugin) }
                state.plugins.append(plugin)
                for type in plugin.types { state.typeOwners[type.typeIdentifier] = path }
                return .success(plugin)
            } catch {
                return .failure(error)
            }
        }
        return try result.get()
    }

    /// The configuration type with `identifier`, from whichever plugin provides it.
    public func type(_ identifier: String) -> PluginConfigurationType? {
        state.withLock { $0.plugins.lazy.compactMap { $0.type(identifier) }.first }
    }
}
