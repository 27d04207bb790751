import CellIO
import CellKit
import CellProcess
import CellTestSupport
import Testing
@testable import CellRuntime
import Glibc

/// `cellhost run` as a user runs it, the built binary against the sample plugins, asserted on
/// the traces and frames it writes and on how it ends.
@Suite(.serialized) struct RunCommandTests {

    struct ToolResult {
        var status: Int32?
        var standardError: String
    }

    func run(_ arguments: [String], timeout: Double = 120) throws -> ToolResult {
        let result = try WorkerProcess(executable: BuiltProducts.cellhost, arguments: arguments).run(limits: WorkerLimits(totalSeconds: timeout)) { _ in }
        if case .exited(let code) = result.termination { return ToolResult(status: code, standardError: result.standardError) }
        return ToolResult(status: nil, standardError: "\(result.termination): \(result.standardError)")
    }

    func write(_ text: String, to path: String) {
        let f = fopen(path, "w")!
        fputs(text, f)
        fclose(f)
    }

    func traceRecords(_ path: String) throws -> [TraceRecord] {
        let text = try #require(readTextFile(path))
        return try text.split(separator: "\n").map { line throws in try TraceRecord.decode(line: String(line)) }
    }

    func events(_ records: [TraceRecord]) -> [TraceEvent] {
        records.compactMap { if case .event(let e) = $0 { e } else { nil } }
    }

    func end(_ records: [TraceRecord]) -> TraceEnd? {
        if case .end(let e) = records.last { e } else { nil }
    }

    func isPNG(_ path: String) -> Bool {
        guard let f = fopen(path, "r") else { return false }
        defer { fclose(f) }
        var magic = [UInt8](repeating: 0, count: 8)
        guard fread(&magic, 1, 8, f) == 8 else { return false }
        fseek(f, 0, SEEK_END)
        return magic == [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] && ftell(f) > 100
    }

    /// `--frames captures` writes the frames of capture events only (through the worker), and
    /// needs --out to say where.
    @Test func framesOfCapturesOnly() throws {
        let dir = BuiltProducts.temporaryDirectory(prefix: "cellhost-run-captures")
        write("""
            {"scene": {"viewport": {"width": 320, "height": 300}, "scale": 1}}
            {"item": {"id": "inbox", "set": {"text": "Inbox"}}}
            {"cell": "inbox", "selected": true}
            {"capture": "selected"}
            {"cell": "inbox", "selected": false}

            """, to: dir + "/events.jsonl")
        let refused = try run(["run", "--events", dir + "/events.jsonl", "--frames", "captures", "--quiet"])
        #expect(refused.status != 0 && refused.standardError.contains("--frames captures"), "\(refused.standardError)")
        let result = try run(["run", "--events", dir + "/events.jsonl", "--frames", "captures", "--out", dir + "/out", "--quiet"])
        #expect(result.status == 0, "\(result.standardError)")
        #expect(directoryEntries(dir + "/out/frames") == ["frame-0003.png", "selected.png"])
        let files = events(try traceRecords(dir + "/out/trace.jsonl")).flatMap(\.frames).map(\.file)
        #expect(files == [nil, nil, "frame-0003.png", nil])
    }

    @Test func embeddedStreamWritesEveryOutput() throws {
        let dir = BuiltProducts.temporaryDirectory(prefix: "cellhost-run-test")
        let result = try run(["run", "--out", dir, "--quiet"])
        #expect(result.status == 0, "\(result.standardError)")
        let records = try traceRecords(dir + "/trace.jsonl")
        guard case .header(let header) = records.first else { Issue.record("no header record"); return }
        #expect(header.plugins.contains { $0.contains("com.cellhost.samples.progress") }, "sample plugins load by default")
        let evs = events(records)
        #expect(evs.count == 14, "first display, seven demo states, two plugin actions, two custom states, dark, AX3")
        #expect(end(records)?.outcome == .ok)
        let cells = Set(evs.flatMap(\.updates).map(\.type))
        #expect(cells.contains("com.cellhost.list-content") && cells.contains("com.cellhost.samples.progress"))
        let frameFiles = evs.flatMap(\.frames).compactMap(\.file)
        #expect(frameFiles.count >= 10)
        for f in frameFiles { #expect(isPNG(dir + "/frames/" + f), "\(f) is a non-empty PNG") }
        #expect(isPNG(dir + "/contact-sheet.png"))
        let chrome = try JSON.parse(try #require(readTextFile(dir + "/trace.chrome.json")))
        #expect((chrome.arrayValue?.count ?? 0) > 50)
        let drop = try #require(evs.first { $0.note == "drop target" })
        #expect(drop.updates.allSatisfy { $0.stateAfter == ["drop=targeted"] })
        // The samples start with showcase values, run an action and enter a custom state.
        let updates = evs.flatMap(\.updates)
        let setByEvent = updates.flatMap(\.changes).filter { $0.reason == .setByEvent }.map(\.property)
        #expect(setByEvent.contains("count") && setByEvent.contains("progress"))
        #expect(updates.contains { $0.stateAfter.contains("urgent=true") })
        #expect(updates.contains { $0.stateAfter.contains("paused=true") })
        // Repaints without property changes say why.
        let darkRepaints = updates.filter { $0.cause == "traits: dark" && $0.changes.isEmpty }
        #expect(!darkRepaints.isEmpty && darkRepaints.allSatisfy { $0.repaint == "colours re-resolved for dark" })
        #expect(updates.contains { $0.cell == "plugin1" && $0.repaint?.hasPrefix("the content view styles itself for highlighted") == true })
    }

    static let stream = """
        {"scene": {"appearance": "insetGrouped", "viewport": {"width": 390, "height": 200}, "scale": 1}}
        {"section": {"id": "mix"}}
        {"item": {"id": "apple", "set": {"text": "Apple", "textProperties.color": "systemRed"}}}
        {"item": {"id": "meter1", "type": "com.cellhost.samples.progress", "set": {"progress": 0.25, "title": "Upload"}}}
        {"item": {"id": "pear", "set": {"text": "Pear"}}}
        {"item": {"id": "meter2", "type": "com.cellhost.samples.progress", "set": {"progress": 0.5, "title": "Download"}}}
        {"item": {"id": "plum", "set": {"text": "Plum"}}}
        {"item": {"id": "meter3", "type": "com.cellhost.samples.progress", "set": {"progress": 0.75, "title": "Sync"}}}
        {"item": {"id": "fig", "set": {"text": "Fig"}}}
        {"item": {"id": "meter4", "type": "com.cellhost.samples.progress", "set": {"progress": 1, "title": "Backup"}}}
        {"cell": "apple", "selected": true}
        {"cell": "apple", "disabled": true, "selected": false}
        {"cell": "meter1", "perform": {"advance": [-0.125, false]}}
        {"scroll": {"to": 2000}}
        {"traits": {"contentSize": "AX3"}}
        """

    @Test func traceShowsReuseReplaceLockedPropertiesAndSizes() throws {
        let dir = BuiltProducts.temporaryDirectory(prefix: "cellhost-run-test")
        write(Self.stream, to: dir + "/events.jsonl")
        let result = try run(["run", "--plugin", BuiltProducts.samplePlugin("ProgressMeter"), "--events", dir + "/events.jsonl",
                              "--trace", dir + "/trace.jsonl", "--frames", dir + "/frames", "--quiet"])
        #expect(result.status == 0, "\(result.standardError)")
        let evs = events(try traceRecords(dir + "/trace.jsonl"))
        #expect(evs.count == 6)

        // Locked: the customised text colour survives disabling, and the trace says so.
        let disabled = try #require(evs.first { $0.line == 12 }?.updates.first { $0.cell == "apple" })
        let text = try #require(disabled.changes.first { $0.property == "textProperties.color" })
        #expect(text.reason == .locked)
        #expect(disabled.changes.contains { $0.property == "secondaryTextProperties.color" && $0.reason == .restyled })

        // Scrolling: rows that scroll in reuse pooled cells; a cell whose content view cannot take
        // the other type's configuration replaces it.
        let scrolled = try #require(evs.first { $0.line == 14 }).updates
        #expect(scrolled.allSatisfy { $0.cause == "scrolled in" || $0.cause == "first display" })
        #expect(scrolled.contains { $0.view == .reused && $0.supports == true })
        #expect(scrolled.contains { $0.view == .replaced && $0.supports == false })

        // Self-sizing follows the content size.
        let before = try #require(evs.flatMap(\.updates).last { $0.cell == "fig" && !$0.cause.contains("AX3") }).size.height
        let after = try #require(evs.first { $0.line == 15 }?.updates.first { $0.cell == "fig" }).size.height
        #expect(after > before)

        // A plugin action changes a property; the trace says the event set it.
        let advanced = try #require(evs.first { $0.line == 13 }?.updates.first { $0.cell == "meter1" })
        #expect(advanced.changes.contains { $0.property == "progress" && $0.reason == .setByEvent && $0.old == "0.25" && $0.new == "0.13" })
        for f in evs.flatMap(\.frames).compactMap(\.file) { #expect(isPNG(dir + "/frames/" + f)) }
    }

    /// Dictionary order is seeded per process, so a pool filled in that order would make reuse
    /// differ from run to run; each run here is a new process.
    @Test func reuseAndReplacementAreTheSameOnEveryRun() throws {
        let dir = BuiltProducts.temporaryDirectory(prefix: "cellhost-run-test")
        let stream = BuiltProducts.packageRoot + "/SDK/schema/examples/scroll-reuse.jsonl"
        var outcomes: [[String]] = []
        for i in 0..<4 {
            let trace = "\(dir)/trace\(i).jsonl"
            let result = try run(["run", "--in-process", "--events", stream, "--trace", trace, "--quiet"])
            #expect(result.status == 0, "\(result.standardError)")
            outcomes.append(events(try traceRecords(trace)).flatMap(\.updates).map {
                "\($0.cell) \($0.view) \($0.supports.map(String.init) ?? "-")"
            })
        }
        #expect(outcomes.first?.contains { $0.contains("replaced") || $0.contains("reused") } == true)
        for run in outcomes.dropFirst() { #expect(run == outcomes[0]) }
    }

    @Test(arguments: [[], ["--in-process"]])
    func streamFromStandardInputIsProcessedAsItArrives(isolation: [String]) throws {
        let dir = BuiltProducts.temporaryDirectory(prefix: "cellhost-run-test")
        write(Self.stream, to: dir + "/events.jsonl")
        // The scene and the first event arrive, then the writer waits (up to 60 s) until both
        // traces on disk hold that event before sending the rest: the run must not wait for the
        // end of its input, nor keep what it batched while it waits. A marker file records that
        // the event was there in time.
        let script = """
            head -n 11 '\(dir)/events.jsonl'
            i=0
            while [ $i -lt 600 ]; do
              if grep -Eqs '"line": *11[,}]' '\(dir)/trace.jsonl' && grep -Eqs '"line": *11[,}]' '\(dir)/trace.chrome.json'; then touch '\(dir)/seen'; break; fi
              sleep 0.1; i=$((i + 1))
            done
            tail -n +12 '\(dir)/events.jsonl'
            """
        let shell = try WorkerProcess(executable: "/bin/sh", arguments: [
            "-c", "(\(script)) | '\(BuiltProducts.cellhost)' run --plugin '\(BuiltProducts.samplePlugin("ProgressMeter"))' --events - --trace '\(dir)/trace.jsonl' --chrome-trace '\(dir)/trace.chrome.json' --quiet \(isolation.joined(separator: " "))",
        ]).run(limits: WorkerLimits(totalSeconds: 120)) { _ in }
        #expect(shell.termination == .exited(code: 0), "\(shell.standardError)")
        let records = try traceRecords(dir + "/trace.jsonl")
        guard case .header(let header) = records.first else { Issue.record("no header"); return }
        #expect(header.source == "<stdin>")
        let evs = events(records)
        #expect(evs.map(\.line) == [0, 11, 12, 13, 14, 15])
        #expect(access(dir + "/seen", F_OK) == 0, "the first event reached the trace only after the input ended")
    }

    /// `cellhost run | head` closes the table's reader early; the run still completes its files.
    @Test func aReaderThatStopsEarlyDoesNotCutTheRunShort() throws {
        let dir = BuiltProducts.temporaryDirectory(prefix: "cellhost-run-test")
        let shell = try WorkerProcess(executable: "/bin/sh", arguments: [
            "-c", "'\(BuiltProducts.cellhost)' run --plugin '\(BuiltProducts.samplePlugin("ProgressMeter"))' --out '\(dir)/out' | head -n 1 >/dev/null",
        ]).run(limits: WorkerLimits(totalSeconds: 120)) { _ in }
        #expect(shell.termination == .exited(code: 0), "\(shell.standardError)")
        let records = try traceRecords(dir + "/out/trace.jsonl")
        guard case .end(let end) = records.last else { Issue.record("the trace has no end record"); return }
        #expect(end.outcome == .ok)
        let left = try #require(directoryEntries(dir + "/out")).filter { $0.contains(".partial-") }
        #expect(left.isEmpty, "temporary files left behind: \(left)")
    }

    @Test func malformedStreamExitsWithBadInputNamingTheLine() throws {
        let dir = BuiltProducts.temporaryDirectory(prefix: "cellhost-run-test")
        write(Self.stream + "\n{\"cell\": \"apple\", \"selcted\": true}\n", to: dir + "/events.jsonl")
        let result = try run(["run", "--plugin", BuiltProducts.samplePlugin("ProgressMeter"), "--events", dir + "/events.jsonl",
                              "--trace", dir + "/trace.jsonl", "--quiet"])
        #expect(result.status == 1)
        #expect(result.standardError.contains("events.jsonl:16: \"selcted\" is not an event field; did you mean \"selected\"?"))
        let records = try traceRecords(dir + "/trace.jsonl")
        #expect(end(records)?.outcome == .badInput)
        #expect(events(records).count == 6, "every event before the bad line is traced")
    }

    @Test func usageErrorsAndMissingPluginsHaveTheirExitCodes() throws {
        #expect(try run(["run", "--timeout", "-1"]).status == 2)
        let missing = try run(["run", "--plugin", "/nonexistent/libnothing.so", "--quiet"])
        #expect(missing.status == 3)
        #expect(missing.standardError.contains("/nonexistent/libnothing.so"))
    }

    /// A copy of the C sample plugin whose `reset` action crashes or whose `advance` never returns.
    func buildMisbehavingPlugin(in dir: String) throws -> String {
        let source = try #require(readTextFile(BuiltProducts.packageRoot + "/Plugins/ProgressMeter/progress_meter.c"))
        let resetSignature = "static bool reset(cellhost_config *c, const cellhost_action *a) {"
        let advanceSignature = "static bool advance(cellhost_config *c, const cellhost_action *a, double by, bool animated) {"
        #expect(source.contains(resetSignature) && source.contains(advanceSignature))
        let patched = source
            .replacingOccurrences(of: resetSignature, with: resetSignature + "\n    *(volatile int *)0 = 1;")
            .replacingOccurrences(of: advanceSignature, with: advanceSignature + "\n    for (volatile int spin = 1; spin;) {}")
        write(patched, to: dir + "/misbehaving.c")
        let library = dir + "/libmisbehaving.so"
        let cc = try WorkerProcess(executable: "/usr/bin/cc", arguments: [
            "-shared", "-fPIC", "-O0", "-I", BuiltProducts.packageRoot + "/SDK/include", "-o", library, dir + "/misbehaving.c",
        ]).run(limits: WorkerLimits(totalSeconds: 60)) { _ in }
        #expect(cc.termination.isSuccess, "\(cc.standardError)")
        return library
    }

    @Test func crashingPluginIsReportedWithItsEventAndTheTraceStaysValid() throws {
        let dir = BuiltProducts.temporaryDirectory(prefix: "cellhost-run-test")
        let plugin = try buildMisbehavingPlugin(in: dir)
        write(Self.stream.split(separator: "\n").prefix(12).joined(separator: "\n")
              + "\n{\"cell\": \"meter1\", \"perform\": \"reset\"}\n{\"cell\": \"apple\", \"selected\": true}\n",
              to: dir + "/events.jsonl")
        // Twice: the second run replaces the first one's frames (kept files it writes over) when the worker dies.
        for _ in 1...2 {
            let result = try run(["run", "--plugin", plugin, "--events", dir + "/events.jsonl", "--out", dir + "/out", "--quiet"])
            #expect(result.status == 4)
            #expect(result.standardError.contains("SIGSEGV at event #3"))
            let records = try traceRecords(dir + "/out/trace.jsonl")
            let e = try #require(end(records))
            #expect(e.outcome == .pluginCrashed && e.failedEvent == 3)
            #expect(events(records).map(\.number) == [0, 1, 2])
            #expect(throws: Never.self) { try JSON.parse(readTextFile(dir + "/out/trace.chrome.json") ?? "") }
            // Frames encoded before the crash are kept whole; ones still queued are named as lost.
            var kept = 0
            for f in events(records).flatMap(\.frames).compactMap(\.file) where access(dir + "/out/frames/" + f, F_OK) == 0 {
                #expect(isPNG(dir + "/out/frames/" + f))
                kept += 1
            }
            #expect(kept == 3 || e.message?.contains("lost") == true)
            let leftovers = (directoryEntries(dir + "/out/frames") ?? []).filter { $0.hasPrefix(".") }
            #expect(leftovers.isEmpty, "no partial frame is left behind: \(leftovers)")
        }
    }

    @Test func hangingPluginIsStoppedAfterTheTimeout() throws {
        let dir = BuiltProducts.temporaryDirectory(prefix: "cellhost-run-test")
        let plugin = try buildMisbehavingPlugin(in: dir)
        write(Self.stream.split(separator: "\n").prefix(11).joined(separator: "\n")
              + "\n{\"cell\": \"meter1\", \"perform\": {\"advance\": [0.1, false]}}\n", to: dir + "/events.jsonl")
        let result = try run(["run", "--plugin", plugin, "--events", dir + "/events.jsonl", "--trace", dir + "/trace.jsonl",
                              "--timeout", "1", "--quiet"])
        #expect(result.status == 4)
        let records = try traceRecords(dir + "/trace.jsonl")
        #expect(end(records)?.outcome == .pluginHung)
        #expect(end(records)?.failedEvent == 2)
    }
}
