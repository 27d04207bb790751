import Testing
@testable import CellProcess

/// The worker is `/bin/sh`, so each test states the child's behaviour in one line.
@Suite struct WorkerProcessTests {
    func shell(_ script: String) -> WorkerProcess {
        WorkerProcess(executable: "/bin/sh", arguments: ["-c", script])
    }

    @Test func channelLinesArriveInOrderAndStdoutStaysOffTheChannel() throws {
        var lines: [String] = []
        let result = try shell("echo one >&3; echo noise; printf 'two\\nthree' >&3").run { lines.append($0) }
        #expect(lines == ["one", "two", "three"])
        #expect(result.termination == .exited(code: 0))
        #expect(result.standardOutput == "noise\n")
    }

    @Test func exitStatusIsReported() throws {
        let result = try shell("echo oops >&2; exit 7").run { _ in }
        #expect(result.termination == .exited(code: 7))
        #expect(!result.termination.isSuccess)
        #expect(result.standardError == "oops\n")
    }

    @Test func aCrashIsReportedWithItsSignal() throws {
        let result = try shell("echo before >&3; kill -SEGV $$").run { _ in }
        #expect(result.termination == .signaled(signal: 11))
        #expect(result.termination.description == "crashed with SIGSEGV")
    }

    @Test func aHangIsStoppedAtTheTotalLimit() throws {
        let result = try shell("sleep 30").run(limits: WorkerLimits(totalSeconds: 0.3)) { _ in }
        #expect(result.termination == .timedOut(seconds: 0.3))
        #expect(result.duration < 5)
    }

    @Test func messagesResetTheIdleWatchdog() throws {
        var count = 0
        let script = "for i in 1 2 3 4 5 6; do echo tick >&3; sleep 0.1; done"
        let result = try shell(script).run(limits: WorkerLimits(idleSeconds: 0.5)) { _ in count += 1 }
        #expect(result.termination == .exited(code: 0))
        #expect(count == 6)
    }

    @Test func silenceTripsTheIdleWatchdog() throws {
        var lines: [String] = []
        let result = try shell("echo started >&3; sleep 30").run(limits: WorkerLimits(idleSeconds: 0.3)) {
            lines.append($0)
        }
        #expect(lines == ["started"])
        #expect(result.termination == .timedOut(seconds: 0.3))
    }

    @Test func floodingIsStoppedAndOnlyTheTailIsKept() throws {
        let result = try shell("yes flood").run(limits: WorkerLimits(totalSeconds: 10, outputBytes: 1 << 20)) { _ in }
        guard case .outputFlood(let bytes) = result.termination else {
            Issue.record("expected a flood, got \(result.termination)")
            return
        }
        #expect(bytes > 1 << 20)
        #expect(result.standardOutput.utf8.count < 16 * 1024)
        #expect(result.standardOutput.hasPrefix("[… "))
    }

    @Test func standardInputIsNullUnlessInherited() throws {
        var lines: [String] = []
        _ = try shell("if read x; then echo got >&3; else echo eof >&3; fi").run { lines.append($0) }
        #expect(lines == ["eof"])
    }

    @Test func environmentReachesTheWorker() throws {
        var lines: [String] = []
        var worker = shell("echo \"$CELLHOST_CHANNEL_FD $EXTRA\" >&3")
        worker.environment = ["EXTRA": "yes"]
        _ = try worker.run { lines.append($0) }
        #expect(lines == ["3 yes"])
    }

    @Test func aMissingExecutableIsALaunchError() {
        #expect(throws: WorkerLaunchError.self) {
            try WorkerProcess(executable: "/nonexistent/worker", arguments: []).run { _ in }
        }
    }

    @Test func currentExecutableIsAnAbsolutePath() {
        #expect(WorkerProcess.currentExecutablePath.hasPrefix("/"))
    }
}
