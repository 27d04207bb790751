import CPixman
import CellKit

/// The framebuffer pixels the next frame must repaint: rectangles are added as layers appear,
/// move, change or go, each clipped to `bounds`; the frame reads the accumulated damage once, as
/// disjoint rectangles and their area, then empties it for the next frame. The shape of wlroots'
/// `wlr_damage_ring` (add a box, add the whole buffer, read, rotate) with a history of one frame:
/// every frame here is painted into the same framebuffer, so no older buffer needs catching up.
///
/// Invariants: nothing outside `bounds` is damaged; a pixel added twice counts once (`area` is
/// the number of distinct pixels); `rects` are disjoint and in pixman's canonical order (bands
/// top to bottom, left to right within a band), whatever order they were added in.
///
/// Rectangles are kept as added until the damage is first read, and merged into a pixman region
/// only then, and only when there are several: a frame that damaged one rectangle (the common
/// event) reads it back as it is, which is what the region would hold.
///
/// Lives in CellRender, not beside CellKit's geometry: the region is pixman's, whose exact union
/// the compositor also paints through (clip, occlusion, backdrop blurs), so the pixels a frame
/// reports as damaged are the very pixels it repainted.
/// Event-path stored properties are `@exclusivity(unchecked)`: one thread owns it, their accesses never overlap.
public final class Damage {
    /// The framebuffer, in pixels: nothing outside it is damaged.
    public let bounds: PixelRect
    /// The rectangles added since the damage was emptied (clipped, none empty), while `isMerged`
    /// is false.
    @exclusivity(unchecked) private var added: [PixelRect] = []
    /// Whether `region` holds the damage (and `added` is stale): set on the first read of several
    /// rectangles, or when the compositor takes the region to paint through.
    @exclusivity(unchecked) private var isMerged = false
    /// The damage as a pixman region once merged. Behind a pointer so the compositor can work on
    /// it in place and reading it from the class never copies it.
    private let region: UnsafeMutablePointer<pixman_region32_t>

    public init(bounds: PixelRect) {
        self.bounds = bounds
        region = .allocate(capacity: 1)
        pixman_region32_init(region)
    }

    deinit {
        pixman_region32_fini(region)
        region.deallocate()
    }

    public var isEmpty: Bool { isMerged ? pixman_region32_not_empty(region) == 0 : added.isEmpty }

    /// Adds the part of `rect` inside `bounds`; returns whether any of it was inside.
    @discardableResult
    public func add(_ rect: PixelRect) -> Bool {
        let clipped = rect.intersection(bounds)
        guard !clipped.isEmpty else { return false }
        if isMerged { union(clipped) } else { added.append(clipped) }
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
        if let single = singleRect { return single.isEmpty ? [] : [single] }
        var count: Int32 = 0
        guard let boxes = pixman_region32_rectangles(region, &count), count > 0 else { return [] }
        return (0..<Int(count)).map { Damage.rect(boxes[$0]) }
    }

    /// Calls `body` with each of `rects` in order, without making the list: a reader that keeps
    /// them in its own form (the trace's) needs no array of them in between.
    public func forEachRect(_ body: (PixelRect) -> Void) {
        if let single = singleRect {
            if !single.isEmpty { body(single) }
            return
        }
        var count: Int32 = 0
        guard let boxes = pixman_region32_rectangles(region, &count), count > 0 else { return }
        for i in 0..<Int(count) { body(Damage.rect(boxes[i])) }
    }

    /// How many distinct pixels are damaged.
    public var area: Int {
        if let single = singleRect { return single.area }
        var count: Int32 = 0
        guard let boxes = pixman_region32_rectangles(region, &count), count > 0 else { return 0 }
        var total = 0
        for i in 0..<Int(count) { total += Int(boxes[i].x2 - boxes[i].x1) * Int(boxes[i].y2 - boxes[i].y1) }
        return total
    }

    /// The smallest rectangle holding every damaged pixel (`.zero` when nothing is).
    public var extents: PixelRect {
        if let single = singleRect { return single }
        guard pixman_region32_not_empty(region) != 0, let box = pixman_region32_extents(region)?.pointee else { return .zero }
        return Damage.rect(box)
    }

    /// Empties the damage once a frame has read it.
    public func removeAll() {
        if isMerged {
            pixman_region32_clear(region)
            isMerged = false
        }
        added.removeAllKeepingStorage()
    }

    /// The damage as a region the compositor paints through and may grow in place (backdrop
    /// blurs reach beyond it); from then on the region is the damage.
    func mergedRegion() -> UnsafeMutablePointer<pixman_region32_t> {
        merge()
        return region
    }

    /// The damage when it is at most one rectangle and not merged (`.zero` for none); nil when
    /// the region must be read. Merges several rectangles first.
    private var singleRect: PixelRect? {
        if !isMerged {
            if added.isEmpty { return .zero }
            if added.count == 1 { return added[0] }
            merge()
        }
        return nil
    }

    private func merge() {
        guard !isMerged else { return }
        for rect in added { union(rect) }
        added.removeAllKeepingStorage()
        isMerged = true
    }

    private func union(_ r: PixelRect) {
        _ = pixman_region32_union_rect(region, region, Int32(r.x), Int32(r.y), UInt32(r.width), UInt32(r.height))
    }

    private static func rect(_ b: pixman_box32_t) -> PixelRect {
        PixelRect(x: Int(b.x1), y: Int(b.y1), width: Int(b.x2 - b.x1), height: Int(b.y2 - b.y1))
    }
}
