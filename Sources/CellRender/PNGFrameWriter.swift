import Foundation

/// Encodes frames to PNG on background threads, so encoding (10–20× the cost of compositing)
/// never sits on the event path; two encoders by default, because one frame's deflate is
/// sequential and the machine has more than one core. Frames go to distinct paths, so their
/// order of completion does not matter. The queue is bounded: when the encoders fall behind,
/// `enqueue` waits instead of letting memory grow without limit.
public final class PNGFrameWriter: @unchecked Sendable {
    private let work: FrameQueue

    /// `capacity`: frames that may wait for encoding before `enqueue` blocks;
    /// `encoders`: frames encoded at the same time.
    public init(capacity: Int = 4, encoders: Int = 2) {
        work = FrameQueue(capacity: max(1, capacity))
        for index in 0..<max(1, encoders) {
            // Each thread holds the queue, not the writer: a thread still waking after the writer
            // is released finds the queue closed and ends.
            let thread = Thread { [work] in work.run() }
            thread.name = "cellhost.png-writer-\(index)"
            thread.start()
        }
    }

    deinit { work.close() }

    /// Queues `image` to be written to `path`; returns at once unless the queue is full.
    public func enqueue(_ image: RasterImage, path: String) { work.enqueue(image, path: path) }

    /// Waits until every queued frame is written. Throws the first write error (naming its path)
    /// and how many others failed. The writer accepts no frames afterwards.
    public func finish() throws(PNGWriteFailure) {
        let failures = work.drain()
        if !failures.isEmpty { throw PNGWriteFailure(errors: failures) }
    }
}

/// The frames waiting to be encoded and the encoders' shared bookkeeping, under one lock.
private final class FrameQueue: @unchecked Sendable {
    private let condition = NSCondition()
    private var queue: [(RasterImage, String)] = []
    private var errors: [PNGError] = []
    private var encoding = 0
    private var closed = false
    private let capacity: Int

    init(capacity: Int) { self.capacity = capacity }

    func enqueue(_ image: RasterImage, path: String) {
        condition.lock()
        defer { condition.unlock() }
        while queue.count >= capacity && !closed { condition.wait() }
        precondition(!closed, "PNGFrameWriter used after finish()")
        queue.append((image, path))
        condition.broadcast()
    }

    /// Waits for the queue to empty and every encoder to go idle, closes it, returns the failures.
    func drain() -> [PNGError] {
        condition.lock()
        defer { condition.unlock() }
        while !queue.isEmpty || encoding > 0 { condition.wait() }
        closed = true
        condition.broadcast()
        return errors
    }

    func close() {
        condition.lock()
        closed = true
        condition.broadcast()
        condition.unlock()
    }

    func run() {
        while true {
            condition.lock()
            while queue.isEmpty && !closed { condition.wait() }
            if queue.isEmpty { condition.unlock(); return }
            let (image, path) = queue.removeFirst()
            encoding += 1
            condition.broadcast()
            condition.unlock()
            var failure: PNGError?
            do throws(PNGError) { try image.writePNG(path: path) } catch { failure = error }
            condition.lock()
            if let failure { errors.append(failure) }
            encoding -= 1
            condition.broadcast()
            condition.unlock()
        }
    }
}

/// Frames that could not be written; the description names every failed path.
public struct PNGWriteFailure: Error, CustomStringConvertible {
    public var errors: [PNGError]
    public var description: String {
        "could not write \(errors.count) PNG frame(s): " + errors.map(\.description).joined(separator: "; ")
    }
}
