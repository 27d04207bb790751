import CellIO
import CellProcess
import CellTestSupport
import Glibc
import Testing

/// `cellhost run` stopped by a signal mid-stream: SIGINT, SIGTERM and SIGHUP end the worker and
/// commit every trace up to the last complete event (exit 130); after a SIGKILL, which nothing
/// can catch, the worker dies with its supervisor. The stream comes through a named pipe its
/// writer keeps open, so the run is mid-stream whenever the signal arrives.
@Suite struct InterruptedRunTests {
    /// A running `cellhost run` reading an endless stream, and its worker.
    struct LiveRun {
        var directory: String
        var supervisor: pid_t
        var worker: pid_t
        var writer: pid_t?
        var out: String { directory + "/out" }

        /// Starts the run and returns once `trace.jsonl` holds at least `lines` lines.
        init(lines: Int = 20) throws {
            directory = ValidationFixtures.temporaryDirectory()
            let streamPath = "\(directory)/stream.jsonl", pipePath = "\(directory)/stream.pipe"
            writeFile(KilledRunTests.stream(events: 2_000), to: streamPath)
            #expect(mkfifo(pipePath, 0o600) == 0)
            #expect(system("(cat '\(streamPath)'; exec sleep 60) > '\(pipePath)' & echo $! > '\(directory)/writer.pid'") == 0)
            writer = Int32((readTextFile("\(directory)/writer.pid") ?? "").split(separator: "\n").first ?? "")
            let argv = [BuiltProducts.cellhost, "run", "--events", pipePath, "--out", "\(directory)/out", "--quiet"]
            var pid: pid_t = 0
            var actions = posix_spawn_file_actions_t()
            posix_spawn_file_actions_init(&actions)
            posix_spawn_file_actions_addopen(&actions, 2, "\(directory)/stderr.txt", O_WRONLY | O_CREAT, 0o600)
            let cArgs = argv.map { strdup($0) } + [nil]
            defer { cArgs.forEach { free($0) } }
            #expect(posix_spawn(&pid, argv[0], &actions, nil, cArgs, environ) == 0)
            posix_spawn_file_actions_destroy(&actions)
            supervisor = pid
            worker = 0
            // Wait until events are flowing into the trace, which grows under its own name.
            for _ in 0..<2_000 {
                if (readTextFile("\(out)/trace.jsonl") ?? "").utf8.lazy.filter({ $0 == 0x0A }).count >= lines { break }
                usleep(10_000)
            }
            let children = readTextFile("/proc/\(pid)/task/\(pid)/children") ?? ""
            worker = pid_t(children.split(separator: " ").first ?? "") ?? 0
            #expect(worker > 0, "no worker under the supervisor")
        }

        /// The supervisor's exit status, or nil when it did not end within `seconds`.
        func waitForSupervisor(seconds: Double = 15) -> Int32? {
            var status: Int32 = 0
            for _ in 0..<Int(seconds * 20) {
                if waitpid(supervisor, &status, WNOHANG) == supervisor { return status }
                usleep(50_000)
            }
            kill(supervisor, SIGKILL)
            return nil
        }

        /// Whether the worker is gone (or a zombie waiting for init), within `seconds`.
        func workerGone(within seconds: Double) -> Bool {
            for _ in 0..<Int(seconds * 100) {
                let stat = readTextFile("/proc/\(worker)/stat") ?? ""
                if stat.isEmpty || stat.contains(") Z ") { return true }
                usleep(10_000)
            }
            return false
        }

        func stop() { if let writer { kill(writer, SIGTERM) } }
    }

    @Test(arguments: [SIGINT, SIGTERM, SIGHUP])
    func aSignalEndsTheWorkerAndCommitsTheTraces(signal: Int32) throws {
        let run = try LiveRun()
        defer { run.stop() }
        kill(run.supervisor, signal)
        let status = run.waitForSupervisor()
        #expect(status.map { $0 & 0x7f == 0 ? ($0 >> 8) & 0xff : -1 } == 130,
                "status \(String(describing: status)): \(readTextFile(run.directory + "/stderr.txt") ?? "")")
        #expect(run.workerGone(within: 1), "the worker outlived the run")
        let names = directoryEntries(run.out) ?? []
        #expect(names.contains("trace.jsonl") && names.contains("trace.chrome.json"), "traces not committed: \(names)")
        #expect(!names.contains { $0.hasPrefix(".") || $0.contains(".tmp") }, "partial files left: \(names)")
        let records = try (readTextFile(run.out + "/trace.jsonl") ?? "").split(separator: "\n").map { try JSON.parse(String($0)) }
        let events = records.compactMap { $0["record"]?.stringValue == "event" ? $0["event"]?.intValue : nil }
        #expect(events.count > 10 && events == Array(0..<Int64(events.count)), "events missing or out of order")
        #expect(records.last?["record"]?.stringValue == "end" && records.last?["outcome"]?.stringValue == "interrupted")
        #expect(ChromeTraceText.isClosed(readTextFile(run.out + "/trace.chrome.json") ?? ""), "the Chrome trace is not closed")
        let frames = directoryEntries(run.out + "/frames") ?? []
        #expect(!frames.contains { $0.hasPrefix(".") }, "partial frames left: \(frames)")
    }

    /// SIGKILL cannot be caught: the kernel's parent-death signal ends the worker instead, at once.
    @Test func aKilledSupervisorTakesItsWorkerWithIt() throws {
        let run = try LiveRun()
        defer { run.stop() }
        kill(run.supervisor, SIGKILL)
        _ = run.waitForSupervisor()
        #expect(run.workerGone(within: 1), "the worker outlived its supervisor")
    }
}

extension InterruptedRunTests {
    /// After a SIGKILL the traces stay under their names, valid up to the last event written; the
    /// next run into the same folder replaces them before its first frame, and clears the hidden
    /// partial traces that versions writing them under a partial name left, so no earlier trace
    /// is ever beside new frames.
    @Test func theNextRunClearsWhatAKilledRunLeft() throws {
        let run = try LiveRun()
        defer { run.stop() }
        kill(run.supervisor, SIGKILL)
        _ = run.waitForSupervisor()
        #expect((directoryEntries(run.out) ?? []).contains("trace.jsonl"))
        // What an older version killed the same way left: a partial trace named for a process that is gone.
        writeFile("{\"record\":\"header\"}\n", to: FileReplacer.partialPrefix(for: run.out + "/trace.jsonl") + "2147483646")
        writeFile(KilledRunTests.stream(events: 10), to: "\(run.directory)/short.jsonl")
        let next = try WorkerProcess(executable: BuiltProducts.cellhost,
                                     arguments: ["run", "--events", "\(run.directory)/short.jsonl", "--out", run.out, "--quiet"])
            .run(limits: WorkerLimits(totalSeconds: 120)) { _ in }
        #expect(next.termination == .exited(code: 0), "\(next.standardError)")
        let names = directoryEntries(run.out) ?? []
        #expect(!names.contains { $0.hasPrefix(".") }, "partial files of the killed run are still there: \(names)")
        let records = try (readTextFile(run.out + "/trace.jsonl") ?? "").split(separator: "\n").map { try JSON.parse(String($0)) }
        let events = records.compactMap { $0["record"]?.stringValue == "event" ? $0["event"]?.intValue : nil }
        #expect(events == Array(0...10), "the trace holds events of the killed run")
        #expect(records.last?["outcome"]?.stringValue == "ok")
        let chrome = readTextFile(run.out + "/trace.chrome.json") ?? ""
        #expect(ChromeTraceText.isClosed(chrome), "the Chrome trace of a finished run is closed")
        let slices = try ChromeTraceText.events(chrome).filter { $0["cat"]?.stringValue == "event" }
        #expect(slices.count == 11, "\(slices.count) event slices: the Chrome trace holds events of the killed run")
    }
}

extension InterruptedRunTests {
    /// `validate` and `inspect` interrupted while a worker hangs in plugin code: the worker is
    /// ended at once, not after its watchdog, no further check starts, and the exit code is 130.
    @Test(arguments: [["validate", "--timeout", "60"], ["inspect", "--timeout", "60"]])
    func anInterruptedValidateOrInspectEndsItsWorker(command: [String]) throws {
        let flags = command[0] == "inspect" ? "-DINIT_DELAY_MS=60000" : ""
        let plugin = try ValidationFixtures.build(command[0] == "inspect" ? "slow_init" : "hang_in_draw", flags: flags)
        let argv = [BuiltProducts.cellhost] + command + [plugin]
        var pid: pid_t = 0
        let cArgs = argv.map { strdup($0) } + [nil]
        defer { cArgs.forEach { free($0) } }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        #expect(posix_spawn(&pid, argv[0], &actions, nil, cArgs, environ) == 0)
        posix_spawn_file_actions_destroy(&actions)
        // Wait until a worker runs, then a little longer so it is inside the plugin.
        var worker: pid_t = 0
        for _ in 0..<200 where worker == 0 {
            worker = pid_t((readTextFile("/proc/\(pid)/task/\(pid)/children") ?? "").split(separator: " ").first ?? "") ?? 0
            usleep(20_000)
        }
        usleep(500_000)
        let started = ContinuousClock.now
        kill(pid, SIGINT)
        var status: Int32 = 0
        var ended = false
        for _ in 0..<200 where !ended {
            ended = waitpid(pid, &status, WNOHANG) == pid
            if !ended { usleep(50_000) }
        }
        if !ended { kill(pid, SIGKILL); waitpid(pid, &status, 0) }
        #expect(ended && status & 0x7f == 0 && (status >> 8) & 0xff == 130, "status \(status)")
        #expect(ContinuousClock.now - started < .seconds(5), "the interrupt waited for the watchdog")
        #expect(worker > 0 && kill(worker, 0) != 0, "the worker outlived the command")
    }
}
