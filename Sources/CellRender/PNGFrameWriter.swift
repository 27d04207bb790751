import Foundation

/// Encodes frames to PNG on a background thread, so encoding never sits on the event path.
/// Frames are encoded in the order they are queued, each against the one before: a frame that
/// says which rectangles changed since the previous frame hands over only the rows of the strips
/// they touch, and only those strips are deflated again (`PNGStripEncoder`, whose deflating is
/// spread over `encoders` threads). The queue is bounded: when encoding falls behind, `enqueue`
/// waits instead of letting memory grow without limit. Changed strips travel in buffers the
/// encoder keeps as its copy of the frame, giving back the ones they replace for later frames.
public final class PNGFrameWriter: @unchecked Sendable {
    private let work: FrameQueue
    private let pool = StripPixelPool()
    /// Size of the last frame queued: a frame of another size hands over every row.
    private var queuedSize: (width: Int, height: Int)?

    /// `capacity`: frames that may wait for encoding before `enqueue` blocks;
    /// `encoders`: threads deflating one frame's strips at the same time;
    /// `frameSize`: the size frames will have, when known: the writer's thread then maps the
    /// strip buffers of the first frames before they arrive.
    public init(capacity: Int = 4, encoders: Int = 2, frameSize: (width: Int, height: Int)? = nil) {
        work = FrameQueue(capacity: max(1, capacity), encoder: PNGStripEncoder(workers: max(1, encoders), pool: pool))
        let prefill = frameSize.flatMap { size -> (capacity: Int, count: Int)? in
            guard size.width > 0, size.height > 0 else { return nil }
            let stripHeight = PNGStripEncoder.defaultStripHeight, strips = (size.height + stripHeight - 1) / stripHeight
            // The first frame's strips and half as many again for the changes that follow it.
            return (stripHeight * size.width, strips + strips / 2)
        }
        // The thread holds the queue, not the writer: a thread still waking after the writer is
        // released finds the queue closed and ends.
        let thread = Thread { [work, pool] in
            if let prefill { pool.prefill(capacity: prefill.capacity, count: prefill.count) }
            work.run()
        }
        thread.name = "cellhost.png-writer"
        thread.start()
    }

    deinit { work.close() }

    /// Queues `image` to be written to `path`; returns at once unless the queue is full.
    /// `changed`: every rectangle whose pixels may differ from the previously queued frame, or
    /// nil when that is not known, which hands over and encodes the whole frame.
    public func enqueue(_ image: RasterImage, path: String, changed: [PixelRect]? = nil) {
        image.pixels.withUnsafeBufferPointer {
            enqueue(pixels: $0, width: image.width, height: image.height, path: path, changed: changed)
        }
    }

    /// Queues the frame in `pixels` (`width × height` premultiplied ARGB, rows packed) to be
    /// written to `path`, copying only the rows of the strips `changed` touches (as above);
    /// `pixels` may change as soon as this returns.
    public func enqueue(pixels: UnsafeBufferPointer<UInt32>, width: Int, height: Int, path: String, changed: [PixelRect]?) {
        precondition(pixels.count == width * height, "pixel count must be width × height")
        let stripHeight = PNGStripEncoder.defaultStripHeight
        var strips: [Int]?
        if let changed, let queuedSize, queuedSize == (width, height) {
            strips = PNGStripEncoder.strips(touching: changed, width: width, height: height, stripHeight: stripHeight)
        }
        queuedSize = (width, height)
        let capacity = stripHeight * width
        let buffers = (strips ?? Array(0..<(height + stripHeight - 1) / stripHeight)).map { strip in
            let rows = PNGStripEncoder.rows(of: strip, height: height, stripHeight: stripHeight)
            let buffer = pool.take(capacity: capacity)
            buffer.update(from: pixels.baseAddress! + rows.lowerBound * width, count: rows.count * width)
            return buffer
        }
        work.enqueue(FrameStrips(width: width, height: height, strips: strips, buffers: buffers, path: path))
    }

    /// Waits until every queued frame is written. Throws the first write error (naming its path)
    /// and how many others failed. The writer accepts no frames afterwards.
    public func finish() throws(PNGWriteFailure) {
        let failures = work.drain()
        if !failures.isEmpty { throw PNGWriteFailure(errors: failures) }
    }
}

/// A frame on its way to the encoder: its size, the strips it changed (nil: all) and one buffer
/// from the pool per changed strip, in the same order.
private struct FrameStrips {
    var width: Int
    var height: Int
    var strips: [Int]?
    var buffers: [UnsafeMutablePointer<UInt32>]
    var path: String
}

/// The frames waiting to be encoded and the encoder's bookkeeping, under one lock.
private final class FrameQueue: @unchecked Sendable {
    private let condition = NSCondition()
    private var queue: [FrameStrips] = []
    private var errors: [PNGError] = []
    private var encoding = false
    private var closed = false
    /// The queuing thread waits for the encoder: in `enqueue` (queue full) or in `drain`.
    private var producerWaits = false
    private let capacity: Int
    /// Used by the writer thread only.
    private let encoder: PNGStripEncoder

    init(capacity: Int, encoder: PNGStripEncoder) {
        self.capacity = capacity
        self.encoder = encoder
        encoder.mayUseAllWorkers = { [unowned self] in
            condition.lock()
            defer { condition.unlock() }
            return producerWaits
        }
    }

    /// Frames never encoded (the writer released without `finish()`) still own their buffers.
    deinit { queue.forEach { $0.buffers.forEach { $0.deallocate() } } }

    func enqueue(_ frame: FrameStrips) {
        condition.lock()
        defer { condition.unlock() }
        while queue.count >= capacity && !closed {
            producerWaits = true
            condition.wait()
        }
        producerWaits = false
        precondition(!closed, "PNGFrameWriter used after finish()")
        queue.append(frame)
        condition.broadcast()
    }

    /// Waits for the queue to empty and the encoder to go idle, closes it, returns the failures.
    func drain() -> [PNGError] {
        condition.lock()
        defer { condition.unlock() }
        producerWaits = true
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
                try encode(frame)
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

    private func encode(_ frame: FrameStrips) throws(PNGError) {
        var adopted = 0
        do throws(PNGError) {
            try encoder.update(width: frame.width, height: frame.height, changedStrips: frame.strips, path: frame.path) { strip in
                precondition(frame.strips.map { $0[adopted] == strip } ?? (strip == adopted), "strips are adopted in order")
                adopted += 1
                return frame.buffers[adopted - 1]
            }
        } catch {
            for buffer in frame.buffers[adopted...] { encoder.pool.give(buffer, capacity: encoder.stripHeight * frame.width) }
            throw error
        }
        try encoder.writeFile(to: frame.path)
    }
}

/// Frames that could not be written; the description names every failed path.
public struct PNGWriteFailure: Error, CustomStringConvertible {
    public var errors: [PNGError]
    public var description: String {
        "could not write \(errors.count) PNG frame(s): " + errors.map(\.description).joined(separator: "; ")
    }
}
