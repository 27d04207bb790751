import Glibc
import Synchronization

/// The worker → supervisor channel's framing. The supervisor treats the worker as untrusted:
/// plugin code runs in the worker and can write to any descriptor it has, the channel's
/// included. A descriptor the plugin cannot reach would need the plugin out of the worker's
/// process, which is what the worker exists to avoid, so the channel is instead a framing the
/// plugin cannot pass off as records:
///
///     token (16 hex digits) · sequence (8 hex) · kind (2 hex) · payload length (8 hex) · payload
///
/// - The token is random per run: the supervisor makes it and hands it over in the environment,
///   and the worker reads it and scrubs it (from `environ` and the memory /proc/self/environ
///   shows) before any plugin is loaded. Bytes a plugin writes to the descriptor do not start
///   with it, so the frame they land in is refused.
/// - The sequence counts frames from 0: a copy of an earlier frame, or a frame out of order, is
///   refused.
/// - The length is bounded (`maximumPayload`), so a forged header cannot make the supervisor
///   wait for, or buffer, gigabytes.
/// - The kind and the payload's shape are checked by the layer that gave them meaning (a run's
///   supervisor, `validate`, `inspect`).
/// The header is text so that a frame can be written by hand (tests, a shell script); its cost is
/// one short formatting per frame. A plugin that reads the token out of the worker's memory can
/// forge frames: that is code deliberately attacking the host, which the worker's sandbox bounds;
/// the framing's guarantee is that nothing reaches the supervisor as a record by being written
/// to the descriptor without the token and the next sequence number.
public enum ChannelFrame {
    public static let tokenLength = 16
    public static let headerLength = tokenLength + 8 + 2 + 8
    /// The longest payload a frame may carry: far above any record a run makes, far below what
    /// would strain the supervisor.
    public static let maximumPayload = 64 << 20
    /// A UTF-8 message without a newline (`validate` and `inspect` speak in these).
    public static let textKind: UInt8 = 0x01
    /// Environment variable carrying the token to the worker.
    public static let tokenEnvironmentKey = "CELLHOST_CHANNEL_TOKEN"

    /// A fresh random token (16 lowercase hex digits).
    public static func randomToken() -> [UInt8] {
        var raw = [UInt8](repeating: 0, count: tokenLength / 2)
        var filled = 0
        let random = open("/dev/urandom", O_RDONLY | O_CLOEXEC)
        while random >= 0 && filled < raw.count {
            let n = raw.withUnsafeMutableBytes { read(random, $0.baseAddress! + filled, $0.count - filled) }
            if n > 0 { filled += n } else if n == 0 || errno != EINTR { break }
        }
        if random >= 0 { close(random) }
        if filled < raw.count {  // No /dev/urandom: still unpredictable to a plugin written in advance.
            var seed = UInt64(bitPattern: Int64(monotonicSeconds() * 1e9)) ^ UInt64(getpid())
            for i in raw.indices { seed = seed &* 6364136223846793005 &+ 1442695040888963407; raw[i] = UInt8(seed >> 56) }
        }
        var token: [UInt8] = []
        for byte in raw { appendHex(UInt32(byte), digits: 2, to: &token) }
        return token
    }

    /// Appends the header of a frame.
    static func appendHeader(token: [UInt8], sequence: UInt32, kind: UInt8, length: Int, to bytes: inout [UInt8]) {
        bytes.append(contentsOf: token)
        appendHex(sequence, digits: 8, to: &bytes)
        appendHex(UInt32(kind), digits: 2, to: &bytes)
        appendHex(UInt32(length), digits: 8, to: &bytes)
    }

    static func appendHex(_ value: UInt32, digits: Int, to bytes: inout [UInt8]) {
        for shift in stride(from: (digits - 1) * 4, through: 0, by: -4) {
            let nibble = UInt8((value >> UInt32(shift)) & 0xF)
            bytes.append(nibble < 10 ? 0x30 + nibble : 0x61 + nibble - 10)
        }
    }

    /// The value of `digits` lowercase hex digits, nil when any is not one.
    static func hexValue(_ bytes: ArraySlice<UInt8>) -> UInt32? {
        var value: UInt32 = 0
        for b in bytes {
            let nibble: UInt8
            switch b {
            case 0x30...0x39: nibble = b - 0x30
            case 0x61...0x66: nibble = b - 0x61 + 10
            default: return nil
            }
            value = value << 4 | UInt32(nibble)
        }
        return value
    }

    /// `bytes` for a report: printable ASCII as is, the rest escaped, at most `limit` bytes shown.
    public static func quoted(_ bytes: some Collection<UInt8>, limit: Int = 96) -> String {
        var s = "\""
        for b in bytes.prefix(limit) {
            switch b {
            case 0x22: s += "\\\""
            case 0x5C: s += "\\\\"
            case 0x0A: s += "\\n"
            case 0x20...0x7E: s.unicodeScalars.append(Unicode.Scalar(b))
            default: s += "\\x" + String(b, radix: 16).leftPadded(to: 2)
            }
        }
        s += "\""
        if bytes.count > limit { s += " (\(bytes.count) bytes, the first \(limit) shown)" }
        return s
    }
}

extension String {
    fileprivate func leftPadded(to width: Int) -> String {
        count >= width ? self : String(repeating: "0", count: width - count) + self
    }
}

/// The worker's end of the channel: each message goes out as one frame (see `ChannelFrame`),
/// written whole (after any frame held back) by one `write` loop under a lock, so the supervisor
/// never sees half a frame from a worker that dies between two of them, nor two threads' frames
/// interleaved.
public final class WorkerChannel: Sendable {
    private let fd: Int32
    private let token: [UInt8]
    private struct Sending {
        var sequence: UInt32 = 0
        var bytes: [UInt8] = []
        /// When the first frame held now was sent.
        var heldSince = 0.0
    }
    /// The most bytes frames held back may take; the frame that passes it goes out with them.
    /// Far below what a pipe holds, so the `write` of them does not wait for the supervisor.
    public static let heldBytesLimit = 16 << 10
    /// The longest frames stay held while the worker sends more: the supervisor hears from a
    /// busy worker at least this often, whatever its watchdog expects.
    public static let heldSecondsLimit = 0.02
    private let sending = Mutex(Sending())

    /// The channel the supervisor opened for this process, or nil when not run as a worker. The
    /// token is scrubbed from the environment here, so call this before loading any plugin.
    public static func fromEnvironment() -> WorkerChannel? {
        guard let raw = getenv(WorkerProcess.channelEnvironmentKey), let fd = Int32(String(cString: raw)),
              fcntl(fd, F_GETFD) >= 0, let tokenPointer = getenv(ChannelFrame.tokenEnvironmentKey)
        else { return nil }
        let token = Array(String(cString: tokenPointer).utf8)
        guard token.count == ChannelFrame.tokenLength else { return nil }
        // getenv points into the memory /proc/self/environ shows: overwrite it, then drop the entry.
        memset(tokenPointer, 0x30, strlen(tokenPointer))
        unsetenv(ChannelFrame.tokenEnvironmentKey)
        // A supervisor that has gone away must not kill the worker with SIGPIPE mid-write.
        signal(SIGPIPE, SIG_IGN)
        return WorkerChannel(descriptor: fd, token: token)
    }

    /// How long this channel holds frames (`heldSecondsLimit`; tests that must not race the
    /// clock give more).
    private let heldSeconds: Double

    public init(descriptor: Int32, token: [UInt8], heldSeconds: Double = WorkerChannel.heldSecondsLimit) {
        fd = descriptor
        self.token = token
        self.heldSeconds = heldSeconds
    }

    /// Sends one text message (`ChannelFrame.textKind`). Returns false when the supervisor is gone.
    @discardableResult
    public func send(_ text: String) -> Bool {
        let utf8 = Array(text.utf8)
        return utf8.withUnsafeBytes { send(kind: ChannelFrame.textKind, payload: $0) }
    }

    /// Sends one frame of `kind` carrying `payload`, after any frame held back. Returns false when
    /// the supervisor is gone.
    ///
    /// `holding`: keep the frame in the worker until the next frame sent without holding, or
    /// `flush()`, so that they go out in one `write`; held frames go out anyway once they pass
    /// `heldBytesLimit`, or the first of them is `heldSecondsLimit` old when another is sent.
    /// Only for frames that others follow promptly, and never while code that might crash the
    /// worker (a plugin's) could run: a worker that dies meanwhile loses them, whole.
    @discardableResult
    public func send(kind: UInt8, payload: UnsafeRawBufferPointer, holding: Bool = false) -> Bool {
        precondition(payload.count <= ChannelFrame.maximumPayload, "a channel frame is bounded")
        return sending.withLock { state in
            let wasHolding = !state.bytes.isEmpty
            ChannelFrame.appendHeader(token: token, sequence: state.sequence, kind: kind, length: payload.count, to: &state.bytes)
            state.bytes.append(contentsOf: payload)
            state.sequence &+= 1
            guard holding, state.bytes.count <= Self.heldBytesLimit else { return writeHeld(&state) }
            let now = monotonicSeconds()
            if !wasHolding { state.heldSince = now } else if now - state.heldSince >= heldSeconds { return writeHeld(&state) }
            return true
        }
    }

    /// Writes the frame held back, if any. Returns false when the supervisor is gone.
    @discardableResult
    public func flush() -> Bool {
        sending.withLock { state in state.bytes.isEmpty ? true : writeHeld(&state) }
    }

    private func writeHeld(_ state: inout Sending) -> Bool {
        defer { state.bytes.removeAll(keepingCapacity: true) }
        return state.bytes.withUnsafeBytes { writeAll($0) }
    }

    private func writeAll(_ bytes: UnsafeRawBufferPointer) -> Bool {
        var offset = 0
        while offset < bytes.count {
            let n = write(fd, bytes.baseAddress! + offset, bytes.count - offset)
            if n < 0 {
                if errno == EINTR { continue }
                return false
            }
            offset += n
        }
        return true
    }
}
