import Foundation

/// Encodes frames to PNG on a background thread, so encoding never sits on the event path.
/// Frames are encoded in the order they are queued, each against the one before: a frame that
/// says which rectangles changed since the previous frame hands over only the strips of rows
/// they touch, and only those strips are deflated again (`PNGStripEncoder`). The queue is
/// bounded: when encoding falls behind, `enqueue` waits instead of letting memory grow without
/// limit, and while it waits (and in `finish()`) the queuing thread deflates strips itself.
///
/// A frame's changed strips are either copied when queued (`enqueue(pixels:…)`) or lent: read
/// straight from the caller's framebuffer (`enqueue(lending:…)`), which tells the writer before
/// it overwrites rows (`willOverwrite(_:)`). Only strips of queued frames not yet read are then
/// copied, into pooled buffers; a strip being read is waited for. While the encoder keeps up,
/// nothing is copied.
public final class PNGFrameWriter: @unchecked Sendable {
    private let work: FrameQueue
    /// Size of the last frame queued: a frame of another size hands over every row.
    private var queuedSize: (width: Int, height: Int)?

    /// `capacity`: frames that may wait for encoding before `enqueue` blocks;
    /// `encoders`: threads that may deflate one frame's strips at the same time: the writer's own
    /// and (with 2, the most) the thread that queues frames, while it waits for the writer;
    /// `frameSize`: the size frames will have, when known: the writer's thread then maps the
    /// strip buffers of the first frames before they arrive.
    public init(capacity: Int = 4, encoders: Int = 2, frameSize: (width: Int, height: Int)? = nil) {
        let pool = StripPixelPool()
        work = FrameQueue(capacity: max(1, capacity), encoder: PNGStripEncoder(helpers: min(1, max(0, encoders - 1))), pool: pool)
        let prefill = frameSize.flatMap { size -> (capacity: Int, count: Int)? in
            guard size.width > 0, size.height > 0 else { return nil }
            let stripHeight = PNGStripEncoder.defaultStripHeight, strips = (size.height + stripHeight - 1) / stripHeight
            // Copies of half a frame's strips: what lent frames still queued need when a full repaint overwrites them.
            return (stripHeight * size.width, strips / 2)
        }
        // The thread holds the queue, not the writer: a thread still waking after the writer is
        // released finds the queue closed and ends.
        let thread = Thread { [work] in
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
        let frame = makeFrame(pixels: pixels, width: width, height: height, path: path, changed: changed)
        work.copyLentStrips(of: frame)
        work.enqueue(frame)
    }

    /// Queues the frame in `pixels` as above without copying it: the encoder reads the changed
    /// strips from `pixels` itself. The caller must call `willOverwrite(_:)` before it changes
    /// any of these pixels (and with the whole frame before it frees them), until `finish()`.
    public func enqueue(lending pixels: UnsafeBufferPointer<UInt32>, width: Int, height: Int, path: String, changed: [PixelRect]?) {
        work.enqueue(makeFrame(pixels: pixels, width: width, height: height, path: path, changed: changed))
    }

    /// The lending caller is about to change the pixels inside `rects` (or free them): strips of
    /// queued frames that lie in those rows and were not read yet are copied now; a strip being
    /// read is waited for.
    public func willOverwrite(_ rects: [PixelRect]) { work.willOverwrite(rects) }

    /// Called on the encoding threads with a strip's index before it is taken for reading, and
    /// while it is being read; for tests that hold the encoder back. Set before queuing frames.
    var stripReadHooks: (before: (Int) -> Void, during: (Int) -> Void)? {
        get { work.stripReadHooks }
        set { work.stripReadHooks = newValue }
    }

    private func makeFrame(pixels: UnsafeBufferPointer<UInt32>, width: Int, height: Int, path: String, changed: [PixelRect]?) -> QueuedFrame {
        precondition(pixels.count == width * height, "pixel count must be width × height")
        let stripHeight = PNGStripEncoder.defaultStripHeight
        var strips: [Int]?
        if let changed, let queuedSize, queuedSize == (width, height) {
            strips = PNGStripEncoder.strips(touching: changed, width: width, height: height, stripHeight: stripHeight)
        }
        queuedSize = (width, height)
        let stripCount = (height + stripHeight - 1) / stripHeight
        var sources = [QueuedFrame.Source](repeating: .unchanged, count: stripCount)
        for strip in strips ?? Array(0..<stripCount) { sources[strip] = .lent(pixels.baseAddress! + strip * stripHeight * width) }
        return QueuedFrame(width: width, height: height, stripHeight: stripHeight, strips: strips, sources: sources, path: path)
    }

    /// Waits until every queued frame is written. Throws the first write error (naming its path)
    /// and how many others failed. The writer accepts no frames afterwards.
    public func finish() throws(PNGWriteFailure) {
        let failures = work.drain()
        if !failures.isEmpty { throw PNGWriteFailure(errors: failures) }
    }
}

/// A frame on its way to the encoder: its size, the strips it changed (nil: all) and where each
/// changed strip's pixels are. `sources` is guarded by the queue's lock.
private final class QueuedFrame {
    enum Source {
        case unchanged
        /// In the caller's framebuffer, not read yet.
        case lent(UnsafePointer<UInt32>)
        /// Being read from the caller's framebuffer.
        case reading(UnsafePointer<UInt32>)
        /// Copied into a buffer from the pool, not read yet.
        case copied(UnsafeMutablePointer<UInt32>)
        /// Read (or no longer needed).
        case done
    }
    let width: Int, height: Int, stripHeight: Int
    let strips: [Int]?
    var sources: [Source]
    let path: String

    init(width: Int, height: Int, stripHeight: Int, strips: [Int]?, sources: [Source], path: String) {
        self.width = width; self.height = height; self.stripHeight = stripHeight
        self.strips = strips; self.sources = sources; self.path = path
    }

    var stripCapacity: Int { stripHeight * width }
}

/// The frames waiting to be encoded and the encoder's bookkeeping, under one lock.
private final class FrameQueue: @unchecked Sendable {
    private let condition = NSCondition()
    private var queue: [QueuedFrame] = []
    /// The frame being encoded.
    private var current: QueuedFrame?
    private var errors: [PNGError] = []
    private var closed = false
    private let capacity: Int
    /// Encodes on the writer's thread; the queuing thread only `help()`s it while it waits.
    private let encoder: PNGStripEncoder
    let pool: StripPixelPool
    var stripReadHooks: (before: (Int) -> Void, during: (Int) -> Void)?

    init(capacity: Int, encoder: PNGStripEncoder, pool: StripPixelPool) {
        self.capacity = capacity
        self.encoder = encoder
        self.pool = pool
        // A producer waiting for the encoder helps it: wake it when strips may be shared.
        encoder.deflationStarted = { [unowned self] in
            condition.lock()
            condition.broadcast()
            condition.unlock()
        }
    }

    /// Frames never encoded (the writer released without `finish()`) give back their copies.
    deinit { queue.forEach(release) }

    func enqueue(_ frame: QueuedFrame) {
        condition.lock()
        defer { condition.unlock() }
        while queue.count >= capacity && !closed {
            waitHelpingTheEncoder()
        }
        precondition(!closed, "PNGFrameWriter used after finish()")
        queue.append(frame)
        condition.broadcast()
    }

    /// Under the lock: deflates strips of the frame being encoded on this (the queuing) thread
    /// while there are some to take, else waits for the queue to change. Checked under the lock,
    /// so strips shared after the check wake the wait (`deflationStarted` takes the lock).
    private func waitHelpingTheEncoder() {
        if encoder.canBeHelped {
            condition.unlock()
            encoder.help()
            condition.lock()
        } else {
            condition.wait()
        }
    }

    /// Copies every strip `frame` lends (a frame not yet queued).
    func copyLentStrips(of frame: QueuedFrame) {
        for strip in frame.sources.indices { copyIfLent(strip, of: frame) }
    }

    func willOverwrite(_ rects: [PixelRect]) {
        condition.lock()
        defer { condition.unlock() }
        while true {
            var waits = false
            for frame in [current].compactMap({ $0 }) + queue {
                for strip in PNGStripEncoder.strips(touching: rects, width: frame.width, height: frame.height, stripHeight: frame.stripHeight) {
                    if case .reading = frame.sources[strip] { waits = true } else { copyIfLent(strip, of: frame) }
                }
            }
            guard waits else { return }
            condition.wait()
        }
    }

    /// Under the lock (or before the frame is shared).
    private func copyIfLent(_ strip: Int, of frame: QueuedFrame) {
        guard case .lent(let pixels) = frame.sources[strip] else { return }
        let buffer = pool.take(capacity: frame.stripCapacity)
        let rows = PNGStripEncoder.rows(of: strip, height: frame.height, stripHeight: frame.stripHeight)
        buffer.update(from: pixels, count: rows.count * frame.width)
        frame.sources[strip] = .copied(buffer)
    }

    /// Gives back what `frame` still holds; under the lock or when no other thread sees it.
    private func release(_ frame: QueuedFrame) {
        for strip in frame.sources.indices {
            if case .copied(let buffer) = frame.sources[strip] { pool.give(buffer, capacity: frame.stripCapacity) }
            frame.sources[strip] = .done
        }
    }

    /// Waits for the queue to empty and the encoder to go idle, closes it, returns the failures.
    func drain() -> [PNGError] {
        condition.lock()
        defer { condition.unlock() }
        while !queue.isEmpty || current != nil { waitHelpingTheEncoder() }
        // The writer's thread is idle: the last replaced frame, kept for reuse, goes now.
        encoder.discardReplacedFile()
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
            current = frame
            condition.broadcast()
            condition.unlock()
            var failure: PNGError?
            do throws(PNGError) {
                try encoder.update(width: frame.width, height: frame.height, changedStrips: frame.strips, path: frame.path,
                                   pixels: FrameSource(frame: frame, queue: self))
                try encoder.writeFile(to: frame.path)
            } catch {
                failure = error
            }
            condition.lock()
            release(frame)
            if let failure { errors.append(failure) }
            current = nil
            condition.broadcast()
            condition.unlock()
        }
    }

    /// Lends strip `index` of `frame` to `body`: lent pixels are marked as being read meanwhile
    /// (an overwrite waits for them), copied ones go back to the pool after.
    fileprivate func withPixels(ofStrip index: Int, of frame: QueuedFrame, _ body: (UnsafePointer<UInt32>) -> Void) {
        stripReadHooks?.before(index)
        condition.lock()
        let source = frame.sources[index]
        switch source {
        case .lent(let pixels): frame.sources[index] = .reading(pixels)
        case .copied: frame.sources[index] = .done
        case .unchanged, .reading, .done: preconditionFailure("strip \(index) is not waiting to be read")
        }
        condition.unlock()
        switch source {
        case .lent(let pixels):
            stripReadHooks?.during(index)
            body(pixels)
            condition.lock()
            frame.sources[index] = .done
            condition.broadcast()
            condition.unlock()
        case .copied(let buffer):
            body(buffer)
            pool.give(buffer, capacity: frame.stripCapacity)
        default: break
        }
    }
}

/// The encoder's view of a queued frame's strips.
private struct FrameSource: StripPixelSource, @unchecked Sendable {
    let frame: QueuedFrame
    let queue: FrameQueue
    func withPixels(ofStrip index: Int, _ body: (UnsafePointer<UInt32>) -> Void) { queue.withPixels(ofStrip: index, of: frame, body) }
}

/// Frames that could not be written; the description names every failed path.
public struct PNGWriteFailure: Error, CustomStringConvertible {
    public var errors: [PNGError]
    public var description: String {
        "could not write \(errors.count) PNG frame(s): " + errors.map(\.description).joined(separator: "; ")
    }
}
