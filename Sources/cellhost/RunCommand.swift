import ArgumentParser
import CellIO
import CellProcess
import CellReport
import CellRuntime
import Glibc

/// `cellhost run`: plays an event stream through a list of cells and shows what happened.
struct RunCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "run",
        abstract: "Run an event stream through a list of built-in and plugin cells and trace every update.",
        discussion: """
            Without --events, runs an embedded stream: built-in and plugin cells through the seven \
            demo states of WWDC20 "Modern cell configuration", dark mode and an accessibility text size. \
            Without --plugin, loads the sample plugins built next to the cellhost executable.

            The stream runs in a worker process, so a plugin that crashes, hangs past --timeout or \
            exits is reported with the event it died on, and every trace written up to that event \
            is complete. --timeout bounds each event (default \(Int(RunIsolation.defaultEventTimeout)) s; \
            with --events - only when given). --in-process runs without the worker (for debuggers).

            On Linux the worker runs sandboxed: it may read the plugins, the stream, fonts and \
            system libraries and write only the output folders; it may not open sockets, start \
            processes, signal other processes or use more than --memory-limit of memory. A plugin \
            that tries is reported with the event and what it tried. --no-sandbox and \
            --in-process drop the sandbox and say so on stderr. SIGINT, SIGTERM or SIGHUP end the \
            worker and commit every trace up to the last complete event.

            Event streams are JSON Lines; see SDK/schema/events.schema.json and SDK/schema/examples.

            \(CellhostExitCode.table)
            """)

    @Option(name: .customLong("plugin"), help: ArgumentHelp("A plugin .so to load (repeatable).", valueName: "path"))
    var plugins: [String] = []

    @Option(help: ArgumentHelp("The event stream (JSON Lines); - reads standard input as it arrives.", valueName: "file|-"))
    var events: String?

    @Option(help: ArgumentHelp("Write trace.jsonl, trace.chrome.json, frames/, contact-sheet.png and report.html into this directory.",
                               valueName: "dir"))
    var out: String?

    @Option(help: ArgumentHelp("Write the JSONL trace (cellhost.trace/1) here.", valueName: "file"))
    var trace: String?

    @Option(name: .customLong("chrome-trace"),
            help: ArgumentHelp("Write a Chrome Trace Event file (Perfetto, chrome://tracing) here.", valueName: "file"))
    var chromeTrace: String?

    @Option(help: ArgumentHelp("Write PNG frames (frame-0001.png …) into this directory; `captures` writes only the frames "
                               + "of capture events, into --out's frames/ (a folder named captures is ./captures).",
                               valueName: "dir|captures"))
    var frames: String?

    /// `--frames captures`: a word, not a folder.
    static let capturesOnlyWord = "captures"
    @Option(help: ArgumentHelp("Write the HTML report (report.html: each event's frame, damage and property changes) here.",
                               valueName: "file"))
    var report: String?

    @OptionGroup var watchdog: TimeoutOption

    @Flag(name: .customLong("in-process"), help: "Run without a worker process (a crash ends cellhost too).")
    var inProcess = false

    @Flag(name: .customLong("show-damage"), help: "Tint the repainted region of every frame.")
    var showDamage = false

    @Option(name: .customLong("memory-limit"),
            help: ArgumentHelp("The worker's address-space limit: bytes, or a number with K, M or G (default 2G).",
                               valueName: "bytes"))
    var memoryLimit: String?

    @Flag(name: .customLong("no-sandbox"), help: "Run the worker without its sandbox and memory limit.")
    var noSandbox = false

    @OptionGroup var output: OutputOptions

    func validate() throws {
        if let memoryLimit, WorkerSandbox.parseMemoryLimit(memoryLimit) == nil {
            throw ValidationError("--memory-limit must be a number of bytes, or a number with K, M or G (2G): \(memoryLimit)")
        }
        if let events, events != "-", access(events, R_OK) != 0 {
            throw ValidationError("cannot read the event stream \(events): \(String(cString: strerror(errno)))")
        }
        if frames == Self.capturesOnlyWord, out == nil {
            throw ValidationError("--frames captures writes the frames of capture events into --out DIR's frames/: give --out "
                                  + "(or --frames ./captures for a folder named captures)")
        }
    }

    func run() throws {
        let onlyCaptures = frames == Self.capturesOnlyWord
        let plan = RunOutputPlan(directory: out, trace: trace, chromeTrace: chromeTrace, frames: onlyCaptures ? nil : frames,
                                 report: report)
        let memory = memoryLimit.flatMap(WorkerSandbox.parseMemoryLimit) ?? WorkerSandbox.defaultMemoryLimit
        var options = RunOptions(events: events, plugins: plugins, framesDirectory: plan.framesDirectory,
                                 contactSheet: plan.contactSheet, showsDamage: showDamage,
                                 sandbox: noSandbox ? .off : .on(memoryLimit: memory))
        options.framesOnlyForCaptures = onlyCaptures
        IsolationNotice.print("run", inProcess: inProcess, sandboxed: !noSandbox)
        let isolation: RunIsolation = inProcess ? .inProcess : .worker(eventTimeout: watchdog.timeout, for: options)
        let end: TraceEnd
        let frameFiles = FrameFileCount()
        do throws(SinkError) {
            var sinks: [any TraceSink] = []
            if !output.quiet {
                let colors = Console.outputIsTerminal && getenv("NO_COLOR") == nil
                sinks.append(TraceTableWriter(colors: colors) { line in Console.out(line) })
            }
            sinks += try plan.openTraceSinks()
            sinks.append(frameFiles)
            if let page = try plan.openReportSink() { sinks.append(page) }
            if !output.quiet, Console.errorIsTerminal {
                sinks.append(ProgressLine(totalLines: options.eventLineCount) { Console.error($0) })
            }
            end = try RunSession.play(options, into: sinks, isolation: isolation)
        } catch {
            output.error("run", error.description)
            throw CellhostExitCode.outputNotWritten.error
        }
        let code = CellhostExitCode(end.outcome)
        guard code == .success else {
            // The table already says it on a terminal; otherwise stderr must.
            if output.quiet || !Console.outputIsTerminal {
                output.error("run", end.message ?? CellhostExitCode(end.outcome).meaning)
            }
            throw code.error
        }
        if let summary = plan.summary(frameCount: frameFiles.count) { output.note(summary) }
    }
}

/// The frame files a run wrote, as its trace names them: a frame that repeats the one before
/// names that frame's file, so the files are fewer than the frames.
private final class FrameFileCount: TraceSink {
    private var names = Set<String>()
    var count: Int { names.count }
    func write(_ record: TraceRecord) {
        if case .event(let e) = record { for f in e.frames { if let file = f.file { names.insert(file) } } }
    }
    func finish() throws(SinkError) {}
}

/// The worker side of `cellhost run`: runs the stream and streams trace records to the
/// supervisor over the channel the supervisor opened. Not for direct use.
struct RunWorkerCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: Supervisor.workerCommand, abstract: "Internal: the worker process of cellhost run.",
        shouldDisplay: false)

    @Option(name: .customLong("plugin")) var plugins: [String] = []
    @Option var events: String?
    @Option var frames: String?
    @Option(name: .customLong("contact-sheet")) var contactSheet: String?
    @Flag(name: .customLong("show-damage")) var showDamage = false
    @Flag(name: .customLong("captures-only")) var capturesOnly = false
    @Flag(name: .customLong("frames-only-for-captures")) var framesOnlyForCaptures = false
    @Option(name: .customLong("matrix-combination")) var matrixCombination: Int?

    func run() throws {
        WorkerSandbox.dieWithSupervisor()
        guard let output = ChannelOutput.fromEnvironment() else {
            throw ValidationError("\(Supervisor.workerCommand) runs only under `cellhost run` (no supervisor channel)")
        }
        let options: RunOptions
        do {
            var given = RunOptions(events: events, plugins: plugins, framesDirectory: frames, contactSheet: contactSheet,
                                   showsDamage: showDamage, capturesOnly: capturesOnly, matrixCombination: matrixCombination)
            given.framesOnlyForCaptures = framesOnlyForCaptures
            options = try given.enteringWorkerSandbox()
        } catch {
            output.record(.end(TraceEnd(outcome: .internalError, events: 0, frames: 0, message: "\(error)")))
            return
        }
        let end = RunSession.run(options, output: output)
        output.record(.end(end))
    }
}
