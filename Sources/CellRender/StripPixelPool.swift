import Foundation

/// Buffers of one strip of pixels each (`stripHeight` rows of the frame's width) for the copies a
/// frame writer makes of changed strips not read yet (when queued, or before a lent framebuffer
/// is painted over); the encoder gives each back once it has read it. Copies go into memory used
/// before (no page faults after the first frames).
final class StripPixelPool: @unchecked Sendable {
    private let lock = NSLock()
    private var spare: [UnsafeMutablePointer<UInt32>] = []
    /// Pixels per buffer: buffers of another size (from before a frame size change) are freed.
    private var capacity = 0

    /// A buffer of `capacity` pixels, contents undefined; owned by the caller until given back.
    func take(capacity: Int) -> UnsafeMutablePointer<UInt32> {
        lock.lock()
        if capacity != self.capacity {
            spare.forEach { $0.deallocate() }
            spare.removeAll()
            self.capacity = capacity
        }
        let buffer = spare.popLast()
        lock.unlock()
        return buffer ?? .allocate(capacity: capacity)
    }

    /// Adds `count` buffers of `capacity` pixels, written once so their pages are mapped: the
    /// writer's thread does this before the first frame arrives, so the thread copying frames
    /// into them does not take the page faults.
    func prefill(capacity: Int, count: Int) {
        for _ in 0..<count {
            let buffer = UnsafeMutablePointer<UInt32>.allocate(capacity: capacity)
            buffer.initialize(repeating: 0, count: capacity)
            lock.lock()
            if self.capacity == 0 { self.capacity = capacity }
            let kept = capacity == self.capacity
            if kept { spare.append(buffer) }
            lock.unlock()
            if !kept { buffer.deallocate(); return }
        }
    }

    /// Returns a buffer `take(capacity:)` handed out.
    func give(_ buffer: UnsafeMutablePointer<UInt32>, capacity: Int) {
        lock.lock()
        if capacity == self.capacity { spare.append(buffer) } else { buffer.deallocate() }
        lock.unlock()
    }

    deinit { spare.forEach { $0.deallocate() } }
}
