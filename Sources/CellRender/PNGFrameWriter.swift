import Foundation

/// Encodes frames to PNG on a background thread, so encoding never sits on the event path.
/// Frames are encoded in the order they are queued, each against the one before: a frame that
/// says which rectangles changed since the previous frame re-deflates only the strips of rows
/// they touch (`PNGStripEncoder`), and the strips a frame does deflate are spread over
/// `encoders` threads. The queue is bounded: when encoding falls behind, `enqueue` waits instead
/// of letting memory grow without limit.
public final class PNGFrameWriter: @unchecked Sendable {
    private let work: FrameQueue

    /// `capacity`: frames that may wait for encoding before `enqueue` blocks;
    /// `encoders`: threads deflating one frame's strips at the same time.
    public init(capacity: Int = 4, encoders: Int = 2) {
        work = FrameQueue(capacity: max(1, capacity), encoder: PNGStripEncoder(workers: max(1, encoders)))
        // The thread holds the queue, not the writer: a thread still waking after the writer is
        // released finds the queue closed and ends.
        let thread = Thread { [work] in work.run() }
        thread.name = "cellhost.png-writer"
        thread.start()
    }

    deinit { work.close() }

    /// Queues `image` to be written to `path`; returns at once unless the queue is full.
    /// `changed`: every rectangle whose pixels may differ from the previously queued frame
    /// (pixels), or nil when that is not known, which encodes the whole frame.
    public func enqueue(_ image: RasterImage, path: String, changed: [PixelRect]? = nil) {
        work.enqueue(Frame(image: image, path: path, changed: changed))
    }

    /// Waits until every queued frame is written. Throws the first write error (naming its path)
    /// and how many others failed. The writer accepts no frames afterwards.
    public func finish() throws(PNGWriteFailure) {
        let failures = work.drain()
        if !failures.isEmpty { throw PNGWriteFailure(errors: failures) }
    }
}

private struct Frame {
    var image: RasterImage
    var path: String
    var changed: [PixelRect]?
}

/// The frames waiting to be encoded and the encoder's bookkeeping, under one lock.
private final class FrameQueue: @unchecked Sendable {
    private let condition = NSCondition()
    private var queue: [Frame] = []
    private var errors: [PNGError] = []
    private var encoding = false
    private var closed = false
    private let capacity: Int
    /// Used by the writer thread only.
    private let encoder: PNGStripEncoder

    init(capacity: Int, encoder: PNGStripEncoder) {
        self.capacity = capacity
        self.encoder = encoder
    }

    func enqueue(_ frame: Frame) {
        condition.lock()
        defer { condition.unlock() }
        while queue.count >= capacity && !closed { condition.wait() }
        precondition(!closed, "PNGFrameWriter used after finish()")
        queue.append(frame)
        condition.broadcast()
    }

    /// Waits for the queue to empty and the encoder to go idle, closes it, returns the failures.
    func drain() -> [PNGError] {
        condition.lock()
        defer { condition.unlock() }
        while !queue.isEmpty || encoding { condition.wait() }
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
            let frame = queue.removeFirst()
            encoding = true
            condition.broadcast()
            condition.unlock()
            var failure: PNGError?
            do throws(PNGError) {
                try encoder.write(frame.image, changed: frame.changed, to: frame.path)
            } catch {
                failure = error
            }
            condition.lock()
            if let failure { errors.append(failure) }
            encoding = false
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
