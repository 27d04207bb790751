import CellKit
import CellPlugins
import CellProcess

/// What a check body works with inside the worker: the plugin under test (loaded once, lazily),
/// the seeded generator, and the findings that become the check's outcome. Steps are sent to the
/// supervisor as they happen, so a crash or hang is reported with the call that caused it.
public final class CheckRecorder {
    public let checkID: String
    public let path: String
    public let seed: UInt64
    public var random: SeededGenerator
    private(set) var failures: [String] = []
    private(set) var warnings: [String] = []
    private(set) var notes: [String] = []
    private(set) var skipReason: String?
    private let channel: WorkerChannel?
    private var loaded: Result<LoadedPlugin, PluginLoadError>?

    init(checkID: String, path: String, seed: UInt64, channel: WorkerChannel?) {
        self.checkID = checkID
        self.path = path
        self.seed = seed
        self.random = SeededGenerator(seed: seed)
        self.channel = channel
    }

    public func fail(_ text: String) { failures.append(text) }
    public func warn(_ text: String) { warnings.append(text) }
    public func note(_ text: String) { notes.append(text) }
    public func skip(_ reason: String) { skipReason = reason }

    /// Tells the supervisor what is about to run (the last step names a crash or hang).
    public func step(_ text: String) { channel?.send(WorkerMessage.step(text).line) }

    /// The plugin, loaded through the host's registry (RTLD_NOW, every descriptor rule), or the
    /// loader's refusal.
    public func loadPlugin() -> Result<LoadedPlugin, PluginLoadError> {
        if let loaded { return loaded }
        step(Self.loadingStep(path))
        let result: Result<LoadedPlugin, PluginLoadError>
        do throws(PluginLoadError) {
            result = .success(try PluginRegistry().load(path))
        } catch {
            result = .failure(error)
        }
        loaded = result
        return result
    }

    /// The step sent before loading: a worker that dies after it died in the plugin's loading code.
    static func loadingStep(_ path: String) -> String { "loading \(path)" }

    /// The loaded plugin; when it did not load, the check is skipped (the check responsible for
    /// that refusal reports it) and nil is returned.
    public func plugin() -> LoadedPlugin? {
        switch loadPlugin() {
        case .success(let plugin): return plugin
        case .failure(let error):
            skip("the plugin did not load (\(LoadChecks.responsibleCheck(for: error.reason)) reports why)")
            return nil
        }
    }

    var outcome: CheckOutcome {
        if !failures.isEmpty { return .failed }
        if skipReason != nil { return .skipped }
        return warnings.isEmpty ? .success : .warning
    }

    var details: [String] {
        failures + warnings + (skipReason.map { [$0] } ?? []) + notes
    }

    /// Layout context for sizing and drawing, with CellKit's measurer so results do not depend
    /// on installed fonts.
    static func layoutContext(_ traits: TraitCollection = .default) -> LayoutContext {
        LayoutContext(traits: traits, textMeasurer: FixedAdvanceTextMeasurer())
    }
}
