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
    /// The copy of the last frame queued with `enqueue(from:…)`, until `settle()`.
    private var pendingCopy: StripCopy?

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

    deinit {
        settle()
        work.close()
    }

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
        settle()
        let copy = StripCopy(pixels: pixels.baseAddress!, width: width, height: height, path: path,
                             strips: strips(width: width, height: height, changed: changed), pool: pool, queue: work)
        work.reserveRoom()
        copy.runOrWait()
    }

    /// As `enqueue(pixels:…)`, but returns before the changed strips are copied: another thread
    /// copies them while the caller goes on. The caller calls `settle()` before the pixels change
    /// (the compositor renderer does before it renders the next frame); the frames queued after
    /// this one, and `finish()`, settle first.
    public func enqueue(from pixels: UnsafePointer<UInt32>, width: Int, height: Int, path: String, changed: [PixelRect]?) {
        settle()
        let copy = StripCopy(pixels: pixels, width: width, height: height, path: path,
                             strips: strips(width: width, height: height, changed: changed), pool: pool, queue: work)
        work.reserveRoom()
        pendingCopy = copy
        DispatchQueue.global().async { copy.run() }
    }

    /// Returns once the frame last queued with `enqueue(from:…)` no longer reads its pixels:
    /// copies them on this thread if no other thread has started to, else waits for that copy.
    public func settle() {
        guard let copy = pendingCopy else { return }
        pendingCopy = nil
        copy.runOrWait()
    }

    /// The strips a frame hands over: those `changed` touches, or every strip (nil) when the size
    /// is new or the damage unknown.
    private func strips(width: Int, height: Int, changed: [PixelRect]?) -> [Int]? {
        defer { queuedSize = (width, height) }
        guard let changed, let queuedSize, queuedSize == (width, height) else { return nil }
        return PNGStripEncoder.strips(touching: changed, width: width, height: height, stripHeight: PNGStripEncoder.defaultStripHeight)
    }

    /// Waits until every queued frame is written. Throws the first write error (naming its path)
    /// and how many others failed. The writer accepts no frames afterwards.
    public func finish() throws(PNGWriteFailure) {
        settle()
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

/// One frame's changed strips, copied from the caller's pixels into pool buffers and queued by
/// whichever thread claims the copy first: a worker started for it, or the caller when it needs
/// the pixels back before the worker started (so it never waits for a thread to be scheduled).
private final class StripCopy: @unchecked Sendable {
    private let pixels: UnsafePointer<UInt32>
    private let width: Int, height: Int
    private let path: String
    private let strips: [Int]?
    private let pool: StripPixelPool
    private let queue: FrameQueue
    private let condition = NSCondition()
    private enum State { case waiting, copying, done }
    private var state = State.waiting

    init(pixels: UnsafePointer<UInt32>, width: Int, height: Int, path: String, strips: [Int]?,
         pool: StripPixelPool, queue: FrameQueue) {
        self.pixels = pixels
        self.width = width
        self.height = height
        self.path = path
        self.strips = strips
        self.pool = pool
        self.queue = queue
    }

    /// Copies and queues the frame unless another thread has claimed it.
    func run() {
        if claim() { copyAndQueue() }
    }

    /// Copies and queues the frame, or waits until the thread that claimed it has.
    func runOrWait() {
        if claim() { copyAndQueue(); return }
        condition.lock()
        while state != .done { condition.wait() }
        condition.unlock()
    }

    private func claim() -> Bool {
        condition.lock()
        defer { condition.unlock() }
        guard state == .waiting else { return false }
        state = .copying
        return true
    }

    private func copyAndQueue() {
        let stripHeight = PNGStripEncoder.defaultStripHeight, capacity = stripHeight * width
        let buffers = (strips ?? Array(0..<(height + stripHeight - 1) / stripHeight)).map { strip in
            let rows = PNGStripEncoder.rows(of: strip, height: height, stripHeight: stripHeight)
            let buffer = pool.take(capacity: capacity)
            buffer.update(from: pixels + rows.lowerBound * width, count: rows.count * width)
            return buffer
        }
        queue.append(FrameStrips(width: width, height: height, strips: strips, buffers: buffers, path: path))
        condition.lock()
        state = .done
        condition.broadcast()
        condition.unlock()
    }
}

/// The frames waiting to be encoded and the encoder's bookkeeping, under one lock.
private final class FrameQueue: @unchecked Sendable {
    private let condition = NSCondition()
    private var queue: [FrameStrips] = []
    private var errors: [PNGError] = []
    private var encoding = false
    private var closed = false
    /// The queuing thread waits for the encoder: in `reserveRoom` (queue full) or in `drain`.
    private var producerWaits = false
    /// Places kept by `reserveRoom` for frames still being copied.
    private var reserved = 0
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

    /// Waits until a frame more fits in the queue and keeps that place for `append`.
    func reserveRoom() {
        condition.lock()
        defer { condition.unlock() }
        while queue.count + reserved >= capacity && !closed {
            producerWaits = true
            condition.wait()
        }
        producerWaits = false
        precondition(!closed, "PNGFrameWriter used after finish()")
        reserved += 1
    }

    /// Queues a frame in the place `reserveRoom` kept (a writer released unfinished frees it).
    func append(_ frame: FrameStrips) {
        condition.lock()
        defer { condition.unlock() }
        reserved -= 1
        guard !closed else { frame.buffers.forEach { $0.deallocate() }; return }
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
