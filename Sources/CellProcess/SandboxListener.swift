import CWorkerProcess
import Glibc

/// The supervisor's end of the worker's notification filter (`enter_notify` in sandbox.c): the
/// worker's `execve` and its opening for writing and making of folders wait here until the
/// supervisor has read the path the call names. The runtime's crash backtracer runs and writes
/// inside the worker's writable folders go ahead (Landlock still decides both); anything else
/// fails with EACCES and becomes the run's `refusal`, and the supervisor ends the worker.
///
/// The path is read from the worker's memory, which another of its threads may change after it
/// was read: letting a call go ahead is therefore never what protects anything (Landlock does),
/// and a refusal is reported only when the call is still the one that was read
/// (`cellhost_notify_id_valid`).
struct SandboxListener {
    /// The socket the worker hands the listener over on, until it has.
    private var socket: Int32
    private var listener: Int32 = -1
    /// The worker's writable folders, as it sent them with the listener.
    private var writableFolders: [String] = []
    /// Where the runtime's crash backtracer lives (resolved), the only program the worker runs.
    private var backtracerFolder: String?
    /// The first call refused: what the run ends with.
    private(set) var refusal: SandboxRefusal?
    /// Whether each notified call is said on stderr (`CELLHOST_DEBUG_NOTIFICATIONS`), to count them.
    private let tellsEach = getenv("CELLHOST_DEBUG_NOTIFICATIONS") != nil

    /// `socket`: the supervisor's end of the pair whose other end the worker was given; -1 = none.
    init(socket: Int32) { self.socket = socket }

    /// The descriptor to poll (negative: nothing, which poll skips).
    var descriptor: Int32 { socket >= 0 ? socket : listener }

    mutating func close() {
        for fd in [socket, listener] where fd >= 0 { Glibc.close(fd) }
        socket = -1
        listener = -1
    }

    /// Takes the listener when it arrives, else answers one notified call. Returns true when a
    /// call was refused for the first time: the worker must be ended.
    mutating func readable() -> Bool {
        if socket >= 0 { takeListener(); return false }
        var call = cellhost_notification()
        guard listener >= 0, cellhost_notify_receive(listener, &call) == 0 else {
            // ENOENT: the call went away (its thread died); anything else: the listener is done.
            if errno != ENOENT && errno != EINTR { Glibc.close(listener); listener = -1 }
            return false
        }
        let answer = decide(call)
        if case .refuse(let attempt, let quietly) = answer, !quietly, refusal == nil,
           cellhost_notify_id_valid(listener, call.id) != 0 {
            refusal = attempt
            if tellsEach { report(call, "refused") }
            _ = cellhost_notify_respond(listener, call.id, EACCES)
            return true
        }
        if tellsEach { report(call, answer.goesAhead ? "went ahead" : "refused quietly") }
        _ = cellhost_notify_respond(listener, call.id, answer.goesAhead ? 0 : EACCES)
        return false
    }

    private func report(_ call: cellhost_notification, _ answer: String) {
        let path = readPath(call) ?? "?"
        let line = Array("cellhost: notified \(call.kind == CELLHOST_NOTIFIED_RUN ? "run" : "write") \(path) (folder \(call.folder_fd)): \(answer)\n".utf8)
        _ = line.withUnsafeBytes { write(2, $0.baseAddress, $0.count) }
    }

    private mutating func takeListener() {
        var paths = [CChar](repeating: 0, count: 16384)
        var length = 0
        let fd = cellhost_listener_receive(socket, &paths, paths.count, &length)
        Glibc.close(socket)
        socket = -1
        guard fd >= 0 else { return }
        listener = fd
        writableFolders = paths[..<length].split(separator: 0).map { String(decoding: $0.map { UInt8(bitPattern: $0) }, as: UTF8.self) }
        backtracerFolder = WorkerSandbox.backtracerExecutables(mapped: WorkerSandbox.mappedFiles()).first.map(WorkerSandbox.absolute)
    }

    enum Answer {
        case goAhead
        /// `quietly`: refused without blaming the plugin (see `decide`).
        case refuse(SandboxRefusal, quietly: Bool)

        var goesAhead: Bool { if case .goAhead = self { true } else { false } }
    }

    private func readPath(_ call: cellhost_notification) -> String? {
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        guard cellhost_notify_read_string(call.pid, call.path_address, &buffer, buffer.count) > 0 else { return nil }
        return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    func decide(_ call: cellhost_notification) -> Answer {
        let written = readPath(call)
        switch call.kind {
        case Int32(CELLHOST_NOTIFIED_RUN):
            guard let written, let folder = backtracerFolder,
                  let path = Self.resolve(written, folder: call.folder_fd, pid: call.pid) else { return .refuse(.run(written), quietly: false) }
            return Self.isInside(path, folder) ? .goAhead : .refuse(.run(written), quietly: false)
        case Int32(CELLHOST_NOTIFIED_WRITE), Int32(CELLHOST_NOTIFIED_REMOVE):
            let attempt = call.kind == Int32(CELLHOST_NOTIFIED_REMOVE) ? SandboxRefusal.remove : SandboxRefusal.write
            guard let written else { return .refuse(attempt(nil), quietly: false) }
            guard let path = Self.resolve(Self.supervisorsView(of: written, pid: call.pid), folder: call.folder_fd, pid: call.pid) else {
                return .refuse(attempt(written), quietly: false)
            }
            // A descriptor the worker has that is no file (its pipes to the supervisor): reopening
            // it writes where the worker may write already.
            if path.hasPrefix("/proc/\(call.pid)/fd/") { return .goAhead }
            if writableFolders.contains(where: { Self.isInside(path, $0) }) { return .goAhead }
            // mkdir of a folder that exists writes nothing (the kernel answers EEXIST): the host
            // makes an output folder's parents that way.
            if call.makes_folder != 0 && access(path, F_OK) == 0 { return .goAhead }
            // fontconfig rewrites a stale cache when it rechecks its fonts during a run; the
            // host, not the plugin, made that call, and Landlock refuses it either way.
            if WorkerSandbox.fontCacheFolders.contains(where: { Self.isInside(path, WorkerSandbox.absolute($0)) }) {
                return .refuse(attempt(path), quietly: true)
            }
            return .refuse(attempt(path), quietly: false)
        default:
            return .goAhead
        }
    }

    /// The names a process has for itself (/proc/self, /dev/fd, /dev/stdout) as the supervisor
    /// names the same things, so that resolving them does not find the supervisor's own.
    static func supervisorsView(of path: String, pid: Int32) -> String {
        for (own, seen) in [("/proc/self/", "/proc/\(pid)/"), ("/proc/thread-self/", "/proc/\(pid)/"), ("/dev/fd/", "/proc/\(pid)/fd/")]
        where path.hasPrefix(own) {
            return seen + path.dropFirst(own.count)
        }
        let standard = ["/dev/stdin": 0, "/dev/stdout": 1, "/dev/stderr": 2]
        return standard[path].map { "/proc/\(pid)/fd/\($0)" } ?? path
    }

    static func isInside(_ path: String, _ folder: String) -> Bool {
        path == folder || path.hasPrefix(folder.hasSuffix("/") ? folder : folder + "/")
    }

    /// `path` as the worker named it, made absolute against the folder it was relative to (the
    /// worker's working directory or an open folder of it), symbolic links resolved as far as
    /// the path exists; nil when that folder cannot be read.
    static func resolve(_ path: String, folder: Int32, pid: Int32) -> String? {
        guard !path.hasPrefix("/") else { return WorkerSandbox.absolute(path) }
        let link = folder == AT_FDCWD ? "/proc/\(pid)/cwd" : "/proc/\(pid)/fd/\(folder)"
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        let n = readlink(link, &buffer, buffer.count - 1)
        guard n > 0, buffer[0] == 0x2F else { return nil }
        let base = String(decoding: buffer[0..<n].map { UInt8(bitPattern: $0) }, as: UTF8.self)
        return WorkerSandbox.absolute(base + "/" + path)
    }
}
