import CellIO
import ArgumentParser
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
            is complete. --in-process runs without the worker (for debuggers).

            Event streams are JSON Lines; see SDK/schema/events.schema.json and SDK/schema/examples.

            Exit codes:
              0  the stream ran to the end
              1  bad input: a malformed stream line, an unknown item, property or type
              2  usage: bad command-line arguments
              3  a plugin failed to load
              4  a plugin crashed, hung past --timeout or exited during the run
              5  an output file or frame could not be written
            """)

    @Option(name: .customLong("plugin"), help: ArgumentHelp("A plugin .so to load (repeatable).", valueName: "path"))
    var plugins: [String] = []

    @Option(help: ArgumentHelp("The event stream (JSON Lines); - reads standard input as it arrives.", valueName: "file|-"))
    var events: String?

    @Option(help: ArgumentHelp("Write trace.jsonl, trace.chrome.json, frames/ and contact-sheet.png into this directory.",
                               valueName: "dir"))
    var out: String?

    @Option(help: ArgumentHelp("Write the JSONL trace (cellhost.trace/1) here.", valueName: "file"))
    var trace: String?

    @Option(name: .customLong("chrome-trace"),
            help: ArgumentHelp("Write a Chrome Trace Event file (Perfetto, chrome://tracing) here.", valueName: "file"))
    var chromeTrace: String?

    @Option(help: ArgumentHelp("Write PNG frames (frame-0001.png …) into this directory.", valueName: "dir"))
    var frames: String?

    @Option(help: ArgumentHelp("Stop a plugin that spends longer than this on one event (default 10; with --events - only when given).",
                               valueName: "seconds"))
    var timeout: Double?

    @Flag(name: .customLong("in-process"), help: "Run without a worker process (a crash ends cellhost too).")
    var inProcess = false

    @Flag(help: "Do not print the trace table on stdout.")
    var quiet = false

    @Flag(name: .customLong("show-damage"), help: "Tint the repainted region of every frame.")
    var showDamage = false

    func validate() throws {
        if let timeout, !(timeout > 0) { throw ValidationError("--timeout must be a positive number of seconds") }
        if let events, events != "-", access(events, R_OK) != 0 {
            throw ValidationError("cannot read the event stream \(events): \(String(cString: strerror(errno)))")
        }
    }

    func run() throws {
        var options = RunOptions(events: events, plugins: plugins, showsDamage: showDamage)
        var tracePath = trace, chromePath = chromeTrace
        options.framesDirectory = frames
        if let out {
            do { try makeDirectories(out) } catch { return fail(error.description, code: ExitStatus.outputFailed) }
            tracePath = tracePath ?? out + "/trace.jsonl"
            chromePath = chromePath ?? out + "/trace.chrome.json"
            options.framesDirectory = options.framesDirectory ?? out + "/frames"
            options.contactSheet = out + "/contact-sheet.png"
        }

        var sinks: [any TraceSink] = []
        do {
            if !quiet {
                let colors = isatty(1) == 1 && getenv("NO_COLOR") == nil
                sinks.append(TraceTableWriter(colors: colors) { line in Console.out(line) })
            }
            if let tracePath { sinks.append(try JSONLTraceWriter(path: tracePath)) }
            if let chromePath { sinks.append(try ChromeTraceWriter(path: chromePath)) }
        } catch {
            return fail(error.description, code: ExitStatus.outputFailed)
        }
        if isatty(2) == 1 {
            sinks.append(ProgressLine(totalLines: events.flatMap { $0 == "-" ? nil : countLines($0) }) { Console.error($0) })
        }
        let recorder = TraceRecorder(sink: TraceFanOut(sinks))

        let end: TraceEnd
        if inProcess {
            end = RunSession.run(options, output: recorder)
        } else {
            let perEventTimeout = timeout ?? (events == "-" ? nil : 10)
            end = Supervisor.run(options, recorder: recorder, timeout: perEventTimeout)
        }
        do { try recorder.end(end) } catch { return fail(error.description, code: ExitStatus.outputFailed) }
        if end.outcome != .ok, quiet || isatty(1) != 1 {
            // The table already says it on a terminal; otherwise stderr must.
            Console.error("cellhost run: \(end.outcome.rawValue): \(end.message ?? "")\n")
        }
        let code: Int32 = switch end.outcome {
        case .ok: ExitStatus.ok
        case .badInput: ExitStatus.badInput
        case .pluginLoadFailed: ExitStatus.pluginLoadFailed
        case .pluginCrashed, .pluginHung: ExitStatus.pluginFailed
        case .internalError: ExitStatus.outputFailed
        }
        if code != 0 { throw ExitCode(code) }
        reportOutputs(trace: tracePath, chromeTrace: chromePath, frames: options.framesDirectory,
                      contactSheet: options.contactSheet, frameCount: end.frames)
    }

    /// Tells where the files are, so a first run ends with the next thing to open.
    private func reportOutputs(trace: String?, chromeTrace: String?, frames: String?, contactSheet: String?,
                               frameCount: Int) {
        var lines: [String] = []
        if let trace { lines.append("  trace         \(trace)") }
        if let chromeTrace { lines.append("  chrome trace  \(chromeTrace)  (open in https://ui.perfetto.dev)") }
        if let frames, frameCount > 0 { lines.append("  frames        \(frames)/  (\(frameCount) PNG)") }
        if let contactSheet, frameCount > 0, access(contactSheet, F_OK) == 0 {
            lines.append("  contact sheet \(contactSheet)")
        }
        guard !lines.isEmpty else { return }
        Console.error("wrote:\n" + lines.joined(separator: "\n") + "\n")
    }

    private func fail(_ message: String, code: Int32) {
        Console.error("cellhost run: \(message)\n")
        Glibc.exit(code)
    }

    private func countLines(_ path: String) -> Int? {
        guard let f = fopen(path, "r") else { return nil }
        defer { fclose(f) }
        var count = 0
        while true {
            let c = getc(f)
            if c == EOF { break }
            if c == 0x0A { count += 1 }
        }
        return count
    }
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

    func run() throws {
        guard let output = ChannelOutput.fromEnvironment() else {
            Console.error("cellhost \(Supervisor.workerCommand): run by cellhost run only (no supervisor channel)\n")
            throw ExitCode(ExitStatus.usage)
        }
        let end = RunSession.run(RunOptions(events: events, plugins: plugins, framesDirectory: frames,
                                            contactSheet: contactSheet, showsDamage: showDamage),
                                 output: output)
        output.record(.end(end))
    }
}
