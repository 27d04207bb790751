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

    /// Hands what the sinks batched to the kernel: the run is about to wait.
    public func flushRecords() { sink.flush() }

    /// Writes the end record and closes every sink.
    public func end(_ end: TraceEnd) throws(SinkError) {
        sink.write(.end(end))
        try sink.finish()
    }
}

/// What a run's worker sends, one channel frame each (see `ChannelFrame`); records in
/// `TraceRecordWire`'s form.
enum RunFrameKind: UInt8 {
    /// event, line, summary (optional): the event about to run.
    case begin = 0x10
    /// plugin: about to load it.
    case loading = 0x11
    /// item, property, line: about to apply an item's set in plugin code.
    case setting = 0x12
    /// Nothing: proof of life inside an event.
    case alive = 0x13
    /// A trace record.
    case record = 0x14
}

/// The worker's side of the channel: each record and step is encoded once, in a buffer reused
/// for every frame. An event's summary is spelled out once, for its begin frame (which names
/// the event a crash or hang happened in); its record leaves it out. An event's record is held
/// back and goes out in one `write` with the next event's begin (or whatever frame comes
/// first, or at `flushRecords()`), so a run costs one channel write per event. An event in
/// which no plugin code may run holds its begin and its frames too, so such events share
/// writes (within `WorkerChannel`'s bounds): everything held is out before plugin code runs
/// again, and before the worker may wait for input. Only a failure of cellhost's own code (a
/// bug) can end the worker meanwhile; it loses what is held, within those bounds, and is
/// reported at the last event whose begin went out.
public final class ChannelOutput: RunOutput {
    private let channel: WorkerChannel
    private var writer = TraceWireWriter()
    /// The event whose begin frame carried its summary, until its record is sent.
    private var begunWithSummary: Int?
    /// Whether the running event's frames are held: no plugin code may run in it.
    private var holdsEventFrames = false
    /// Fault injection for the tests of crash attribution: the worker traps in its own code as
    /// this event begins (`CELLHOST_TEST_HOST_TRAP_AT_EVENT`), as a host bug would. Read once.
    private let hostTrapEvent: Int?
    static let hostTrapEventKey = "CELLHOST_TEST_HOST_TRAP_AT_EVENT"

    public init(channel: WorkerChannel) {
        self.channel = channel
        hostTrapEvent = getenv(Self.hostTrapEventKey).flatMap { Int(String(cString: $0)) }
    }

    /// The channel of this process when a supervisor started it as its worker; nil otherwise.
    public static func fromEnvironment() -> ChannelOutput? { WorkerChannel.fromEnvironment().map(ChannelOutput.init) }

    private func send(_ kind: RunFrameKind, holding: Bool = false, _ encode: (inout TraceWireWriter) -> Void) {
        writer.reset()
        encode(&writer)
        writer.bytes.withUnsafeBytes { _ = channel.send(kind: kind.rawValue, payload: $0, holding: holding) }
    }

    public func begin(event: Int, line: Int) {
        begunWithSummary = nil
        holdsEventFrames = false
        send(.begin) { $0.int(event); $0.int(line); $0.optional(String?.none) { $0.string($1) } }
    }

    public func begin(_ event: Event) { begin(event, pluginCodeMayRun: true) }

    public func begin(_ event: Event, pluginCodeMayRun: Bool) {
        begunWithSummary = event.number
        holdsEventFrames = !pluginCodeMayRun
        send(.begin, holding: holdsEventFrames) {
            $0.int(event.number); $0.int(event.line); $0.optional(EventSummary(describing: event.actions).description) { $0.string($1) }
        }
        if event.number == hostTrapEvent { preconditionFailure("the trap \(Self.hostTrapEventKey) asked for at event #\(event.number)") }
    }

    public func announce(_ phase: RunPhase) {
        switch phase {
        case .loading(let plugin): send(.loading) { $0.string(plugin) }
        case .setting(let item, let property, let line): send(.setting) { $0.string(item); $0.string(property); $0.int(line) }
        }
    }

    public func record(_ record: TraceRecord) {
        guard case .event(let e) = record else { return send(.record) { $0.record(record) } }
        // The engine's summary of an event is that of its actions, which its begin carried.
        let omitsSummary = begunWithSummary == e.number
        begunWithSummary = nil
        send(.record, holding: true) { $0.record(record, omittingSummary: omitsSummary) }
    }

    public func flushRecords() { channel.flush() }

    public func alive() { send(.alive, holding: holdsEventFrames) { _ in } }

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
        var intake = RecordIntake(recorder: recorder, sourceName: options.sourceName, framesDirectory: options.framesDirectory)
        let result: WorkerResult
        do {
            result = try worker.supervise(limits: WorkerLimits(idleSeconds: timeout), onFrame: { frame in intake.accept(frame) },
                                          whileWaiting: { intake.releaseCommitted() },
                                          whenQuiet: { recorder.flushRecords() })
        } catch {
            return TraceEnd(outcome: .internalError, events: recorder.eventsRecorded, frames: recorder.frameFiles.count,
                            message: error.description)
        }
        // Whatever happened, the records still waiting for their frames go to the sinks now,
        // without the names of frames that never reached the disk.
        let lost = intake.releaseAll()
        let end = intake.end
        let phase = intake.phase
        let eventSummary = intake.eventSummary
        let loadedPlugins = intake.loadedPlugins
        if let end, result.termination.isSuccess { return end }
        // The worker was ended or died: what it left half-written goes too, also the frame of an
        // event no record names.
        _ = recoverFrames(in: options.framesDirectory, names: [])
        if case .interrupted(let signal) = result.termination {
            return TraceEnd(outcome: .interrupted, events: recorder.eventsRecorded, frames: recorder.frameFiles.count,
                            message: "interrupted by \(signalName(signal)) after \(recorder.eventsRecorded) events; the worker was ended")
        }

        var outcome: TraceEnd.Outcome
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
                                       rerun: "cellhost run --in-process …", executable: executable)
        // A check failed in cellhost's own code: its bug, named with the input it met.
        if report.isHostFailure { outcome = .internalError }
        if !lost.isEmpty {
            report.sentence += "; \(lost.count) frame\(lost.count == 1 ? " was" : "s were") still being encoded and \(lost.count == 1 ? "is" : "are") lost (\(lost.joined(separator: ", ")); the trace does not name \(lost.count == 1 ? "it" : "them"))"
        }
        let message = report.text
        return TraceEnd(outcome: outcome, events: recorder.eventsRecorded, frames: recorder.frameFiles.count,
                        failedEvent: failed?.number, message: message)
    }

    /// Removes what frames still being encoded left (hidden partial files of any frame) and
    /// returns those of `names` that were never written: a frame appears under its name only
    /// once complete.
    static func recoverFrames(in dir: String?, names: [String]) -> [String] {
        guard let dir else { return [] }
        let framePartial = FileReplacer.partialPrefix(for: "frame-").dropLast(".partial-".count)  // ".frame-"
        for entry in directoryEntries(dir) ?? [] where entry.hasPrefix(framePartial) && entry.contains(".partial-") {
            unlink(dir + "/" + entry)
        }
        return names.filter { access(dir + "/" + $0, F_OK) != 0 }
    }
}
