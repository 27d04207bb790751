import CellIO
import Glibc

/// `cellhost run --events -` fed by the bench in stages: between stages the bench waits until
/// the run has taken in everything written (its processes stop using CPU, blocked on input), then
/// reads their CPU time and the worker's resident memory from /proc. So figures about how a long
/// run behaves (its memory, its speed late against early) come from one run, as a user has it,
/// without trace files the size of the run.
final class FedRun {
    private let pid: pid_t
    private var input: Int32
    private let ticksPerSecond = Double(sysconf(Int32(_SC_CLK_TCK)))

    init(cellhost: String, arguments: [String]) throws {
        var fds: [Int32] = [0, 0]
        // Both ends close on exec: a run started later must not hold an earlier run's input open.
        guard pipe(&fds) == 0 else { throw BenchError("cannot make a pipe") }
        for fd in fds { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, fds[0], 0)
        posix_spawn_file_actions_addclose(&actions, fds[1])
        posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        let argv = (["cellhost", "run", "--events", "-"] + arguments).map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        var child: pid_t = 0
        guard posix_spawn(&child, cellhost, &actions, nil, argv, environ) == 0 else {
            throw BenchError("cannot start \(cellhost)")
        }
        close(fds[0])
        pid = child
        input = fds[1]
    }

    /// Writes `text` to the run's standard input (blocking while the run is behind).
    func write(_ text: String) throws {
        var text = text
        try text.withUTF8 { bytes in
            var offset = 0
            while offset < bytes.count {
                let n = Glibc.write(input, bytes.baseAddress! + offset, bytes.count - offset)
                if n < 0 && errno == EINTR { continue }
                guard n > 0 else { throw BenchError("cellhost run stopped reading its stream") }
                offset += n
            }
        }
    }

    /// Waits until the run has handled all it was given, then answers the CPU seconds its two
    /// processes (supervisor and worker) used so far and the worker's resident set in kB.
    /// `busyUntil`: the monotonic time (seconds) at which the CPU time last grew; `workerPeakKB`:
    /// the worker's high-water resident set.
    func settle() throws -> (cpu: Double, workerKB: Int, workerPeakKB: Int, busyUntil: Double) {
        // Sleeping, not merely waiting for a CPU ("R") or a page ("D"): a loaded machine
        // leaves a busy process unscheduled for longer than the samples.
        var last = -1.0, still = 0, busyUntil = Self.now()
        while still < 5 {
            usleep(20_000)
            let now = try cpuSeconds()
            let asleep = try Self.state(of: pid) == "S" && (workerPID().map { try Self.state(of: $0) } ?? "R") == "S"
            if now == last && asleep { still += 1 } else { still = 0 }
            if now != last { busyUntil = Self.now() }
            last = now
        }
        guard let worker = workerPID() else { throw BenchError("cellhost run has no worker process") }
        return (last, try Self.statusKB("VmRSS:", of: worker), try Self.statusKB("VmHWM:", of: worker), busyUntil)
    }

    static func now() -> Double {
        var ts = timespec()
        clock_gettime(CLOCK_MONOTONIC, &ts)
        return Double(ts.tv_sec) + Double(ts.tv_nsec) / 1e9
    }

    /// Ends the stream and waits for the run; throws when it failed.
    func finish() throws {
        close(input)
        input = -1
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        guard status == 0 else { throw BenchError("cellhost run failed (status \(status))") }
    }

    deinit {
        if input >= 0 {
            close(input)
            var status: Int32 = 0
            waitpid(pid, &status, 0)
        }
    }

    private func workerPID() -> pid_t? {
        guard let text = Self.read("/proc/\(pid)/task/\(pid)/children") else { return nil }
        return text.split(separator: " ").first.flatMap { pid_t($0.trimmingSpaces) }
    }

    private func cpuSeconds() throws -> Double {
        var ticks = try Self.cpuTicks(of: pid)
        if let worker = workerPID() { ticks += (try? Self.cpuTicks(of: worker)) ?? 0 }
        return Double(ticks) / ticksPerSecond
    }

    /// CPU nanoseconds the run's two processes have used so far, from the scheduler's own count
    /// per thread (/proc/PID/task/TID/schedstat, first field): /proc/PID/stat counts 10 ms
    /// ticks, too coarse to tell apart thousands of events of microseconds each. Read after
    /// `settle`; threads that ended are not counted (the run keeps its threads).
    func cpuNanoseconds() throws -> UInt64 {
        var total: UInt64 = 0
        for process in [pid] + (workerPID().map { [$0] } ?? []) {
            guard let threads = directoryEntries("/proc/\(process)/task") else { throw BenchError("cannot list /proc/\(process)/task") }
            for thread in threads {
                guard let text = Self.read("/proc/\(process)/task/\(thread)/schedstat"),
                      let field = text.split(separator: " ").first, let ns = UInt64(field) else { continue }
                total += ns
            }
        }
        return total
    }

    /// The scheduler state letter from /proc/PID/stat (field 3).
    private static func state(of pid: pid_t) throws -> Character {
        guard let text = read("/proc/\(pid)/stat"), let close = text.lastIndex(of: ")"),
              let letter = text[text.index(after: close)...].split(separator: " ").first?.first else {
            throw BenchError("cannot read /proc/\(pid)/stat")
        }
        return letter
    }

    /// utime + stime from /proc/PID/stat (fields 14 and 15, after the command's closing parenthesis).
    private static func cpuTicks(of pid: pid_t) throws -> Int {
        guard let text = read("/proc/\(pid)/stat"), let close = text.lastIndex(of: ")") else {
            throw BenchError("cannot read /proc/\(pid)/stat")
        }
        let fields = text[text.index(after: close)...].split(separator: " ")
        guard fields.count > 13, let user = Int(fields[11]), let system = Int(fields[12]) else {
            throw BenchError("unexpected /proc/\(pid)/stat")
        }
        return user + system
    }

    private static func statusKB(_ field: String, of pid: pid_t) throws -> Int {
        guard let text = read("/proc/\(pid)/status") else { throw BenchError("cannot read /proc/\(pid)/status") }
        for line in text.split(separator: "\n") where line.hasPrefix(field) {
            if let kb = Int(line.split(separator: " ", omittingEmptySubsequences: true).dropFirst().first ?? "") { return kb }
        }
        throw BenchError("/proc/\(pid)/status has no \(field) line")
    }

    private static func read(_ path: String) -> String? {
        guard let bytes = try? FileCopy.read(path) else { return nil }
        return String(decoding: bytes, as: UTF8.self)
    }
}

extension Substring {
    fileprivate var trimmingSpaces: Substring {
        var s = self
        while let c = s.last, c == "\n" || c == " " { s = s.dropLast() }
        return s
    }
}
