import CWorkerProcess
import Glibc

/// Runs a worker child process — usually this same executable with a hidden subcommand — so
/// that plugin code which crashes, hangs, exits or floods its output is a reported outcome and
/// never takes the host down. The worker talks back over a dedicated message channel (fd 3, in
/// frames a plugin cannot forge: see `ChannelFrame`), so whatever a plugin prints on stdout, or
/// writes to the channel itself, cannot pass for records; the child's stdout and stderr are
/// drained, bounded and kept (their tail) for the report.
public struct WorkerProcess: Sendable {
    /// The file descriptor number of the message channel inside the worker.
    public static let channelDescriptor: Int32 = 3
    /// Environment variable telling the worker which descriptor is its channel.
    public static let channelEnvironmentKey = "CELLHOST_CHANNEL_FD"

    public var executable: String
    public var arguments: [String]
    /// Hands the supervisor's standard input to the worker (a streamed `--events -`);
    /// otherwise the worker reads /dev/null.
    public var inheritsStandardInput: Bool
    /// Extra environment entries; the rest of the supervisor's environment is passed on.
    public var environment: [String: String]
    /// The sandbox the worker enters before it loads plugin code (see `WorkerSandbox`).
    public var sandbox: WorkerSandbox.Setting

    public init(executable: String = WorkerProcess.currentExecutablePath, arguments: [String],
                inheritsStandardInput: Bool = false, environment: [String: String] = [:],
                sandbox: WorkerSandbox.Setting = .standard) {
        self.executable = executable
        self.arguments = arguments
        self.inheritsStandardInput = inheritsStandardInput
        self.environment = environment
        self.sandbox = sandbox
    }

    /// The signal (SIGINT, SIGTERM, SIGHUP) that interrupted a worker of this process, if any.
    /// Once one has, no further worker starts: the user asked the whole command to stop.
    public static var interruption: Int32? {
        let signal = cellhost_interrupt_received()
        return signal == 0 ? nil : signal
    }

    /// The running executable, from /proc/self/exe: how the tool re-executes itself.
    public static var currentExecutablePath: String {
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        let n = readlink("/proc/self/exe", &buffer, buffer.count - 1)
        guard n > 0 else { return CommandLine.arguments.first ?? "" }
        return String(decoding: buffer[0..<n].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// Starts the worker and blocks until it ends, calling `onMessage` for every text frame as
    /// it arrives (on the calling thread); a frame of another kind is a channel fault.
    public func run(limits: WorkerLimits = WorkerLimits(),
                    onMessage: (String) -> Void) throws(WorkerLaunchError) -> WorkerResult {
        try supervise(limits: limits) { frame in
            guard frame.kind == ChannelFrame.textKind else {
                return ChannelFault("a frame of unknown kind \(frame.kind)", bytes: frame.payload)
            }
            onMessage(String(decoding: frame.payload, as: UTF8.self))
            return nil
        }
    }

    /// Starts the worker and blocks until it ends, calling `onFrame` for every channel frame as
    /// it arrives (on the calling thread). The worker is killed (SIGKILL) when `limits` are
    /// exceeded, or when the channel carries what is not a frame of this run or `onFrame`
    /// refuses one; the result says which. SIGINT, SIGTERM and SIGHUP sent to this process while
    /// the worker runs end the worker and return `.interrupted`, so the caller can still commit
    /// what it has; when the worker ends, its whole process group is killed, so nothing it
    /// started outlives it. `whileWaiting` runs on the calling thread between reads, at least at
    /// the poll's pace (a few times a second) while the channel is quiet. A sandboxed worker's
    /// notified calls are answered in the same loop (`SandboxListener`); one it refuses ends the
    /// worker with `.refused`. `whenQuiet` runs once the worker has been quiet for a few
    /// milliseconds after sending something: what the caller batches goes out then, so a reader
    /// sees an event soon after it happened, without a write per record while records stream in.
    public func supervise(limits: WorkerLimits = WorkerLimits(), onFrame: (WorkerFrame) -> ChannelFault?,
                          whileWaiting: () -> Void = {}, whenQuiet: () -> Void = {}) throws(WorkerLaunchError) -> WorkerResult {
        let start = monotonicSeconds()
        cellhost_interrupts_catch()
        defer { cellhost_interrupts_release() }
        if let signal = Self.interruption {
            return WorkerResult(termination: .interrupted(signal: signal), standardOutput: "", standardError: "", duration: 0)
        }
        let token = ChannelFrame.randomToken()
        var channel: [Int32] = [-1, -1], out: [Int32] = [-1, -1], err: [Int32] = [-1, -1]
        guard closeOnExecPipe(&channel), closeOnExecPipe(&out), closeOnExecPipe(&err) else {
            throw .pipes(errnoDescription())
        }
        defer { for fd in [channel[0], out[0], err[0]] where fd >= 0 { close(fd) } }
        // The socket the sandboxed worker hands its notification listener over on (`SandboxListener`).
        var listenerPair: [Int32] = [-1, -1]
        if case .on = sandbox, cellhost_seccomp_notify_available() != 0,
           socketpair(AF_UNIX, Int32(SOCK_SEQPACKET.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0, &listenerPair) != 0 {
            throw .pipes(errnoDescription())
        }
        var listener = SandboxListener(socket: listenerPair[0])
        defer { listener.close() }

        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        if !inheritsStandardInput {
            posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        }
        posix_spawn_file_actions_adddup2(&actions, out[1], 1)
        posix_spawn_file_actions_adddup2(&actions, err[1], 2)
        posix_spawn_file_actions_adddup2(&actions, channel[1], WorkerProcess.channelDescriptor)
        if listenerPair[1] >= 0 { posix_spawn_file_actions_adddup2(&actions, listenerPair[1], WorkerSandbox.listenerDescriptor) }

        var env = Self.inheritedEnvironment()
        env[WorkerProcess.channelEnvironmentKey] = String(WorkerProcess.channelDescriptor)
        for (k, v) in WorkerSandbox.environment(sandbox) { env[k] = v }
        env[ChannelFrame.tokenEnvironmentKey] = String(decoding: token, as: UTF8.self)
        for (k, v) in environment { env[k] = v }
        let argv = ([executable] + arguments).map { strdup($0) } + [nil]
        let envp = env.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer { (argv + envp).forEach { free($0) } }

        // Its own process group, so a forced stop also ends anything the plugin started.
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETPGROUP))
        posix_spawnattr_setpgroup(&attributes, 0)

        var pid: pid_t = 0
        let spawned = posix_spawn(&pid, executable, &actions, &attributes, argv, envp)
        close(channel[1]); close(out[1]); close(err[1])
        if listenerPair[1] >= 0 { close(listenerPair[1]) }
        guard spawned == 0 else { throw .spawn(executable, String(cString: strerror(spawned))) }

        var reader = OutputReader(limits: limits, token: token)
        var lastMessage = start
        var forced: WorkerTermination?
        var open = [channel[0], out[0], err[0]]
        var groupKilled = false, lastEndCheck = start
        // Whether records arrived since `whenQuiet` last ran.
        var unflushed = false
        while open.contains(where: { $0 >= 0 }) {
            if let signal = Self.interruption { forced = .interrupted(signal: signal); break }
            let now = monotonicSeconds()
            // A process the worker started holds copies of its pipes: once the worker itself has
            // ended, its group goes, so the pipes close after their last bytes are read. Checked
            // at the poll's pace, not on every read, so a busy channel costs nothing more.
            if !groupKilled, now - lastEndCheck >= 0.05 {
                lastEndCheck = now
                if Self.hasEnded(pid) { kill(-pid, SIGKILL); groupKilled = true }
            }
            if let total = limits.totalSeconds, now - start > total { forced = .timedOut(seconds: total); break }
            if let idle = limits.idleSeconds, now - lastMessage > idle { forced = .timedOut(seconds: idle); break }
            var fds = (open + [listener.descriptor]).map { pollfd(fd: $0, events: Int16(POLLIN), revents: 0) }
            let ready = poll(&fds, nfds_t(fds.count), unflushed ? 5 : 50)
            if ready == 0 && unflushed { whenQuiet(); unflushed = false }
            if ready < 0 && errno != EINTR { break }
            // A refused call ends the worker; its pipes are still read to their end, so the
            // records it sent before (the event it was in) arrive.
            if fds[open.count].revents != 0, listener.readable() { kill(-pid, SIGKILL); groupKilled = true }
            for (i, p) in fds.prefix(open.count).enumerated() where p.fd >= 0 && p.revents != 0 {
                let stream: OutputReader.Stream = i == 0 ? .channel : (i == 1 ? .stdout : .stderr)
                unflushed = true
                let more = reader.read(p.fd, stream) { frame in lastMessage = monotonicSeconds(); return onFrame(frame) }
                if !more { open[i] = -1 }
            }
            if let fault = reader.fault { forced = .channelFault(fault); break }
            whileWaiting()
            if reader.captured > limits.outputBytes { forced = .outputFlood(bytes: reader.captured); break }
        }
        if forced != nil { kill(-pid, SIGKILL) }
        // Wait for the worker without reaping it: while it is a zombie its pid still names its
        // process group, so the group kill below cannot reach a stranger that reused the pid.
        var info = siginfo_t()
        while waitid(P_PID, id_t(pid), &info, WEXITED | WNOWAIT) < 0 && errno == EINTR {}
        kill(-pid, SIGKILL)
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        if forced == nil && status & 0x7f == 0 {
            reader.finishChannel()
            forced = reader.fault.map(WorkerTermination.channelFault)
        }

        let termination: WorkerTermination
        if let forced {
            termination = forced
        } else if let refusal = listener.refusal {
            termination = .refused(refusal.sentence(memoryLimit: nil))
        } else if let refusal = reader.sandboxRefusal, status != 0 {
            let memoryLimit: UInt64? = if case .on(let limit) = sandbox { limit } else { nil }
            termination = .refused(refusal.sentence(memoryLimit: memoryLimit))
        } else if status & 0x7f == 0 {
            termination = .exited(code: (status >> 8) & 0xff)
        } else {
            termination = .signaled(signal: status & 0x7f)
        }
        return WorkerResult(termination: termination, standardOutput: reader.stdoutTail.text,
                            standardError: reader.stderrTail.text, duration: monotonicSeconds() - start)
    }

    /// Whether `pid` has exited, without reaping it (its pid keeps naming its process group).
    static func hasEnded(_ pid: pid_t) -> Bool {
        var info = siginfo_t()
        return waitid(P_PID, id_t(pid), &info, WEXITED | WNOHANG | WNOWAIT) == 0 && info._sifields._sigchld.si_pid == pid
    }

    static func inheritedEnvironment() -> [String: String] {
        var env: [String: String] = [:]
        var p = environ
        while let entry = p.pointee {
            let s = String(cString: entry)
            if let eq = s.firstIndex(of: "=") { env[String(s[..<eq])] = String(s[s.index(after: eq)...]) }
            p += 1
        }
        return env
    }
}

/// When a worker is stopped by force.
public struct WorkerLimits: Sendable {
    /// Wall-clock limit for the whole run; nil = none.
    public var totalSeconds: Double?
    /// Longest silence on the message channel (a per-event watchdog for streamed runs); nil = none.
    public var idleSeconds: Double?
    /// Bytes the worker may write to stdout + stderr before it counts as flooding.
    public var outputBytes: Int

    public init(totalSeconds: Double? = nil, idleSeconds: Double? = nil, outputBytes: Int = 4 << 20) {
        self.totalSeconds = totalSeconds
        self.idleSeconds = idleSeconds
        self.outputBytes = outputBytes
    }
}

/// How a worker ended.
public enum WorkerTermination: Hashable, Sendable, CustomStringConvertible {
    case exited(code: Int32)
    case signaled(signal: Int32)
    case timedOut(seconds: Double)
    case outputFlood(bytes: Int)
    /// The sandbox stopped it: "the plugin tried to open a network socket".
    case refused(String)
    /// This process was asked to stop (SIGINT, SIGTERM, SIGHUP) and ended the worker.
    case interrupted(signal: Int32)
    /// The channel carried what is not a frame of this run, or a frame its reader refused.
    case channelFault(ChannelFault)

    public var isSuccess: Bool { self == .exited(code: 0) }

    public var description: String {
        switch self {
        case .exited(let code): "exited with status \(code)"
        case .signaled(let signal): "crashed with \(signalName(signal))"
        case .timedOut(let seconds): "did not answer within \(formatSeconds(seconds)) and was stopped"
        case .outputFlood(let bytes): "flooded its output (\(bytes) bytes) and was stopped"
        case .refused(let attempt): "was stopped because \(attempt)"
        case .interrupted(let signal): "was ended because cellhost received \(signalName(signal))"
        case .channelFault: "wrote to its channel what is not a record of this run and was stopped"
        }
    }
}

public struct WorkerResult: Sendable {
    public var termination: WorkerTermination
    /// The last few KiB the worker wrote to stdout and stderr, for the report.
    public var standardOutput: String
    public var standardError: String
    public var duration: Double
}

public enum WorkerLaunchError: Error, Hashable, Sendable, CustomStringConvertible {
    case pipes(String)
    case spawn(String, String)

    public var description: String {
        switch self {
        case .pipes(let reason): "could not create the worker's pipes: \(reason)"
        case .spawn(let path, let reason): "could not start the worker \(path): \(reason)"
        }
    }
}

/// The conventional name of a signal ("SIGSEGV"), for reports.
public func signalName(_ signal: Int32) -> String {
    let names: [Int32: String] = [
        SIGHUP: "SIGHUP", SIGINT: "SIGINT", SIGQUIT: "SIGQUIT", SIGILL: "SIGILL", SIGTRAP: "SIGTRAP",
        SIGABRT: "SIGABRT", SIGBUS: "SIGBUS", SIGFPE: "SIGFPE", SIGKILL: "SIGKILL", SIGSEGV: "SIGSEGV",
        SIGPIPE: "SIGPIPE", SIGALRM: "SIGALRM", SIGTERM: "SIGTERM", SIGSYS: "SIGSYS", SIGXCPU: "SIGXCPU", SIGXFSZ: "SIGXFSZ",
    ]
    return names[signal] ?? "signal \(signal)"
}

func formatSeconds(_ s: Double) -> String {
    s == s.rounded() ? "\(Int(s)) s" : "\(s) s"
}

func monotonicSeconds() -> Double {
    var ts = timespec()
    clock_gettime(CLOCK_MONOTONIC, &ts)
    return Double(ts.tv_sec) + Double(ts.tv_nsec) / 1e9
}

/// A pipe whose ends are not inherited by children (the spawn's dup2 makes the worker's copies).
private func closeOnExecPipe(_ fds: inout [Int32]) -> Bool {
    guard pipe(&fds) == 0 else { return false }
    for fd in fds { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
    return true
}

func errnoDescription() -> String { String(cString: strerror(errno)) }
