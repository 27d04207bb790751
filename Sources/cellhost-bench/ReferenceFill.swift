import CPixman
import Glibc

/// The reference every raster figure is held to: `pixman_fill` into a framebuffer of the bench
/// size — the least work that can put the same pixels on screen.
final class ReferenceFill {
    let width: Int, height: Int
    private let bits: UnsafeMutablePointer<UInt32>
    private var color: UInt32 = 0xFF_F2_F2_F7

    init(width: Int, height: Int) {
        self.width = width
        self.height = height
        bits = .allocate(capacity: width * height)
        bits.initialize(repeating: 0, count: width * height)
    }

    deinit { bits.deallocate() }

    /// Fills `rects` (pixels, clamped to the framebuffer) and returns the seconds it took. The
    /// colour alternates so no fill is a no-op.
    func time(_ rects: [(x: Int, y: Int, width: Int, height: Int)]) -> Double {
        timeEach(rects) { bits, x0, y0, x1, y1, color in
            _ = pixman_fill(bits, Int32(width), 32, Int32(x0), Int32(y0), Int32(x1 - x0), Int32(y1 - y0), color)
        }
    }

    func timeWhole() -> Double { time([(0, 0, width, height)]) }

    /// `memset` of the same bytes as `time(rects)` fills, row by row: the floor below pixman,
    /// which a fill cannot beat either.
    func timeMemset(_ rects: [(x: Int, y: Int, width: Int, height: Int)]) -> Double {
        timeEach(rects) { bits, x0, y0, x1, y1, color in
            for y in y0..<y1 { memset(bits + y * width + x0, Int32(color & 0xFF), (x1 - x0) * 4) }
        }
    }

    /// Seconds `paint` takes over `rects` clamped to the framebuffer (x0, y0, x1, y1), with a
    /// colour that alternates between calls.
    private func timeEach(_ rects: [(x: Int, y: Int, width: Int, height: Int)],
                          _ paint: (UnsafeMutablePointer<UInt32>, Int, Int, Int, Int, UInt32) -> Void) -> Double {
        color ^= 0x00_30_30_30
        let clock = ContinuousClock()
        let start = clock.now
        for r in rects {
            let x0 = max(0, r.x), y0 = max(0, r.y)
            let x1 = min(width, r.x + r.width), y1 = min(height, r.y + r.height)
            guard x1 > x0, y1 > y0 else { continue }
            paint(bits, x0, y0, x1, y1, color)
        }
        return (clock.now - start).seconds
    }

    func timeWholeMemset() -> Double { timeMemset([(0, 0, width, height)]) }
}
