import Glibc

/// One frame from the worker, its header checked: the run's token, the next sequence number,
/// a payload within the bound. The payload is valid only during the call that receives it.
public struct WorkerFrame {
    public let sequence: UInt32
    public let kind: UInt8
    public let payload: UnsafeRawBufferPointer

    public init(sequence: UInt32, kind: UInt8, payload: UnsafeRawBufferPointer) {
        self.sequence = sequence
        self.kind = kind
        self.payload = payload
    }
}

/// Why the channel's bytes were refused: what was wrong, and the offending bytes (escaped, bounded).
public struct ChannelFault: Error, Hashable, Sendable, CustomStringConvertible {
    public var problem: String
    public var bytes: String

    public init(_ problem: String, bytes: some Collection<UInt8>) {
        self.problem = problem
        self.bytes = ChannelFrame.quoted(bytes)
    }

    public var description: String { "\(problem): \(bytes)" }
}

/// Drains a worker's three pipes: cuts the channel into frames and checks each header (see
/// `ChannelFrame`), keeps only the tail of stdout and stderr (a flooding plugin must not exhaust
/// the supervisor's memory), and counts what the worker printed so flooding can be detected.
struct OutputReader {
    enum Stream { case channel, stdout, stderr }

    let limits: WorkerLimits
    let token: [UInt8]
    private var pending: [UInt8] = []
    private var consumed = 0
    private var nextSequence: UInt32 = 0
    private var buffer = [UInt8](repeating: 0, count: 64 * 1024)
    var stdoutTail = TailBuffer(capacity: 8 * 1024)
    var stderrTail = TailBuffer(capacity: 8 * 1024)
    /// Bytes written to stdout + stderr so far.
    private(set) var captured = 0
    /// The first thing wrong on the channel; nothing is read from it after that.
    private(set) var fault: ChannelFault?

    init(limits: WorkerLimits, token: [UInt8]) {
        self.limits = limits
        self.token = token
    }

    /// Reads what is available on `fd`; false at end of file. `onFrame` may refuse a frame by
    /// returning a fault, which ends the reading as one of the framing's own does.
    mutating func read(_ fd: Int32, _ stream: Stream, onFrame: (WorkerFrame) -> ChannelFault?) -> Bool {
        let n = buffer.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
        if n < 0 { return errno == EINTR || errno == EAGAIN }
        if n == 0 { return false }
        let chunk = buffer[0..<n]
        switch stream {
        case .channel:
            guard fault == nil else { return true }
            pending.append(contentsOf: chunk)
            cutFrames(onFrame)
        case .stdout:
            captured += n
            stdoutTail.append(chunk)
        case .stderr:
            captured += n
            stderrTail.append(chunk)
        }
        return true
    }

    /// Delivers every complete frame in `pending`, and stops at the first fault.
    private mutating func cutFrames(_ onFrame: (WorkerFrame) -> ChannelFault?) {
        consumed = 0
        defer {
            pending.removeFirst(consumed)
        }
        while fault == nil {
            let available = pending.count - consumed
            // The token is checked as soon as its first bytes are there, so foreign bytes are
            // refused without waiting for a whole header.
            let tokenBytes = min(available, ChannelFrame.tokenLength)
            if !pending[consumed..<(consumed + tokenBytes)].elementsEqual(token[0..<tokenBytes]) {
                switch takeSandboxRefusal() {
                case .taken: continue
                case .incomplete: return
                case .absent: break
                }
                fault = ChannelFault("bytes that are not a frame of this run",
                                     bytes: pending[consumed...])
                return
            }
            guard available >= ChannelFrame.headerLength else { return }
            let header = consumed + ChannelFrame.tokenLength
            guard let sequence = ChannelFrame.hexValue(pending[header..<(header + 8)]),
                  let kind = ChannelFrame.hexValue(pending[(header + 8)..<(header + 10)]),
                  let length = ChannelFrame.hexValue(pending[(header + 10)..<(header + 18)])
            else {
                fault = ChannelFault("a frame header that is not hex", bytes: pending[consumed...])
                return
            }
            guard sequence == nextSequence else {
                fault = ChannelFault("frame \(sequence) where frame \(nextSequence) was due",
                                     bytes: pending[consumed...])
                return
            }
            guard Int(length) <= ChannelFrame.maximumPayload else {
                fault = ChannelFault("a frame of \(length) bytes (at most \(ChannelFrame.maximumPayload) are allowed)",
                                     bytes: pending[consumed...])
                return
            }
            let payloadStart = consumed + ChannelFrame.headerLength
            guard pending.count - payloadStart >= Int(length) else { return }
            nextSequence &+= 1
            let refusal = pending.withUnsafeBytes { all in
                onFrame(WorkerFrame(sequence: sequence, kind: UInt8(kind),
                                    payload: UnsafeRawBufferPointer(rebasing: all[payloadStart..<(payloadStart + Int(length))])))
            }
            if let refusal { fault = refusal; return }
            consumed = payloadStart + Int(length)
        }
    }

    /// What the sandbox refused, named by the worker's signal handler (see `SandboxRefusal`).
    private(set) var sandboxRefusal: SandboxRefusal?

    private enum RefusalLine { case taken, incomplete, absent }

    /// The sandbox's refusal line, written between frames by the worker's signal handler, which
    /// cannot take part in the framing (it may not lock, and the plugin's call it interrupts may
    /// be any). A plugin can write such a line too: all it can do is name a wrong reason for a
    /// worker that then dies — a refusal only counts when the worker ends with a failure.
    private mutating func takeSandboxRefusal() -> RefusalLine {
        let prefix = SandboxRefusal.linePrefixBytes
        let rest = pending[consumed...]
        guard rest.starts(with: prefix.prefix(rest.count)) else { return .absent }
        guard rest.count > prefix.count, let end = rest.firstIndex(of: UInt8(ascii: "\n")) else {
            return rest.count >= 128 ? .absent : .incomplete
        }
        sandboxRefusal = SandboxRefusal(line: String(decoding: rest[..<end], as: UTF8.self)) ?? sandboxRefusal
        consumed = end + 1
        return .taken
    }

    /// At the end of the worker: bytes left over are a frame cut short (or foreign bytes).
    mutating func finishChannel() {
        guard fault == nil, !pending.isEmpty else { return }
        fault = ChannelFault("a frame cut short by the end of the channel", bytes: pending)
        pending.removeAll()
    }
}

/// The last `capacity` bytes of a stream.
struct TailBuffer {
    let capacity: Int
    private var bytes: [UInt8] = []
    private(set) var dropped = 0

    init(capacity: Int) { self.capacity = capacity }

    mutating func append(_ chunk: ArraySlice<UInt8>) {
        bytes.append(contentsOf: chunk)
        if bytes.count > 2 * capacity {
            let excess = bytes.count - capacity
            dropped += excess
            bytes.removeFirst(excess)
        }
    }

    var text: String {
        let kept = bytes.suffix(capacity)
        let skipped = dropped + (bytes.count - kept.count)
        let body = String(decoding: kept, as: UTF8.self)
        return skipped > 0 ? "[… \(skipped) earlier bytes not kept]\n" + body : body
    }
}
