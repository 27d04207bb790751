import CPixman
import CellKit

/// The framebuffer pixels the next frame must repaint: rectangles are added as layers appear,
/// move, change or go, each clipped to `bounds`; the frame reads the accumulated region once, as
/// disjoint rectangles and their area, then empties it for the next frame. The shape of wlroots'
/// `wlr_damage_ring` (add a box, add the whole buffer, read, rotate) with a history of one frame:
/// every frame here is painted into the same framebuffer, so no older buffer needs catching up.
///
/// Invariants: the region never reaches outside `bounds`; a pixel added twice counts once
/// (`area` is the number of distinct pixels); `rects` are disjoint and in pixman's canonical
/// order (bands top to bottom, left to right within a band), whatever order they were added in.
///
/// Lives in CellRender, not beside CellKit's geometry: the region is pixman's, whose exact union
/// the compositor also needs for its own painting (clip, occlusion, backdrop blurs), so the pixels
/// a frame reports as damaged are the very pixels it repainted.
public final class Damage {
    /// The framebuffer, in pixels: nothing outside it is damaged.
    public let bounds: PixelRect
    /// The accumulated region; the compositor paints through it in place. Kept behind a pointer
    /// so reading it from the class never copies it.
    let region: UnsafeMutablePointer<pixman_region32_t>

    public init(bounds: PixelRect) {
        self.bounds = bounds
        region = .allocate(capacity: 1)
        pixman_region32_init(region)
    }

    deinit {
        pixman_region32_fini(region)
        region.deallocate()
    }

    public var isEmpty: Bool { pixman_region32_not_empty(region) == 0 }

    /// Adds the part of `rect` inside `bounds`; returns whether any of it was inside.
    @discardableResult
    public func add(_ rect: PixelRect) -> Bool {
        let clipped = rect.intersection(bounds)
        guard !clipped.isEmpty else { return false }
        _ = pixman_region32_union_rect(region, region, Int32(clipped.x), Int32(clipped.y),
                                       UInt32(clipped.width), UInt32(clipped.height))
        return true
    }

    /// Adds the pixels a rect in points covers at `scale` (edges rounded outward), inside `bounds`.
    @discardableResult
    public func add(covering rect: Rect, scale: Double) -> Bool {
        add(PixelRect(covering: rect, scale: scale))
    }

    /// Damages every pixel: a first frame, or a new background.
    public func addWhole() { add(bounds) }

    /// Disjoint rectangles covering exactly the damaged pixels; empty when nothing is damaged.
    public var rects: [PixelRect] {
        var count: Int32 = 0
        guard let boxes = pixman_region32_rectangles(region, &count), count > 0 else { return [] }
        return (0..<Int(count)).map {
            let b = boxes[$0]
            return PixelRect(x: Int(b.x1), y: Int(b.y1), width: Int(b.x2 - b.x1), height: Int(b.y2 - b.y1))
        }
    }

    /// How many distinct pixels are damaged.
    public var area: Int {
        var count: Int32 = 0
        guard let boxes = pixman_region32_rectangles(region, &count), count > 0 else { return 0 }
        var total = 0
        for i in 0..<Int(count) { total += Int(boxes[i].x2 - boxes[i].x1) * Int(boxes[i].y2 - boxes[i].y1) }
        return total
    }

    /// The smallest rectangle holding every damaged pixel (`.zero` when nothing is).
    public var extents: PixelRect {
        guard !isEmpty, let box = pixman_region32_extents(region)?.pointee else { return .zero }
        return PixelRect(x: Int(box.x1), y: Int(box.y1), width: Int(box.x2 - box.x1), height: Int(box.y2 - box.y1))
    }

    /// Empties the damage once a frame has read it.
    public func removeAll() {
        pixman_region32_clear(region)
    }
}
