import CellKit
import Dispatch
import Foundation
import Testing
@testable import CellRender

/// Frames lent to the writer (read from the caller's framebuffer, not copied when queued) must
/// decode to the pixels the framebuffer had when each was queued, however far the encoder lags.
@Suite struct PNGLentFrameTests {
    /// Holds every encoding thread before it takes a strip, until `open()`.
    private final class Gate: @unchecked Sendable {
        private let semaphore = DispatchSemaphore(value: 0)
        func pass() { semaphore.wait(); semaphore.signal() }
        /// Like `pass()`, waiting at most `seconds`; false when the gate stayed shut.
        func pass(within seconds: Double) -> Bool {
            guard semaphore.wait(timeout: .now() + seconds) == .success else { return false }
            semaphore.signal()
            return true
        }
        func open() { semaphore.signal() }
    }

    /// A thread-safe flag.
    private final class Flag: @unchecked Sendable {
        private let lock = NSLock()
        private var value = false
        var isSet: Bool { lock.lock(); defer { lock.unlock() }; return value }
        func set() { lock.lock(); value = true; lock.unlock() }
    }

    private func paint(_ pixels: UnsafeMutableBufferPointer<UInt32>, width: Int, _ rect: PixelRect, _ g: inout SeededGenerator) {
        let base = 0xFF00_0000 | UInt32.random(in: 0...0xFF_FFFF, using: &g)
        for y in rect.y..<rect.maxY {
            for x in rect.x..<rect.maxX { pixels[y * width + x] = base ^ UInt32((x / 3 + y) & 0x0F) }
        }
    }

    /// Frames repaint the same rows with other colours back to back while the encoder is held
    /// (every queued strip must be copied before it is painted over) and while it runs freely
    /// (strips are read, copied or waited for, as it happens).
    @Test(arguments: [true, false]) func framesPaintedOverBeforeTheyAreEncodedKeepTheirPixels(encoderHeld: Bool) throws {
        let width = 70, height = 200
        let framebuffer = UnsafeMutableBufferPointer<UInt32>.allocate(capacity: width * height)
        defer { framebuffer.deallocate() }
        framebuffer.initialize(repeating: 0xFFFF_FFFF)
        let writer = PNGFrameWriter(capacity: 32, encoders: 2)
        let gate = Gate()
        if encoderHeld { writer.stripReadHooks = (before: { _ in gate.pass() }, during: { _ in }) } else { gate.open() }
        var g = SeededGenerator(state: encoderHeld ? 5 : 6)
        var expected: [(path: String, image: RasterImage)] = []
        for i in 0..<24 {
            let rect: PixelRect
            switch i % 6 {
            case 0: rect = PixelRect(x: 0, y: 0, width: width, height: height)      // a full repaint
            case 1, 2: rect = PixelRect(x: 0, y: 20, width: width, height: 50)      // the same rows twice
            case 3: rect = PixelRect(x: Int.random(in: 0..<60, using: &g), y: Int.random(in: 0..<190, using: &g), width: 10, height: 10)
            case 4: rect = .zero                                                     // nothing changes
            default: rect = PixelRect(x: 5, y: 150, width: 30, height: 50)           // the last strip
            }
            if !rect.isEmpty {
                writer.willOverwrite([rect])
                paint(framebuffer, width: width, rect, &g)
            }
            let path = Fixtures.temporaryDirectory + "/lent-\(encoderHeld)-\(i).png"
            writer.enqueue(lending: UnsafeBufferPointer(framebuffer), width: width, height: height, path: path,
                           changed: i == 0 ? nil : [rect])
            expected.append((path, RasterImage(width: width, height: height, pixels: Array(framebuffer))))
        }
        gate.open()
        try writer.finish()
        for (path, image) in expected {
            #expect(try RasterImage.decodePNG(path: path) == image, "\(path)")
        }
    }

    /// While `finish()` waits for the writer, the thread that called it deflates strips too.
    @Test func theQueuingThreadDeflatesStripsWhileItWaitsInFinish() throws {
        let width = 48, height = 32 * 8
        let framebuffer = UnsafeMutableBufferPointer<UInt32>.allocate(capacity: width * height)
        defer { framebuffer.deallocate() }
        framebuffer.initialize(repeating: 0xFFFF_FFFF)
        var g = SeededGenerator(state: 7)
        for strip in 0..<8 { paint(framebuffer, width: width, PixelRect(x: 0, y: strip * 32, width: width, height: 32), &g) }
        let writer = PNGFrameWriter(capacity: 2, encoders: 2)
        let caller = pthread_self()
        let callerRead = Gate(), callerHelped = Flag()
        // The writer's own thread takes no strip before the caller has read one (at most 10 s).
        writer.stripReadHooks = (before: { _ in
            if pthread_equal(pthread_self(), caller) != 0 {
                callerHelped.set()
                callerRead.open()
            } else {
                if !callerRead.pass(within: 10) { callerRead.open() }  // waited once: the rest pass
            }
        }, during: { _ in })
        let path = Fixtures.temporaryDirectory + "/lent-helped.png"
        writer.enqueue(lending: UnsafeBufferPointer(framebuffer), width: width, height: height, path: path, changed: nil)
        try writer.finish()
        #expect(callerHelped.isSet, "finish() deflated strips on the calling thread")
        #expect(try RasterImage.decodePNG(path: path) == RasterImage(width: width, height: height, pixels: Array(framebuffer)))
    }

    /// An overwrite of a strip the encoder is reading right now waits until it has been read.
    @Test func anOverwriteWaitsForTheStripBeingRead() throws {
        let width = 40, height = 64
        let framebuffer = UnsafeMutableBufferPointer<UInt32>.allocate(capacity: width * height)
        defer { framebuffer.deallocate() }
        framebuffer.initialize(repeating: 0xFF20_4060)
        let writer = PNGFrameWriter(capacity: 2, encoders: 1)
        let reading = DispatchSemaphore(value: 0), release = DispatchSemaphore(value: 0)
        writer.stripReadHooks = (before: { _ in }, during: { strip in
            guard strip == 0 else { return }
            reading.signal()
            release.wait()
        })
        let path = Fixtures.temporaryDirectory + "/lent-reading.png"
        let original = RasterImage(width: width, height: height, pixels: Array(framebuffer))
        writer.enqueue(lending: UnsafeBufferPointer(framebuffer), width: width, height: height, path: path, changed: nil)
        reading.wait()
        let overwritten = Flag(), done = DispatchSemaphore(value: 0)
        nonisolated(unsafe) let pixels = framebuffer
        Thread {
            writer.willOverwrite([PixelRect(x: 0, y: 0, width: 4, height: 4)])
            overwritten.set()
            for i in 0..<(4 * width) { pixels[i] = 0xFF00_0000 }
            done.signal()
        }.start()
        Thread.sleep(forTimeInterval: 0.05)
        #expect(!overwritten.isSet, "willOverwrite returned while strip 0 was being read")
        release.signal()
        done.wait()
        try writer.finish()
        #expect(try RasterImage.decodePNG(path: path) == original)
    }

    /// A compositor freed while frames lent from its framebuffer still wait leaves them intact.
    @Test func aCompositorFreedWithFramesQueuedLeavesThemIntact() throws {
        let writer = PNGFrameWriter(capacity: 4)
        let gate = Gate()
        writer.stripReadHooks = (before: { _ in gate.pass() }, during: { _ in })
        var compositor: Compositor? = Compositor(viewport: Size(width: 60, height: 90), scale: 2, background: .white,
                                                 textEngine: Fixtures.engine)
        compositor!.willPaint = { writer.willOverwrite($0) }
        var expected: [(path: String, image: RasterImage)] = []
        for i in 0..<3 {
            var list = DisplayList()
            list.append(.fill(Rect(x: 0, y: 0, width: 60, height: 30), [Color.systemRed, .systemGreen, .systemBlue][i]))
            compositor!.setLayer(1, frame: Rect(x: 0, y: Double(i * 20), width: 60, height: 30), content: list)
            let report = compositor!.renderFrame()
            let path = Fixtures.temporaryDirectory + "/lent-compositor-\(i).png"
            compositor!.withFramebufferPixels {
                writer.enqueue(lending: $0, width: compositor!.pixelWidth, height: compositor!.pixelHeight, path: path,
                               changed: i == 0 ? nil : report.damage)
            }
            expected.append((path, compositor!.snapshot()))
        }
        compositor = nil
        gate.open()
        try writer.finish()
        for (path, image) in expected {
            #expect(try RasterImage.decodePNG(path: path) == image, "\(path)")
        }
    }
}
