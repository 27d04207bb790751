import CellKit
import CellRender

/// What the engine needs from a compositor: one layer per cell with its recorded drawing, a frame
/// rendered from the damaged layers, and PNG output kept off the event path. `CompositorRenderer`
/// adapts CellRender's compositor; `DamageTracker` computes damage without pixels (tests, and
/// runs that write no frames).
public protocol FrameRenderer: AnyObject {
    /// Places layer `id` at `frame` (viewport points) showing `content` (layer coordinates).
    func setLayer(_ id: Int, frame: Rect, content: DisplayList)
    /// `setLayer` from a caller that knows whether `content` differs from the content it set last
    /// for this layer (the engine compares a row's old and new recording once, for its trace), so
    /// the renderer need not compare the lists again.
    func setLayer(_ id: Int, frame: Rect, content: DisplayList, contentChanged: Bool)
    /// Lets go of layer `id`'s content: the caller is about to change that recording in place (a
    /// row's background patched) and sets the layer again, with `contentChanged`, before the next
    /// frame. A list held twice would be copied whole by the change.
    func releaseContent(ofLayer id: Int)
    func removeLayer(_ id: Int)
    /// Rasters the damaged layers and composites them into the framebuffer.
    func renderFrame() -> RenderedFrame
    /// Queues the last rendered frame to be written as a PNG at `path`; returns the microseconds
    /// spent on the calling thread (encoding itself runs elsewhere).
    func writeFrame(to path: String) -> Double
    /// Whether the last rendered frame shows exactly the pixels of the last frame written (and
    /// `writeFrame` was not called since): the caller then points at that file instead of
    /// writing the same picture again.
    func repeatsLastWrittenFrame() -> Bool
    /// Waits for queued frames to be written; returns an error message for a frame that failed.
    func finish() -> String?
    /// A copy of the last rendered frame's pixels, for a named capture; nil without pixels.
    func capturedImage() -> RasterImage?
}

extension FrameRenderer {
    /// A renderer that finds damage by comparing lists itself ignores what the caller knows.
    public func setLayer(_ id: Int, frame: Rect, content: DisplayList, contentChanged: Bool) {
        setLayer(id, frame: frame, content: content)
    }

    /// A renderer that keeps its own copy of every layer's content keeps it.
    public func releaseContent(ofLayer id: Int) {}

    /// A renderer without pixels writes no frames to repeat.
    public func repeatsLastWrittenFrame() -> Bool { false }

    /// A renderer without pixels has no image for a named capture.
    public func capturedImage() -> RasterImage? { nil }
}

/// One rendered frame as the trace reports it.
public struct RenderedFrame: Sendable, Equatable {
    /// The frame's `Damage` as its renderer read it: disjoint rectangles in pixels.
    public var damage: [Rect]
    /// The `Damage`'s area: each repainted pixel once.
    public var damagedPixels: Int
    public var rasterMicros: Double
    public var compositeMicros: Double
    /// What layers were drawn with other than asked (unknown symbol, unreadable image).
    public var problems: [LayerProblem]

    public init(damage: [Rect], damagedPixels: Int, rasterMicros: Double = 0, compositeMicros: Double = 0,
                problems: [LayerProblem] = []) {
        self.damage = damage
        self.damagedPixels = damagedPixels
        self.rasterMicros = rasterMicros
        self.compositeMicros = compositeMicros
        self.problems = problems
    }
}

/// Damage without pixels: a layer whose frame or drawing changed damages its old and new frame
/// (the part inside the viewport), in pixels at `scale`, gathered in the same `Damage` the
/// compositor paints through, so a pixel damaged twice counts once.
/// Event-path stored properties are `@exclusivity(unchecked)`: one thread owns it, their accesses never overlap.
public final class DamageTracker: FrameRenderer {
    /// A layer as last set. Its content is nil between `releaseContent` and the next `setLayer`;
    /// its bounds stay.
    private final class Layer {
        var frame: Rect
        var content: DisplayList?
        var bounds: Rect

        init(frame: Rect, content: DisplayList) {
            self.frame = frame
            self.content = content
            bounds = content.bounds
        }
    }

    @exclusivity(unchecked) private var layers = LayerSlots<Layer>()
    private let damage: Damage
    private let scale: Double
    /// The last frame's damage list, shared with the frame handed out (see `takeForRefill`).
    @exclusivity(unchecked) private var lastDamage: [Rect] = []

    public init(viewport: Size, scale: Double) {
        damage = Damage(bounds: PixelRect(covering: Rect(origin: .zero, size: viewport), scale: scale))
        self.scale = scale
    }

    public func setLayer(_ id: Int, frame: Rect, content: DisplayList) {
        place(id, frame: frame, content: content) { $0.map { $0 != content } ?? true }
    }

    public func setLayer(_ id: Int, frame: Rect, content: DisplayList, contentChanged: Bool) {
        place(id, frame: frame, content: content) { _ in contentChanged }
    }

    public func releaseContent(ofLayer id: Int) {
        layers[id]?.content = nil
    }

    /// `differs(old content)`: whether `content` differs from the layer's last content.
    private func place(_ id: Int, frame: Rect, content: DisplayList, differs: (DisplayList?) -> Bool) {
        guard let layer = layers[id] else {
            addDamage(frame)
            layers[id] = Layer(frame: frame, content: content)
            return
        }
        if layer.frame != frame {
            addDamage(layer.frame)
            addDamage(frame)
        } else if differs(layer.content) {
            // `DisplayList.damage` of two lists known to differ, without comparing them again.
            let d = layer.bounds.union(content.bounds).offsetBy(dx: frame.minX, dy: frame.minY)
            addDamage(d.intersection(frame))
        }
        layer.frame = frame
        layer.content = content
        layer.bounds = content.bounds
    }

    public func removeLayer(_ id: Int) {
        if let old = layers.removeValue(forKey: id) { addDamage(old.frame) }
    }

    private func addDamage(_ r: Rect) {
        damage.add(covering: r, scale: scale)
    }

    public func renderFrame() -> RenderedFrame {
        var rects = lastDamage.takeForRefill()
        damage.forEachRect { rects.append(Rect(pixels: $0)) }
        lastDamage = rects
        defer { damage.removeAll() }
        return RenderedFrame(damage: rects, damagedPixels: damage.area)
    }

    public func writeFrame(to path: String) -> Double { 0 }
    public func finish() -> String? { nil }
}

extension Rect {
    /// A framebuffer rectangle as the trace reports it: pixel coordinates, unscaled.
    init(pixels r: PixelRect) {
        self.init(x: Double(r.x), y: Double(r.y), width: Double(r.width), height: Double(r.height))
    }
}
