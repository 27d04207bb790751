import CellIO
import Glibc
import CellProcess
import CellRender

/// Feeds every sink from a run's records and remembers where the run is, so however the run
/// ends — finished, bad input, a plugin that crashed or hung — the sinks get one end record and
/// are closed into complete files.
public final class TraceRecorder: RunOutput {
    public let sink: any TraceSink
    /// The event running now (begun, no record yet) and its stream line.
    public private(set) var currentEvent: (number: Int, line: Int)?
    public private(set) var lastEventRecord: TraceEvent?
    public private(set) var frameFiles: [String] = []
    public private(set) var eventsRecorded = 0

    public init(sink: any TraceSink) { self.sink = sink }

    public func begin(event: Int, line: Int) { currentEvent = (event, line) }

    public func record(_ record: TraceRecord) {
        if case .event(let e) = record {
            currentEvent = nil
            lastEventRecord = e
            if e.number > 0 { eventsRecorded += 1 }
            frameFiles += e.frames.compactMap(\.file)
        }
        sink.write(record)
    }

    /// Writes the end record and closes every sink.
    public func end(_ end: TraceEnd) throws(SinkError) {
        sink.write(.end(end))
        try sink.finish()
    }
}

/// The worker's side of the channel: records as `cellhost.trace/1` lines, plus `begin` lines.
public final class ChannelOutput: RunOutput {
    private let channel: WorkerChannel
    public init(channel: WorkerChannel) { self.channel = channel }

    /// The channel of this process when a supervisor started it as its worker; nil otherwise.
    public static func fromEnvironment() -> ChannelOutput? { WorkerChannel.fromEnvironment().map(ChannelOutput.init) }

    public func begin(event: Int, line: Int) {
        channel.send(JSON.object([("record", .string("begin")), ("event", .int(Int64(event))), ("line", .int(Int64(line)))]).serialized)
    }

    public func begin(_ event: Event) {
        channel.send(JSON.object([("record", .string("begin")), ("event", .int(Int64(event.number))), ("line", .int(Int64(event.line))),
                                  ("summary", .string(EventSummary(describing: event.actions).description))]).serialized)
    }

    public func announce(_ phase: RunPhase) {
        let fields: [(String, JSON)] = switch phase {
        case .loading(let plugin): [("loading", .string(plugin))]
        case .setting(let item, let property, let line):
            [("item", .string(item)), ("set", .string(property)), ("line", .int(Int64(line)))]
        }
        channel.send(JSON.object([("record", .string("phase"))] + fields).serialized)
    }

    public func record(_ record: TraceRecord) { channel.send(record.json.serialized) }

    public func alive() { channel.send(#"{"record":"alive"}"#) }

    /// A worker runs one stream and exits.
    public var ownsProcess: Bool { true }
}

/// Runs a stream in a worker process and writes the sinks from the records it streams back. A
/// plugin that crashes, hangs past the per-event timeout or exits is reported with the event it
/// died on; the traces up to that event stay complete and valid.
public enum Supervisor {
    /// The hidden subcommand the worker runs as.
    public static let workerCommand = "run-worker"

    public static func workerArguments(_ options: RunOptions) -> [String] {
        var args = [workerCommand]
        if let events = options.events { args += ["--events", events] }
        for p in options.plugins { args += ["--plugin", p] }
        if let f = options.framesDirectory { args += ["--frames", f] }
        if let c = options.contactSheet { args += ["--contact-sheet", c] }
        if options.showsDamage { args.append("--show-damage") }
        if options.capturesOnly { args.append("--captures-only") }
        if options.framesOnlyForCaptures { args.append("--frames-only-for-captures") }
        if let m = options.matrixCombination { args += ["--matrix-combination", String(m)] }
        return args
    }

    /// `timeout`: longest silence of the worker (one event, or loading plugins) before it is
    /// stopped; nil = none.
    public static func run(_ options: RunOptions, recorder: TraceRecorder, timeout: Double?,
                           executable: String = WorkerProcess.currentExecutablePath) -> TraceEnd {
        let worker = WorkerProcess(executable: executable, arguments: workerArguments(options),
                                   inheritsStandardInput: options.events == "-", sandbox: options.sandbox)
        var end: TraceEnd?
        var protocolProblem: String?
        /// The last announced step outside events, cleared when an event begins.
        var phase: String?
        var eventSummary: String?
        var loadedPlugins: [String] = []
        let result: WorkerResult
        do {
            result = try worker.run(limits: WorkerLimits(idleSeconds: timeout)) { line in
                guard protocolProblem == nil else { return }
                guard let json = try? JSON.parse(line), let kind = json["record"]?.stringValue else {
                    protocolProblem = "the worker sent a line that is not a trace record: \(line.prefix(120))"
                    return
                }
                if kind == "alive" { return }  // Only resets the watchdog.
                if kind == "begin" {
                    recorder.begin(event: Int(json["event"]?.intValue ?? 0), line: Int(json["line"]?.intValue ?? 0))
                    eventSummary = json["summary"]?.stringValue
                    phase = nil
                    return
                }
                if kind == "phase" {
                    if let plugin = json["loading"]?.stringValue {
                        phase = "while loading \(plugin)"
                        loadedPlugins.append(plugin)
                    } else if let item = json["item"]?.stringValue, let property = json["set"]?.stringValue {
                        phase = "while applying item \"\(item)\"'s set of \"\(property)\" (\(options.sourceName):\(json["line"]?.intValue ?? 0))"
                    }
                    return
                }
                do {
                    let record = try TraceRecord(json: json)
                    // The header follows the scene check: the announced steps are over.
                    if case .header = record { phase = nil }
                    if case .end(let e) = record { end = e } else { recorder.record(record) }
                } catch {
                    protocolProblem = "the worker sent a malformed \(kind) record: \(error)"
                }
            }
        } catch {
            return TraceEnd(outcome: .internalError, events: recorder.eventsRecorded, frames: recorder.frameFiles.count,
                            message: error.description)
        }
        if let protocolProblem {
            return TraceEnd(outcome: .internalError, events: recorder.eventsRecorded, frames: recorder.frameFiles.count,
                            message: protocolProblem)
        }
        if let end, result.termination.isSuccess { return end }
        if case .interrupted(let signal) = result.termination {
            _ = recoverFrames(in: options.framesDirectory, names: recorder.frameFiles)
            return TraceEnd(outcome: .interrupted, events: recorder.eventsRecorded, frames: recorder.frameFiles.count,
                            message: "interrupted by \(signalName(signal)) after \(recorder.eventsRecorded) events; the worker was ended")
        }

        // The worker died. Keep the frames that were completely written before it did.
        let lost = recoverFrames(in: options.framesDirectory, names: recorder.frameFiles)
        let outcome: TraceEnd.Outcome
        switch result.termination {
        case .timedOut: outcome = .pluginHung
        default: outcome = .pluginCrashed
        }
        let failed = recorder.currentEvent
        var during: String?
        if let failed {
            during = failed.number == 0 ? "during the first display"
                : "at event #\(failed.number) (\(options.sourceName):\(failed.line)\(eventSummary.map { ": " + $0 } ?? ""))"
        } else if let phase {
            during = phase
        } else if let last = recorder.lastEventRecord {
            during = "after event #\(last.number)"
        }
        var report = WorkerDeathReport(result, phase: during, pluginFiles: loadedPlugins,
                                       rerun: "cellhost run --in-process …")
        if !lost.isEmpty {
            report.sentence += "; \(lost.count) frame\(lost.count == 1 ? " was" : "s were") still being encoded and \(lost.count == 1 ? "is" : "are") lost (\(lost.joined(separator: ", ")))"
        }
        let message = report.text
        return TraceEnd(outcome: outcome, events: recorder.eventsRecorded, frames: recorder.frameFiles.count,
                        failedEvent: failed?.number, message: message)
    }

    /// Removes what frames still being encoded left (hidden partial files) and returns the names
    /// of the frames that were never written: a frame appears under its name only once complete.
    static func recoverFrames(in dir: String?, names: [String]) -> [String] {
        guard let dir else { return [] }
        var lost: [String] = []
        let entries = directoryEntries(dir) ?? []
        for name in names {
            let partial = FileReplacer.partialPrefix(for: name)
            for entry in entries where entry.hasPrefix(partial) { unlink(dir + "/" + entry) }
            if access(dir + "/" + name, F_OK) != 0 { lost.append(name) }
        }
        return lost
    }
}
