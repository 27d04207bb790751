import CellIO
import Glibc
import CellKit
import CellPlugins
import CellProcess
import CellRender

/// What a run is asked to do. The same options reach the worker process as arguments.
public struct RunOptions: Sendable, Equatable {
    /// The event stream: a path, "-" for standard input, nil for the embedded default stream.
    public var events: String?
    /// Plugins to load; empty = the sample plugins built next to the executable.
    public var plugins: [String]
    /// Where PNG frames go; nil = none.
    public var framesDirectory: String?
    /// Where the contact sheet goes; nil = none.
    public var contactSheet: String?
    /// Tint the damage of every frame.
    public var showsDamage: Bool
    /// Write only named captures into `framesDirectory`, no numbered frames (`cellhost test`).
    public var capturesOnly = false
    /// Write numbered frames only for events that capture, named or not (`--frames captures`).
    public var framesOnlyForCaptures = false
    /// Run under this combination (an index into the stream's `TraitMatrix.combinations`);
    /// nil = the scene's own traits.
    public var matrixCombination: Int?
    /// The sandbox a worker runs the stream in (a run in-process has none).
    public var sandbox: WorkerSandbox.Setting
    /// Where frames needed only for the contact sheet go; nil = a new temporary folder. A
    /// sandboxed worker makes it before it enters the sandbox, which allows writing it alone.
    public var scratchDirectory: String?
    /// How messages and traces name the stream when `events` was rewritten (made absolute by
    /// the worker): the spelling the user gave.
    public var sourceLabel: String?

    public init(events: String? = nil, plugins: [String] = [], framesDirectory: String? = nil, contactSheet: String? = nil,
                showsDamage: Bool = false, capturesOnly: Bool = false, matrixCombination: Int? = nil,
                sandbox: WorkerSandbox.Setting = .standard, scratchDirectory: String? = nil) {
        self.events = events
        self.plugins = plugins
        self.framesDirectory = framesDirectory
        self.contactSheet = contactSheet
        self.showsDamage = showsDamage
        self.capturesOnly = capturesOnly
        self.matrixCombination = matrixCombination
        self.sandbox = sandbox
        self.scratchDirectory = scratchDirectory
    }

    public var sourceName: String {
        if let sourceLabel { return sourceLabel }
        return switch events {
        case nil: EmbeddedStream.sourceName
        case "-": "<stdin>"
        case let path?: path
        }
    }

    /// The lines of the event stream file, for a progress line's total; nil for standard input,
    /// the embedded stream, or a file that cannot be read (the run itself reports that).
    public var eventLineCount: Int? {
        guard let events, events != "-", let file = fopen(events, "r") else { return nil }
        defer { fclose(file) }
        var count = 0
        while true {
            let c = getc(file)
            if c == EOF { break }
            if c == 0x0A { count += 1 }
        }
        return count
    }
}

/// Where a run's records go: straight to the sinks (in-process) or over the worker channel.
public protocol RunOutput: AnyObject {
    /// The event about to run, sent before any plugin code runs for it, so a supervisor knows
    /// which event a crash or hang belongs to.
    func begin(event: Int, line: Int)
    /// As `begin(event:line:)`, with the actions a crash report can summarise.
    func begin(_ event: Event)
    /// As `begin(_:)`; `pluginCodeMayRun` false: nothing but cellhost's own code runs until the
    /// event's record, so a worker may send the event's frames later, with others.
    func begin(_ event: Event, pluginCodeMayRun: Bool)
    /// Plugin code about to run outside any event (loading a plugin, an item's `set`), so a
    /// supervisor blames a crash on it rather than on the phase before.
    func announce(_ phase: RunPhase)
    func record(_ record: TraceRecord)
    /// Progress inside an event (a frame was rendered): proof of life for a watchdog.
    func alive()
    /// Sends what the output holds back for the next event's begin: called before the run may
    /// wait (for input, or at its end), so that a record is never held while nothing follows.
    func flushRecords()
    /// Whether the process exists only for this run (a worker), so that messages plugins log on
    /// threads of their own belong to it too. Otherwise only messages logged on the run's thread
    /// become its records, and the others go to the process's log handler (stderr by default).
    var ownsProcess: Bool { get }
}

extension RunOutput {
    public func begin(_ event: Event) { begin(event: event.number, line: event.line) }
    public func begin(_ event: Event, pluginCodeMayRun: Bool) { begin(event) }
    public func announce(_ phase: RunPhase) {}
    public func alive() {}
    public func flushRecords() {}
    public var ownsProcess: Bool { false }
}

/// A step of a run, before the first display, that runs plugin code.
public enum RunPhase: Sendable, Equatable {
    /// dlopen, the entry symbol, the descriptor's checks and the plugin's `init`.
    case loading(plugin: String)
    /// An item's `set` (or a handler's) applied to its configuration while the scene is checked.
    case setting(item: String, property: String, line: Int)
}

/// One run: load plugins, read the scene, run the first display and every event through the
/// engine, write frames, and report every step as a trace record. The end record says how it ended.
public enum RunSession {
    /// Plugins' log messages become records of `output` too (see `PluginLogRelay`), whichever
    /// process runs the plugins; all of them are out before this returns the end.
    public static func run(_ options: RunOptions, output: some RunOutput) -> TraceEnd {
        let relay = PluginLogRelay(output: output)
        return relay.relayingLogs { run(options, relay: relay) }
    }

    private static func run(_ options: RunOptions, relay output: PluginLogRelay) -> TraceEnd {
        /// A message saying why the run stopped, followed by what a plugin logged just before:
        /// a plugin that refuses says why in its log, and the reader should not have to look for it.
        func quotingTheLog(_ message: String) -> String {
            output.lastMessageQuote.map { "\(message); \($0)" } ?? message
        }
        // Plugins first: the embedded stream includes a cell of each loaded type. Each is opened
        // from the folder the run started in, whatever an earlier plugin's init did to the
        // working directory; the paths used after loading were made absolute before it.
        let startFolder = open(".", O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        defer { if startFolder >= 0 { close(startFolder) } }
        let registry = PluginRegistry()
        var problems: [String] = []
        if options.plugins.isEmpty {
            for path in samplePluginPaths() {
                output.announce(.loading(plugin: path))
                if startFolder >= 0 { fchdir(startFolder) }
                do { try registry.load(path) } catch {
                    if case .missingEntry = error.reason { continue }
                    problems.append("sample plugin skipped: \(error)")
                }
            }
        } else {
            for path in options.plugins {
                output.announce(.loading(plugin: path))
                if startFolder >= 0 { fchdir(startFolder) }
                do { try registry.load(path) } catch {
                    return TraceEnd(outcome: .pluginLoadFailed, events: 0, frames: 0,
                                    message: quotingTheLog(error.description))
                }
            }
        }
        let plugins = PluginConfigurationProvider(registry: registry)
        var catalog = ConfigurationCatalog()
        catalog.add(plugins)

        // The scene: every line up to the first event.
        let reader: LineReader?
        var embeddedLines: [Substring] = []
        if let path = options.events {
            do { reader = try LineReader(path: path) } catch {
                return TraceEnd(outcome: .badInput, events: 0, frames: 0, message: error.description)
            }
        } else {
            reader = nil
            embeddedLines = EmbeddedStream.text(pluginTypes: plugins.typeIdentifiers.sorted())
                .split(separator: "\n", omittingEmptySubsequences: false)
        }
        var embeddedIndex = 0
        var parser = EventStreamParser(source: options.sourceName)
        var lineNumber = 0
        /// Parses the next line: nil at the end of the stream, else the event it holds, if any.
        func parseNextLine() throws(EventStreamError) -> Event?? {
            if let reader {
                guard let bytes = reader.nextLineBytes() else { return nil }
                lineNumber += 1
                return .some(try parser.parse(line: bytes, lineNumber: lineNumber))
            }
            guard embeddedIndex < embeddedLines.count else { return nil }
            defer { embeddedIndex += 1 }
            lineNumber += 1
            return .some(try parser.parse(line: String(embeddedLines[embeddedIndex]), lineNumber: lineNumber))
        }

        var firstEvent: Event?
        do {
            while firstEvent == nil, let parsed = try parseNextLine() { firstEvent = parsed }
            if firstEvent == nil { try parser.finish() }
        } catch {
            return TraceEnd(outcome: .badInput, events: 0, frames: 0, failedEvent: nil, message: error.description)
        }
        if parser.scene.sections.isEmpty {
            return TraceEnd(outcome: .badInput, events: 0, frames: 0,
                            message: "\(options.sourceName):\(max(1, lineNumber)): the stream describes no list: it ended without an \"item\" line")
        }

        let textEngine: TextEngine
        do { textEngine = try TextEngine() } catch {
            return TraceEnd(outcome: .internalError, events: 0, frames: 0, message: "no usable font: \(error)")
        }
        if let dir = options.framesDirectory {
            do { try makeDirectories(dir) } catch {
                return TraceEnd(outcome: .internalError, events: 0, frames: 0, message: error.description)
            }
        }
        var scene = parser.scene
        var captureSuffix = ""
        if let index = options.matrixCombination {
            let combinations = scene.matrix?.combinations ?? []
            guard combinations.indices.contains(index) else {
                return TraceEnd(outcome: .badInput, events: 0, frames: 0,
                                message: "\(options.sourceName): the stream has no trait matrix combination \(index + 1) (it has \(combinations.count))")
            }
            combinations[index].traits.apply(to: &scene.traits)
            captureSuffix = "." + combinations[index].name
        }
        let writesNumberedFrames = options.framesDirectory != nil && !options.capturesOnly
        let renderer = CompositorRenderer(viewport: scene.viewport, scale: Int(scene.scale), textEngine: textEngine,
                                          showsDamage: options.showsDamage,
                                          writesFrames: writesNumberedFrames || options.contactSheet != nil,
                                          keepsThumbnails: options.contactSheet != nil)
        let framesDirectory = options.capturesOnly ? nil
            : options.framesDirectory ?? (options.contactSheet != nil ? options.scratchDirectory ?? scratchDirectory() : nil)
        let engine: Engine
        do {
            var engineOptions = Engine.Options(textMeasurer: textEngine, renderer: renderer, framesDirectory: framesDirectory)
            engineOptions.capturesDirectory = options.framesDirectory
            engineOptions.framesOnlyForCaptures = options.framesOnlyForCaptures
            engineOptions.captureSuffix = captureSuffix
            engineOptions.willSetPluginProperty = { [unowned output] in output.announce(.setting(item: $0, property: $1, line: $2)) }
            engine = try Engine(scene: scene, catalog: catalog, options: engineOptions, itemIndexes: parser.sceneItemIndexes)
        } catch {
            return TraceEnd(outcome: .badInput, events: 0, frames: 0,
                            message: quotingTheLog("\(options.sourceName):\(error.line.map { "\($0):" } ?? "") \(error.message)"))
        }

        engine.onFrame = { [unowned output] in output.alive() }
        output.record(.header(engine.traceHeader(source: options.sourceName, plugins: plugins.pluginSummaries)))
        var eventsRun = 0
        /// The contact sheet's label of each frame so far, in frame order.
        var frameLabels: [String] = []
        func fail(_ error: EngineError, event: Int) -> TraceEnd {
            _ = engine.finish()
            return TraceEnd(outcome: .badInput, events: eventsRun, frames: engine.frameCount, failedEvent: event,
                            message: quotingTheLog("\(options.sourceName):\(error.line.map { "\($0):" } ?? "") \(error.message)"),
                            timings: engine.totals)
        }
        /// Ends the run at `event` when a plugin handed the host a value it could not use; the
        /// event's record is not written, as for a plugin that crashed in it.
        func faulted(event: Event?) -> TraceEnd? {
            guard let fault = PluginFaults.take() else { return nil }
            _ = engine.finish()
            let during = event.map { "at event #\($0.number) (\(options.sourceName):\($0.line))" } ?? "during the first display"
            return TraceEnd(outcome: .pluginFault, events: eventsRun, frames: engine.frameCount, failedEvent: event?.number ?? 0,
                            message: quotingTheLog("\(fault) \(during)"), timings: engine.totals)
        }
        do {
            output.begin(event: 0, line: 0)
            var first = try engine.start()
            if let end = faulted(event: nil) { return end }
            first.problems = problems
            if options.contactSheet != nil { frameLabels += contactSheetLabels(first) }
            output.record(.event(first))
        } catch {
            return fail(error, event: 0)
        }
        var pending = firstEvent
        // Standard input or a pipe may keep the next line waiting; a file or the embedded stream
        // does not.
        let readingMayWait = options.events.map { path in
            var status = stat()
            return stat(path, &status) != 0 || status.st_mode & S_IFMT != S_IFREG
        } ?? false
        while true {
            if pending == nil {
                if readingMayWait { output.flushRecords() }
                let parsed: Event??
                do { parsed = try parseNextLine() } catch {
                    _ = engine.finish()
                    return TraceEnd(outcome: .badInput, events: eventsRun, frames: engine.frameCount,
                                    failedEvent: parser.eventCount, message: error.description, timings: engine.totals)
                }
                guard let parsed else { output.flushRecords(); break }
                pending = parsed
                if pending == nil { continue }
            }
            guard let event = pending else { continue }
            pending = nil
            output.begin(event, pluginCodeMayRun: engine.pluginCodeMayRun(during: event))
            do {
                let record = try engine.run(event)
                if let end = faulted(event: event) { return end }
                if options.contactSheet != nil { frameLabels += contactSheetLabels(record) }
                output.record(.event(record))
            } catch { return fail(error, event: event.number) }
            eventsRun += 1
        }
        let writeFailure = engine.finish()
        if let sheet = options.contactSheet {
            do { try renderer.writeContactSheet(to: sheet, labels: frameLabels) } catch {
                return TraceEnd(outcome: .internalError, events: eventsRun, frames: engine.frameCount, message: error.description,
                                timings: engine.totals)
            }
            if options.framesDirectory == nil, let dir = framesDirectory { removeFrames(in: dir, count: engine.frameCount) }
        }
        if let writeFailure {
            return TraceEnd(outcome: .internalError, events: eventsRun, frames: engine.frameCount, message: writeFailure,
                            timings: engine.totals)
        }
        return TraceEnd(outcome: .ok, events: eventsRun, frames: engine.frameCount, timings: engine.totals)
    }

    /// The contact sheet's labels of an event's frames: its number and summary under each, and
    /// how far an animation's intermediate frame is, so its frames tell apart.
    static func contactSheetLabels(_ event: TraceEvent) -> [String] {
        guard !event.frames.isEmpty else { return [] }
        let summary = thumbnailSummary(event.summary)
        return event.frames.map { frame in
            "#\(event.number) " + (frame.progress.map { "\(Int(($0 * 100).rounded()))% " } ?? "") + summary
        }
    }

    /// A summary that fits under a thumbnail: what changed comes first, so a label cut short
    /// still says it — "highlighted (5 cells)" for "a,b,c,d,e: highlighted".
    static func thumbnailSummary(_ summary: String) -> String {
        guard let colon = summary.range(of: ": ") else { return summary }
        let targets = summary[..<colon.lowerBound].split(separator: ",")
        guard targets.count > 2 else { return summary }
        return "\(summary[colon.upperBound...]) (\(targets.count) cells)"
    }

    /// The `.so` files in the executable's directory: where the package builds its sample plugins.
    public static func samplePluginPaths(directory: String? = nil) -> [String] {
        let dir = directory ?? {
            let exe = executablePath()
            return exe.lastIndex(of: "/").map { String(exe[..<$0]) } ?? "."
        }()
        return (directoryEntries(dir) ?? []).filter { $0.hasPrefix("lib") && $0.hasSuffix(".so") }.map { dir + "/" + $0 }
    }

    static func executablePath() -> String {
        var buffer = [CChar](repeating: 0, count: 4097)
        let n = readlink("/proc/self/exe", &buffer, 4096)
        guard n > 0 else { return CommandLine.arguments.first ?? "" }
        return String(decoding: buffer[0..<n].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// Frames needed only for the contact sheet go to a scratch directory removed afterwards.
    static func scratchDirectory() -> String? {
        makeTemporaryDirectory(prefix: "cellhost-frames")
    }

    static func removeFrames(in dir: String, count: Int) {
        guard count > 0 else { rmdir(dir); return }
        for i in 1...count { HostWriteMark.remove(dir + "/" + Engine.frameFileName(i)) }
        rmdir(dir)
    }
}

extension RunSession {
    /// Plays a run into `sinks` and closes them with its end record, however the run ends. The
    /// returned end says how it went; a sink that cannot be completed is thrown, since then the
    /// files the caller asked for are not there.
    public static func play(_ options: RunOptions, into sinks: [any TraceSink],
                            isolation: RunIsolation) throws(SinkError) -> TraceEnd {
        let recorder = TraceRecorder(sink: TraceFanOut(sinks))
        let end = switch isolation {
        case .inProcess: run(options, output: recorder)
        case .worker(let eventTimeout): Supervisor.run(options, recorder: recorder, timeout: eventTimeout)
        }
        try recorder.end(end)
        return end
    }
}
