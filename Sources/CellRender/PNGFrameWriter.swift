import Foundation

/// Encodes frames to PNG on a background thread, so encoding never sits on the event path.
/// Frames are encoded in the order they are queued, each against the one before: a frame that
/// says which rectangles changed since the previous frame hands over only the rows of the strips
/// they touch, and only those strips are deflated again (`PNGStripEncoder`, whose deflating is
/// spread over `encoders` threads). The queue is bounded: when encoding falls behind, `enqueue`
/// waits instead of letting memory grow without limit, and the row buffers are reused.
public final class PNGFrameWriter: @unchecked Sendable {
    private let work: FrameQueue
    /// Size of the last frame queued: a frame of another size hands over every row.
    private var queuedSize: (width: Int, height: Int)?

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
        let stripRows = (strips ?? Array(0..<(height + stripHeight - 1) / stripHeight)).map {
            PNGStripEncoder.rows(of: $0, height: height, stripHeight: stripHeight)
        }
        let buffer = work.spareBuffer(capacity: stripRows.reduce(0) { $0 + $1.count } * width)
        var offset = 0
        for rows in stripRows {
            (buffer.pixels + offset).update(from: pixels.baseAddress! + rows.lowerBound * width, count: rows.count * width)
            offset += rows.count * width
        }
        work.enqueue(FrameRows(width: width, height: height, strips: strips, buffer: buffer, path: path))
    }

    /// Waits until every queued frame is written. Throws the first write error (naming its path)
    /// and how many others failed. The writer accepts no frames afterwards.
    public func finish() throws(PNGWriteFailure) {
        let failures = work.drain()
        if !failures.isEmpty { throw PNGWriteFailure(errors: failures) }
    }
}

/// A frame on its way to the encoder: its size, the strips it changed (nil: all) and their rows,
/// packed in strip order.
private struct FrameRows {
    var width: Int
    var height: Int
    var strips: [Int]?
    var buffer: RowBuffer
    var path: String
}

/// Pixels handed from the event thread to the encoder, reused from frame to frame.
private final class RowBuffer {
    private(set) var pixels = UnsafeMutablePointer<UInt32>.allocate(capacity: 0)
    private(set) var capacity = 0

    func reserve(_ count: Int) {
        guard count > capacity else { return }
        pixels.deallocate()
        pixels = .allocate(capacity: count)
        capacity = count
    }

    deinit { pixels.deallocate() }
}

/// The frames waiting to be encoded, spare row buffers and the encoder's bookkeeping, under one lock.
private final class FrameQueue: @unchecked Sendable {
    private let condition = NSCondition()
    private var queue: [FrameRows] = []
    private var spare: [RowBuffer] = []
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

    /// A buffer for at least `capacity` pixels: a spare one when there is one.
    func spareBuffer(capacity: Int) -> RowBuffer {
        condition.lock()
        let buffer = spare.popLast() ?? RowBuffer()
        condition.unlock()
        buffer.reserve(capacity)
        return buffer
    }

    func enqueue(_ frame: FrameRows) {
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
                try encode(frame)
            } catch {
                failure = error
            }
            condition.lock()
            spare.append(frame.buffer)
            if let failure { errors.append(failure) }
            encoding = false
            condition.broadcast()
            condition.unlock()
        }
    }

    private func encode(_ frame: FrameRows) throws(PNGError) {
        let stripHeight = encoder.stripHeight
        var starts: [Int: Int] = [:]
        var offset = 0
        for strip in frame.strips ?? Array(0..<(frame.height + stripHeight - 1) / stripHeight) {
            starts[strip] = offset
            offset += PNGStripEncoder.rows(of: strip, height: frame.height, stripHeight: stripHeight).count * frame.width
        }
        let pixels = frame.buffer.pixels
        try encoder.update(width: frame.width, height: frame.height, changedStrips: frame.strips, path: frame.path) {
            UnsafePointer(pixels + starts[$0]!)
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
