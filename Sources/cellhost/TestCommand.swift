import ArgumentParser
import CellIO
import CellRuntime
import CellSnapshots

/// `cellhost test`: snapshot tests of cells for a plugin author's CI. Parses, hands the work to
/// CellSnapshots, prints the outcome.
struct TestCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "test",
        abstract: "Compare the named captures of event streams with their reference images and traces.",
        discussion: """
            Runs every *.jsonl stream under the paths given (default: Tests/cellhost/, else the current \
            folder's *.cellhost.jsonl) and compares each named capture ({"capture": "selected"}) with \
            its references in __Snapshots__/<stream>/ next to the stream (or --snapshots DIR/<stream>/): \
            the image by decoded pixels, within the stream's "tolerance" (exact by default), and the \
            trace (what each event since the previous capture did to each cell) as JSON Lines. A stream \
            with a "matrix" line runs once per trait combination. On a mismatch, <name>.actual.png, \
            <name>.diff.png and <name>.trace.diff are written next to the reference; passing captures \
            write nothing.

            Record modes: missing (default) records references that do not exist yet; all records \
            every reference again; failed records the ones that did not match; never only compares \
            (CI). Recording a reference fails the run, since nobody has looked at it yet.

            Each stream runs in a worker process: a plugin that crashes or hangs past --timeout fails \
            that stream only, and the others still run.

            \(CellhostExitCode.table)
            """)

    @Argument(help: ArgumentHelp("Streams, or folders searched for *.jsonl streams.", valueName: "path"))
    var paths: [String] = []

    @Option(name: .customLong("plugin"), help: ArgumentHelp("A plugin .so to load (repeatable).", valueName: "path"))
    var plugins: [String] = []

    @Option(help: ArgumentHelp("When to write references: missing, all, failed or never.", valueName: "mode"))
    var record: String = RecordMode.missing.rawValue

    @Option(help: ArgumentHelp("The folder holding one folder of references per stream (default: __Snapshots__ next to each stream).",
                               valueName: "dir"))
    var snapshots: String?

    @Option(help: ArgumentHelp("Write a JUnit XML report (one test case per capture) here.", valueName: "file"))
    var junit: String?

    @Option(help: ArgumentHelp("Run only shard I of N: the captures whose id hashes to it.", valueName: "I/N"))
    var shard: String?

    @OptionGroup var watchdog: TimeoutOption

    @OptionGroup var output: OutputOptions

    func validate() throws {
        guard RecordMode(rawValue: record) != nil else {
            throw ValidationError("--record takes \(RecordMode.allCases.map(\.rawValue).joined(separator: ", ")), not \"\(record)\"")
        }
        if let shard {
            do { _ = try Shard(parsing: shard) } catch { throw ValidationError(error.description) }
        }
    }

    func run() throws {
        let streams: [String]
        do { streams = try StreamDiscovery.streams(in: paths) } catch {
            output.error("test", error.description)
            throw CellhostExitCode.badInput.error
        }
        // validate() refused a shard that does not parse.
        let shard = self.shard.flatMap { try? Shard(parsing: $0) }
        let plan = SnapshotPlan(streams: streams, snapshots: snapshots, shard: shard)
        let runner = SnapshotTestRun(plugins: plugins, recordMode: RecordMode(rawValue: record) ?? .missing,
                                     isolation: .worker(eventTimeout: watchdog.timeout ?? RunIsolation.defaultEventTimeout))
        let report = runner.run(plan) { outcomes in
            for o in outcomes where o.status == .passed { output.note("  ok \(o.stream) \(o.capture ?? "")\n") }
        }
        if let junit {
            do throws(SinkError) { try JUnitReport.write(report, to: junit) } catch {
                output.error("test", error.description)
                throw CellhostExitCode.outputNotWritten.error
            }
        }
        if report.passed {
            output.result(report.summary)
        } else {
            // Failures are always printed: CI logs need them even under --quiet.
            Console.error(report.summary)
            throw CellhostExitCode.snapshotsFailed.error
        }
    }
}
