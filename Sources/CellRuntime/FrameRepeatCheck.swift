import Glibc
import CellRender

/// Whether the framebuffer still shows, pixel for pixel, the last frame written: a frame whose
/// painting left every pixel as it was (a change undone within one event, a redraw that looks
/// the same) is then not written again. The compositor tells before it paints which rectangles
/// it will paint (`Compositor.willPaint`, which every framebuffer change goes through); their
/// pixels are kept until the paint is done and compared with what it left.
///
/// Invariant: `showsLastWrittenFrame` is true only while every paint since the last write left
/// its pixels unchanged. Pixels are kept only while it is true, so once a frame differs nothing
/// is copied until the next write.
struct FrameRepeatCheck {
    /// False until a frame is written.
    private(set) var showsLastWrittenFrame = false
    /// The rectangles about to be painted and their pixels before the paint, row after row.
    private var keptRects: [PixelRect] = []
    private var keptPixels: [UInt32] = []

    /// A frame was written from the framebuffer as it is now.
    mutating func frameWritten() {
        showsLastWrittenFrame = true
        keptRects.removeAll(keepingCapacity: true)
    }

    /// Keeps the pixels of `rects` (within the framebuffer), which the compositor is about to paint.
    mutating func keepPixels(in rects: [PixelRect], of compositor: Compositor?) {
        keptRects.removeAll(keepingCapacity: true)
        keptPixels.removeAll(keepingCapacity: true)
        guard showsLastWrittenFrame, let compositor else { return }
        let width = compositor.pixelWidth, height = compositor.pixelHeight
        compositor.withFramebufferPixels { pixels in
            for r in rects {
                let x0 = max(0, r.x), x1 = min(width, r.maxX), y0 = max(0, r.y), y1 = min(height, r.maxY)
                guard x0 < x1, y0 < y1 else { continue }
                keptRects.append(PixelRect(x: x0, y: y0, width: x1 - x0, height: y1 - y0))
                for y in y0..<y1 { keptPixels.append(contentsOf: pixels[(y * width + x0)..<(y * width + x1)]) }
            }
        }
    }

    /// After the paint: the framebuffer no longer shows the last written frame if any kept
    /// pixel changed.
    mutating func comparePaintedPixels(of compositor: Compositor) {
        defer { keptRects.removeAll(keepingCapacity: true) }
        guard showsLastWrittenFrame, !keptRects.isEmpty else { return }
        let width = compositor.pixelWidth
        let same = compositor.withFramebufferPixels { pixels in
            keptPixels.withUnsafeBufferPointer { kept in
                var offset = 0
                for r in keptRects {
                    for y in r.y..<r.maxY {
                        let row = r.width * MemoryLayout<UInt32>.stride
                        if memcmp(pixels.baseAddress! + y * width + r.x, kept.baseAddress! + offset, row) != 0 { return false }
                        offset += r.width
                    }
                }
                return true
            }
        }
        if !same { showsLastWrittenFrame = false }
    }
}
