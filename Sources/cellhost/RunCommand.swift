import ArgumentParser
import CellIO
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

    @Option(help: ArgumentHelp("Write PNG frames (frame-0001.png …) into this directory.", valueName: "dir"))
    var frames: String?

    @Option(help: ArgumentHelp("Write the HTML report (report.html: each event's frame, damage and property changes) here.",
                               valueName: "file"))
    var report: String?

    @OptionGroup var watchdog: TimeoutOption

    @Flag(name: .customLong("in-process"), help: "Run without a worker process (a crash ends cellhost too).")
    var inProcess = false

    @Flag(name: .customLong("show-damage"), help: "Tint the repainted region of every frame.")
    var showDamage = false

    @OptionGroup var output: OutputOptions

    func validate() throws {
        if let events, events != "-", access(events, R_OK) != 0 {
            throw ValidationError("cannot read the event stream \(events): \(String(cString: strerror(errno)))")
        }
    }

    func run() throws {
        let plan = RunOutputPlan(directory: out, trace: trace, chromeTrace: chromeTrace, frames: frames, report: report)
        let options = RunOptions(events: events, plugins: plugins, framesDirectory: plan.framesDirectory,
                                 contactSheet: plan.contactSheet, showsDamage: showDamage)
        let isolation: RunIsolation = inProcess ? .inProcess : .worker(eventTimeout: watchdog.timeout, for: options)
        let end: TraceEnd
        do throws(SinkError) {
            var sinks: [any TraceSink] = []
            if !output.quiet {
                let colors = Console.outputIsTerminal && getenv("NO_COLOR") == nil
                sinks.append(TraceTableWriter(colors: colors) { line in Console.out(line) })
            }
            sinks += try plan.openTraceSinks()
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
        if let summary = plan.summary(frameCount: end.frames) { output.note(summary) }
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
            throw ValidationError("\(Supervisor.workerCommand) runs only under `cellhost run` (no supervisor channel)")
        }
        let end = RunSession.run(RunOptions(events: events, plugins: plugins, framesDirectory: frames,
                                            contactSheet: contactSheet, showsDamage: showDamage),
                                 output: output)
        output.record(.end(end))
    }
}
