import CWorkerProcess
import Glibc

/// The rules a worker runs plugin code under on Linux. Plugins are untrusted native code loaded
/// with dlopen, so the process that loads them gets only what rendering cells needs, set up
/// before any plugin code runs:
///
/// - **Files (Landlock).** Reading: the plugins and the stream it was given, the system's
///   libraries and configuration (/usr, /lib, /etc), fonts and fontconfig's caches, the
///   libraries already mapped, and /proc. Writing: the output folder (frames, the
///   contact sheet and the temporary names they are written under) and /dev/null. A plugin that
///   opens anything else gets EACCES, and its file is not written.
/// - **System calls (seccomp).** No sockets (nobody to talk to); no new processes (a child would
///   outlive the run and its limits), threads allowed; no `execve` but the Swift runtime's
///   crash backtracer, which Landlock alone may execute; no signals to any process but itself,
///   no tracing, no leaving its process group. A refused call ends the worker and is reported
///   ("the plugin tried to open a network socket").
/// - **Calls the supervisor answers (seccomp user notification).** `execve` and opening for
///   writing or making a folder are stopped until the supervisor has looked at the path
///   (`SandboxListener`): the backtracer runs, writes inside the output folder go ahead, anything
///   else fails with EACCES and ends the run, reported ("the plugin tried to run /bin/sh", "the
///   plugin tried to write /home/u/x"). The host writes its frames with `openat` on a mark
///   descriptor the filter lets through, so frames cost no round trip; and it writes nothing
///   else after entering the sandbox (`FontconfigLoading` runs before it), so every notified
///   write is the plugin's.
/// - **Limits.** Address space (`--memory-limit`, default 2 GiB; an allocation failure that ends
///   the worker is reported as the limit being exceeded), CPU time, file size, open files.
/// - **no_new_privs**, so no setuid program hands a plugin more rights than the worker has.
///
/// Where the kernel lacks Landlock or seccomp the worker runs with what is left, and the
/// supervisor says so once (`weakerIsolation`).
public enum WorkerSandbox {
    /// Whether a worker enters the sandbox, and its address-space limit.
    public enum Setting: Sendable, Hashable {
        case on(memoryLimit: UInt64)
        case off

        public static let standard = Setting.on(memoryLimit: WorkerSandbox.defaultMemoryLimit)
    }

    public static let defaultMemoryLimit: UInt64 = 2 << 30
    /// Limits that only a runaway plugin reaches: a day of CPU time (a stream read from standard
    /// input may run for hours with no watchdog), a 4 GiB file, 1024 open files.
    static let cpuSeconds: UInt64 = 24 * 3600
    static let fileBytes: UInt64 = 4 << 30
    static let openFiles: UInt64 = 1024

    /// Environment keys the supervisor passes the setting and its own pid in.
    static let settingKey = "CELLHOST_SANDBOX"
    static let supervisorKey = "CELLHOST_SUPERVISOR_PID"
    /// The descriptor the worker hands its notification listener over on, when the supervisor made one.
    static let listenerKey = "CELLHOST_LISTENER_FD"
    static let listenerDescriptor: Int32 = 4

    static func environment(_ setting: Setting) -> [String: String] {
        var env = [supervisorKey: String(getpid())]
        switch setting {
        case .off: env[settingKey] = "off"
        case .on(let memoryLimit):
            env[settingKey] = "memory=\(memoryLimit)"
            // Without Landlock nothing may be executed, so the runtime's crash backtracer could
            // not start; its attempt would read as the plugin starting a process.
            if cellhost_landlock_abi() == 0 { env["SWIFT_BACKTRACE"] = "enable=no" }
            if cellhost_seccomp_notify_available() != 0 { env[listenerKey] = String(listenerDescriptor) }
        }
        return env
    }

    /// What this kernel lacks, as one sentence for stderr, or nil when the sandbox is whole.
    public static var weakerIsolation: String? {
        var missing: [String] = []
        if cellhost_landlock_abi() == 0 { missing.append("no Landlock, so plugins may read and write any file the user can") }
        if cellhost_seccomp_available() == 0 {
            missing.append("no seccomp, so plugins may open sockets, start processes and signal others")
        } else if cellhost_seccomp_notify_available() == 0 {
            missing.append("no seccomp user notification, so a plugin's attempts to run programs or write outside the output folder fail unreported")
        }
        return missing.isEmpty ? nil : "running with weaker isolation: the kernel has " + missing.joined(separator: " and ")
    }

    /// "2 GB": a limit as the user would write it back.
    public static func describe(bytes: UInt64) -> String {
        for (unit, shift) in [("GB", 30), ("MB", 20), ("KB", 10)] where bytes >= 1 << shift && bytes % (1 << shift) == 0 {
            return "\(bytes >> shift) \(unit)"
        }
        return "\(bytes) bytes"
    }

    /// `BYTES` or a number with K, M, G or T (powers of 1024): "2G", "512M", "1073741824".
    public static func parseMemoryLimit(_ text: String) -> UInt64? {
        let units: [Character: UInt64] = ["K": 1 << 10, "M": 1 << 20, "G": 1 << 30, "T": 1 << 40]
        var digits = Substring(text.uppercased())
        if digits.hasSuffix("B") && digits.count > 1 && units[digits[digits.index(before: digits.index(before: digits.endIndex))]] != nil {
            digits = digits.dropLast()
        }
        var scale: UInt64 = 1
        if let last = digits.last, let unit = units[last] { scale = unit; digits = digits.dropLast() }
        guard let value = UInt64(digits), value > 0 else { return nil }
        let (product, overflow) = value.multipliedReportingOverflow(by: scale)
        return overflow ? nil : product
    }

    /// The first act of every worker: it dies with its supervisor (SIGKILL when the parent
    /// goes), so no worker ever goes on writing frames for a `cellhost` that is gone.
    public static func dieWithSupervisor() {
        guard let raw = getenv(supervisorKey), let pid = pid_t(String(cString: raw)) else { return }
        _ = cellhost_die_with_parent(pid)
    }

    /// `path` made absolute (symbolic links resolved) while the worker's directory is still the
    /// one it was started in, so a plugin's `chdir` cannot redirect it. A path that does not
    /// exist yet keeps its name under its resolved folder.
    public static func absolute(_ path: String) -> String {
        if let resolved = realpath(path, nil) {
            defer { free(resolved) }
            return String(cString: resolved)
        }
        guard let slash = path.lastIndex(of: "/") else { return absolute(".") + "/" + path }
        let parent = slash == path.startIndex ? "/" : String(path[..<slash])
        return absolute(parent) + "/" + path[path.index(after: slash)...]
    }

    /// Enters the sandbox the supervisor asked for (nothing when it said `off` or this process
    /// was not started by one). `reading` and `writing` must be absolute and exist. Call it
    /// before the worker starts a thread: Landlock binds the calling thread and the threads and
    /// processes it starts later (the seccomp filter is synchronised to every thread anyway).
    ///
    /// `hostWrites`: the descriptor the host marks its own output writes with (see
    /// `host_write_fd` in worker_process.h), -1 for none.
    public static func enter(reading: [String], writing: [String], hostWrites: Int32 = -1) throws(WorkerSandboxError) {
        guard let raw = getenv(settingKey) else { return }
        let setting = String(cString: raw)
        guard setting.hasPrefix("memory="), let requested = UInt64(setting.dropFirst("memory=".count)) else { return }
        let files = mappedFiles()
        let reads = reading + systemFolders + fontFolders + folders(of: files)
        let writes = writing + ["/dev/null"]
        let executes = backtracerExecutables(mapped: files)
        // A sanitizer runtime (preloaded to run an AddressSanitizer plugin) reserves terabytes of
        // shadow address space up front; an address-space limit would stop it from starting.
        let sanitized = files.contains { $0.contains("asan") || $0.contains("tsan") || $0.contains("msan") }
        let memory = sanitized ? 0 : requested
        let channel = getenv(WorkerProcess.channelEnvironmentKey).flatMap { Int32(String(cString: $0)) } ?? -1
        let listenerSocket = getenv(listenerKey).flatMap { Int32(String(cString: $0)) }.flatMap { fcntl($0, F_GETFD) >= 0 ? $0 : nil } ?? -1
        var problem = [CChar](repeating: 0, count: 512)
        let result = withCStrings(reads) { r in
            withCStrings(writes) { w in
                withCStrings(executes) { x in
                    var policy = cellhost_sandbox_policy(read_paths: r, read_count: reads.count, write_paths: w,
                                                         write_count: writes.count, execute_paths: x, execute_count: executes.count,
                                                         channel_fd: channel, listener_socket: listenerSocket, host_write_fd: hostWrites,
                                                         memory_bytes: memory, cpu_seconds: cpuSeconds,
                                                         file_bytes: fileBytes, open_files: openFiles)
                    return cellhost_sandbox_enter(&policy, &problem, problem.count)
                }
            }
        }
        if result < 0 { throw WorkerSandboxError(reason: String(decoding: problem.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)) }
    }

    /// The system's libraries, configuration, devices that only produce bytes, and the facts
    /// about processes and the machine's processors that the C library and runtime read. All of
    /// /proc rather than /proc/self: a Landlock rule is bound to the folder /proc/self named when
    /// it was made, and the crash backtracer, a child, reads its own /proc/self too.
    static let systemFolders = ["/usr", "/lib", "/lib32", "/lib64", "/etc", "/proc", "/sys/devices/system/cpu",
                                "/dev/urandom", "/dev/random", "/dev/zero"]

    /// Where fontconfig looks for fonts, its configuration and its caches (fonts under /usr are
    /// already readable). A cache fontconfig cannot update is rebuilt in memory, so none is writable.
    static var fontFolders: [String] {
        let env = { (key: String) in getenv(key).map { String(cString: $0) }.flatMap { $0.isEmpty ? nil : $0 } }
        var folders = fontCacheFolders + ["/usr/local/share/fonts"]
        if let home = env("HOME") {
            folders += ["\(home)/.fonts", "\(home)/.local/share/fonts", "\(home)/.config/fontconfig"]
        }
        if let data = env("XDG_DATA_HOME") { folders.append("\(data)/fonts") }
        if let config = env("XDG_CONFIG_HOME") { folders.append("\(config)/fontconfig") }
        if let file = env("FONTCONFIG_FILE") { folders.append(absolute(file)) }
        if let path = env("FONTCONFIG_PATH") { folders += path.split(separator: ":").map { absolute(String($0)) } }
        return folders
    }

    /// Where fontconfig keeps its caches.
    static var fontCacheFolders: [String] {
        let env = { (key: String) in getenv(key).map { String(cString: $0) }.flatMap { $0.isEmpty ? nil : $0 } }
        return ["/var/cache/fontconfig"] + (env("HOME").map { ["\($0)/.cache/fontconfig"] } ?? [])
            + (env("XDG_CACHE_HOME").map { ["\($0)/fontconfig"] } ?? [])
    }

    /// Every file this process has mapped (the executable, the Swift runtime, the C libraries).
    static func mappedFiles() -> [String] {
        guard let file = fopen("/proc/self/maps", "r") else { return [] }
        defer { fclose(file) }
        var paths: Set<String> = []
        var line: UnsafeMutablePointer<CChar>?
        var capacity = 0
        defer { free(line) }
        while getline(&line, &capacity, file) > 0, let line {
            let text = String(cString: line)
            guard let slash = text.firstIndex(of: "/") else { continue }
            paths.insert(String(text[slash...].dropLast(text.hasSuffix("\n") ? 1 : 0)))
        }
        return paths.sorted()
    }

    /// The folders of the mapped files: the executable's own (where the sample plugins are
    /// built) and the runtime's, wherever the toolchain is installed.
    static func folders(of files: [String]) -> [String] {
        let folders = files.compactMap { path in path.lastIndex(of: "/").map { String(path[..<$0]) } }
        return Array(Set(folders.filter { !$0.isEmpty })).sorted()
    }

    /// What executing the Swift runtime's crash backtracer takes: its folder,
    /// <toolchain>/usr/libexec/swift/linux beside <toolchain>/usr/lib/swift/linux/libswiftCore.so,
    /// and the dynamic loader (ld-linux), which the kernel executes along with it.
    static func backtracerExecutables(mapped: [String]) -> [String] {
        guard let core = mapped.first(where: { $0.hasSuffix("/libswiftCore.so") }) else { return [] }
        var parts = core.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count > 4 else { return [] }
        parts.removeLast(4)
        let loader = mapped.filter { $0.split(separator: "/").last?.hasPrefix("ld-linux") == true }
        return [parts.joined(separator: "/") + "/libexec/swift/linux"] + loader
    }

    private static func withCStrings<R>(_ strings: [String], _ body: (UnsafePointer<UnsafePointer<CChar>?>) -> R) -> R {
        let copies = strings.map { UnsafePointer(strdup($0)) }
        defer { copies.forEach { free(UnsafeMutablePointer(mutating: $0)) } }
        return copies.withUnsafeBufferPointer { body($0.baseAddress!) }
    }
}

public struct WorkerSandboxError: Error, Sendable, CustomStringConvertible {
    public var reason: String
    public var description: String { "the worker could not enter its sandbox: \(reason)" }
}

/// What the sandbox refused: named by the worker's handlers on the channel (a word), or by the
/// supervisor answering a notified call (`SandboxListener`, with the path the call named).
public enum SandboxRefusal: Sendable, Hashable {
    case socket, process, signal, trace, group, memory, syscall
    /// `execve` of anything but the runtime's crash backtracer; nil when its path was unreadable.
    case run(String?)
    /// Opening for writing or making a folder outside the output folder; nil when its path was unreadable.
    case write(String?)
    /// Removing a file or folder outside the output folder; nil when its path was unreadable.
    case remove(String?)

    /// "the plugin tried to open a network socket".
    public func sentence(memoryLimit: UInt64?) -> String {
        switch self {
        case .socket: "the plugin tried to open a network socket"
        case .process: "the plugin tried to start a process"
        case .signal: "the plugin tried to signal another process"
        case .trace: "the plugin tried to trace another process"
        case .group: "the plugin tried to leave its process group"
        case .memory: "it exceeded the memory limit" + (memoryLimit.map { " of " + WorkerSandbox.describe(bytes: $0) } ?? "")
        case .syscall: "the plugin made a system call the sandbox refuses"
        case .run(let path): "the plugin tried to run " + (path.map(Self.bounded) ?? "a program")
        case .write(let path): "the plugin tried to write " + (path.map(Self.bounded) ?? "a file outside the output folder")
        case .remove(let path): "the plugin tried to remove " + (path.map(Self.bounded) ?? "a file outside the output folder")
        }
    }

    /// A path as named in a report: a plugin chooses it, so it is cut short and its control
    /// characters escaped.
    static func bounded(_ path: String) -> String {
        var shown = ""
        for scalar in path.unicodeScalars.prefix(240) {
            shown += scalar.value < 0x20 || scalar.value == 0x7F ? scalar.escaped(asASCII: true) : String(scalar)
        }
        return path.unicodeScalars.count > 240 ? shown + "…" : shown
    }

    /// The words the worker's handlers write (see `refused_word` in sandbox.c).
    init?(word: String) {
        switch word {
        case "socket": self = .socket
        case "process": self = .process
        case "signal": self = .signal
        case "trace": self = .trace
        case "group": self = .group
        case "memory": self = .memory
        case "syscall": self = .syscall
        default: return nil
        }
    }

    /// The channel line's prefix, for the supervisor to take it out of the records.
    static let linePrefix = #"{"record":"sandbox","refused":""#
    static let linePrefixBytes = Array(linePrefix.utf8)

    init?(line: String) {
        guard line.hasPrefix(Self.linePrefix) else { return nil }
        self.init(word: String(line.dropFirst(Self.linePrefix.count).prefix { $0 != "\"" }))
    }
}
