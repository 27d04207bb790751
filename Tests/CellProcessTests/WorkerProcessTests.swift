import Glibc
import Testing
@testable import CellProcess

/// The worker is `/bin/sh`, so each test states the child's behaviour in one line.
@Suite struct WorkerProcessTests {
    /// `send TEXT` writes one text frame of this run to the channel, as `WorkerChannel` does.
    func shell(_ script: String) -> WorkerProcess {
        let send = #"seq=0; send() { printf '%s%08x%02x%08x%s' "$CELLHOST_CHANNEL_TOKEN" $seq 1 ${#1} "$1" >&3; seq=$((seq+1)); }; "#
        return WorkerProcess(executable: "/bin/sh", arguments: ["-c", send + script])
    }

    @Test func channelMessagesArriveInOrderAndStdoutStaysOffTheChannel() throws {
        var lines: [String] = []
        let result = try shell("send one; echo noise; send 'two\nthree'").run { lines.append($0) }
        #expect(lines == ["one", "two\nthree"])
        #expect(result.termination == .exited(code: 0))
        #expect(result.standardOutput == "noise\n")
    }

    /// A frame held back goes out with the next one, in order and in one write, or at `flush()`.
    @Test func aHeldFrameGoesOutWithTheNextOne() throws {
        var fds: [Int32] = [0, 0]
        #expect(pipe(&fds) == 0)
        defer { close(fds[0]) }
        let flags = fcntl(fds[0], F_GETFL)
        _ = fcntl(fds[0], F_SETFL, flags | O_NONBLOCK)
        let token = ChannelFrame.randomToken()
        let channel = WorkerChannel(descriptor: fds[1], token: token)
        func available() -> [UInt8] {
            var buffer = [UInt8](repeating: 0, count: 4096)
            let n = buffer.withUnsafeMutableBytes { read(fds[0], $0.baseAddress, $0.count) }
            return n > 0 ? Array(buffer[0..<n]) : []
        }
        func frame(_ sequence: UInt32, _ text: String) -> [UInt8] {
            var bytes: [UInt8] = []
            ChannelFrame.appendHeader(token: token, sequence: sequence, kind: ChannelFrame.textKind, length: text.utf8.count, to: &bytes)
            return bytes + Array(text.utf8)
        }
        Array("held".utf8).withUnsafeBytes { _ = channel.send(kind: ChannelFrame.textKind, payload: $0, holding: true) }
        #expect(available().isEmpty, "a held frame was written on its own")
        channel.send("next")
        #expect(available() == frame(0, "held") + frame(1, "next"))
        Array("last".utf8).withUnsafeBytes { _ = channel.send(kind: ChannelFrame.textKind, payload: $0, holding: true) }
        #expect(available().isEmpty)
        channel.flush()
        #expect(available() == frame(2, "last"))
        channel.flush()
        #expect(available().isEmpty, "a flush with nothing held wrote")
        close(fds[1])
    }

    /// Held frames go out once they pass the byte bound, or when the first of them is older than
    /// the time bound as another is sent: a busy worker is heard from often enough.
    @Test func heldFramesGoOutPastTheirBounds() throws {
        var fds: [Int32] = [0, 0]
        #expect(pipe(&fds) == 0)
        defer { close(fds[0]); close(fds[1]) }
        _ = fcntl(fds[0], F_SETFL, fcntl(fds[0], F_GETFL) | O_NONBLOCK)
        func available() -> Int {
            var buffer = [UInt8](repeating: 0, count: 1 << 17)
            return max(0, buffer.withUnsafeMutableBytes { read(fds[0], $0.baseAddress, $0.count) })
        }
        let payload = [UInt8](repeating: 0x61, count: 1000)
        let patient = WorkerChannel(descriptor: fds[1], token: ChannelFrame.randomToken(), heldSeconds: 3600)
        var sent = 0
        while available() == 0 {
            payload.withUnsafeBytes { _ = patient.send(kind: ChannelFrame.textKind, payload: $0, holding: true) }
            sent += 1
        }
        #expect(sent * (payload.count + ChannelFrame.headerLength) > WorkerChannel.heldBytesLimit)
        #expect((sent - 1) * (payload.count + ChannelFrame.headerLength) <= WorkerChannel.heldBytesLimit)

        let hasty = WorkerChannel(descriptor: fds[1], token: ChannelFrame.randomToken(), heldSeconds: 0.001)
        payload.withUnsafeBytes { _ = hasty.send(kind: ChannelFrame.textKind, payload: $0, holding: true) }
        usleep(5_000)
        payload.withUnsafeBytes { _ = hasty.send(kind: ChannelFrame.textKind, payload: $0, holding: true) }
        #expect(available() == 2 * (payload.count + ChannelFrame.headerLength))
    }

    @Test func exitStatusIsReported() throws {
        let result = try shell("echo oops >&2; exit 7").run { _ in }
        #expect(result.termination == .exited(code: 7))
        #expect(!result.termination.isSuccess)
        #expect(result.standardError == "oops\n")
    }

    @Test func aCrashIsReportedWithItsSignal() throws {
        let result = try shell("send before; kill -SEGV $$").run { _ in }
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
        let script = "for i in 1 2 3 4 5 6; do send tick; sleep 0.1; done"
        let result = try shell(script).run(limits: WorkerLimits(idleSeconds: 0.5)) { _ in count += 1 }
        #expect(result.termination == .exited(code: 0))
        #expect(count == 6)
    }

    @Test func silenceTripsTheIdleWatchdog() throws {
        var lines: [String] = []
        let result = try shell("send started; sleep 30").run(limits: WorkerLimits(idleSeconds: 0.3)) {
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
        _ = try shell("if read x; then send got; else send eof; fi").run { lines.append($0) }
        #expect(lines == ["eof"])
    }

    @Test func environmentReachesTheWorker() throws {
        var lines: [String] = []
        var worker = shell("send \"$CELLHOST_CHANNEL_FD $EXTRA\"")
        worker.environment = ["EXTRA": "yes"]
        _ = try worker.run { lines.append($0) }
        #expect(lines == ["3 yes"])
    }

    @Test func aMissingExecutableIsALaunchError() {
        #expect(throws: WorkerLaunchError.self) {
            try WorkerProcess(executable: "/nonexistent/worker", arguments: []).run { _ in }
        }
    }

    /// What the worker writes to the channel without the framing is a fault showing the bytes,
    /// and the worker is stopped there: nothing after it is taken.
    @Test(arguments: [
        (#"printf '{"record":"end","outcome":"ok"}\n' >&3"#, #"{\"record\":\"end\",\"outcome\":\"ok\"}\n"#),
        ("printf 'plain text' >&3", "plain text"),
        (#"printf '0000000000000000%08x01ffffffff' 0 >&3"#, "0000000000000000"),
    ])
    func bytesOutsideTheFramingAreAFault(write: String, shown: String) throws {
        var lines: [String] = []
        let result = try shell("send first; \(write); send second; sleep 30").run(limits: WorkerLimits(totalSeconds: 20)) {
            lines.append($0)
        }
        #expect(lines == ["first"])
        guard case .channelFault(let fault) = result.termination else {
            Issue.record("expected a channel fault, got \(result.termination)")
            return
        }
        #expect(fault.problem.contains("not a frame of this run"))
        #expect(fault.bytes.contains(shown))
        #expect(result.duration < 10)
    }

    @Test func aFrameOutOfSequenceIsAFault() throws {
        let result = try shell("send a; seq=0; send b").run { _ in }
        guard case .channelFault(let fault) = result.termination else {
            Issue.record("expected a channel fault, got \(result.termination)")
            return
        }
        #expect(fault.problem.contains("frame 0 where frame 1 was due"))
    }

    @Test func aHugeLengthIsAFaultWithoutWaitingForThePayload() throws {
        let script = #"printf '%s%08x%02x%08x' "$CELLHOST_CHANNEL_TOKEN" 0 1 4294967295 >&3; sleep 30"#
        let result = try shell(script).run(limits: WorkerLimits(totalSeconds: 20)) { _ in }
        guard case .channelFault(let fault) = result.termination else {
            Issue.record("expected a channel fault, got \(result.termination)")
            return
        }
        #expect(fault.problem.contains("4294967295 bytes"))
        #expect(result.duration < 10)
    }

    @Test func aFrameCutShortIsAFault() throws {
        let result = try shell(#"printf '%s%08x%02x%08xabc' "$CELLHOST_CHANNEL_TOKEN" 0 1 10 >&3"#).run { _ in }
        guard case .channelFault(let fault) = result.termination else {
            Issue.record("expected a channel fault, got \(result.termination)")
            return
        }
        #expect(fault.problem.contains("cut short"))
    }

    @Test func currentExecutableIsAnAbsolutePath() {
        #expect(WorkerProcess.currentExecutablePath.hasPrefix("/"))
    }
}
