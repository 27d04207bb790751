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
    /// The worker's fd 1, watched for the plugin's writes (nil when the worker prints its result there).
    private let standardOutput: StandardOutputWatch?
    /// The step running now: what a write to fd 1 seen at the next step is blamed on.
    private var currentStep: String?
    /// Only a check's first unusable size, and first write to fd 1, are reported; a plugin that
    /// does it once usually does it on every call.
    private var sizeFaultReported = false, standardOutputReported = false

    init(checkID: String, path: String, seed: UInt64, channel: WorkerChannel?, standardOutput: StandardOutputWatch? = nil) {
        self.checkID = checkID
        self.path = path
        self.seed = seed
        self.random = SeededGenerator(seed: seed)
        self.channel = channel
        self.standardOutput = standardOutput
    }

    public func fail(_ text: String) { failures.append(text) }
    public func warn(_ text: String) { warnings.append(text) }
    public func note(_ text: String) { notes.append(text) }
    public func skip(_ reason: String) { skipReason = reason }

    /// Tells the supervisor what is about to run (the last step names a crash or hang).
    public func step(_ text: String) {
        checkStandardOutput()
        currentStep = text
        channel?.send(WorkerMessage.step(text).line)
    }

    /// Fails the check when the plugin wrote to fd 1 since the last step, naming that step. The
    /// descriptor is the host's: a plugin talks through `log`. A write while loading is
    /// strict-load's to report, so the other checks, which load the plugin too, do not repeat it.
    func checkStandardOutput() {
        guard let standardOutput, let written = standardOutput.take() else { return }
        let during = currentStep ?? "the check's start"
        guard checkID == "strict-load" || during != Self.loadingStep(path), !standardOutputReported else { return }
        standardOutputReported = true
        fail("the plugin wrote to standard output (fd 1), which belongs to the host, during: \(during): \(written); "
             + "a plugin reports through the host's log function")
    }

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
        // A call the check makes before naming a step of its own must not pass for loading:
        // a worker that dies after the loading step is a load failure, and skips every later check.
        if case .success = result { step("the first call after loading \(path)") }
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

    /// Sizes `view` for `width` and fails the check when the plugin hands back a size the host
    /// refuses (the run's own check: not finite, negative or above the host's bounds), naming
    /// `what` was sized: the value, state or action that made its configuration. Returns whether
    /// the size was usable. Faults pending from earlier calls (drawing) are plausible-values' to
    /// report, so they are cleared first and only this size is judged.
    @discardableResult
    func checkSize(_ view: PluginContentView, _ what: @autoclosure () -> String, width: Double = ViewChecks.bounds.width,
                   traits: TraitCollection = .default) -> Bool {
        _ = PluginFaults.take()
        _ = view.sizeThatFits(Size(width: width, height: 0), context: Self.layoutContext(traits))
        guard let fault = PluginFaults.take() else { return true }
        if !sizeFaultReported {
            sizeFaultReported = true
            fail(fault.description + " (sizing \(what()) for width \(width.pointsText))")
        }
        return false
    }

    /// `checkSize` for a configuration not yet in a view: a new view is made of it, as a list
    /// makes one for a new cell.
    @discardableResult
    func checkSize(of configuration: PluginConfiguration, _ what: @autoclosure () -> String) -> Bool {
        checkSize(PluginContentView(configuration: configuration), what())
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

extension Double {
    /// "390" for a whole number of points, "0.5" otherwise: how a report names a width.
    var pointsText: String { self == rounded() && abs(self) < 1e15 ? String(Int(self)) : String(self) }
}
