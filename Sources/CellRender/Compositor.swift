import CPixman
import CellKit

/// The offscreen compositor: one layer per cell, each rastered into its own buffer only when its
/// DisplayList or frame changes, then composited into the framebuffer inside the frame's `Damage`
/// only (old ∪ new extents of changed layers). Framebuffer = viewport × scale, premultiplied
/// `PIXMAN_a8r8g8b8`. Not thread-safe: one owner drives it.
///
/// Opaque layers hide what lies beneath them: inside the damage each layer is composited only
/// where no opaque layer above covers it (opaque ones copied, not blended), and the background
/// is filled only where no opaque layer lies. A layer that is one solid fill keeps no buffer: it
/// is filled straight into the framebuffer; so is a layer whose list starts with an opaque fill
/// covering it: it is drawn into the framebuffer where it shows (in the coordinates its own buffer
/// would have), instead of rastered into a buffer and copied. Same pixels as blending every layer
/// over the background (`usesFastPaths` = false does that, for tests that compare both).
public final class Compositor {
    public let viewport: Size
    public let scale: Int
    public let textEngine: TextEngine
    public private(set) var background: Color {
        didSet { backgroundARGB = background.premultipliedARGB }
    }
    /// `background` premultiplied (filled in every frame's damage).
    private var backgroundARGB: UInt32
    /// When set, `snapshot()` tints the last frame's damage so people can see what was repainted.
    public var showsDamage = false
    /// Told the rectangles `renderFrame()` is about to paint before it changes a framebuffer
    /// pixel, and the whole framebuffer before it is freed: a reader that borrowed the pixels
    /// (the PNG writer) copies what it has not read yet.
    public var willPaint: (([PixelRect]) -> Void)?

    private let framebuffer: PixelBuffer
    private let rasterizer: Rasterizer
    private var layers = LayerSlots<Layer>()
    /// Bottom to top: the order layers were first set in (walked every frame without hashing ids).
    private var order: [Layer] = []
    /// What the next frame repaints: filled by layer changes between frames and by the frame's
    /// own rastering, read and emptied by `renderFrame()`.
    private let damage: Damage
    /// The layers set to raster or move since the last frame, in the order they changed: a frame
    /// with one such layer works on it alone instead of walking every layer.
    private var changed: [Layer] = []
    /// The layers a frame composites and where (kept between frames for its storage).
    private var visibleParts: [(layer: Layer, region: pixman_region32_t)] = []
    private var lastDamage: [PixelRect] = []
    private var frameIndex = 0
    private var blurScratch: PixelBuffer?
    private let opaque = makeSolidSource(0xFF00_0000)

    /// Off = the general path only (every layer rastered into a buffer and blended, text glyph
    /// by glyph); for tests.
    var usesFastPaths = true {
        didSet {
            rasterizer.usesFastPaths = usesFastPaths
            rasterizer.usesCoverageShortcuts = usesFastPaths
        }
    }

    /// Off = text drawn glyph by glyph and every coverage mask blended by pixman, instead of
    /// composed line masks and ramps over known opaque colours; for tests.
    var usesCoverageShortcuts: Bool {
        get { rasterizer.usesCoverageShortcuts }
        set { rasterizer.usesCoverageShortcuts = newValue }
    }

    /// Text lines drawn through a composed mask so far; coverage masks written over a known solid colour.
    var linesComposited: Int { rasterizer.linesComposited }
    var masksOverSolid: Int { rasterizer.masksOverSolid }
    var fillsOverSolid: Int { rasterizer.fillsOverSolid }
    /// Text lines drawn from where the same layout's lines went last time.
    var linesFromPlacedText: Int { rasterizer.linesFromPlacedText }

    /// A layer drawn as one solid colour over `rect` (framebuffer pixels).
    private struct SolidFill {
        var rect: PixelRect
        var argb: UInt32
        var isOpaque: Bool { argb >> 24 == 255 }
    }

    private final class Layer {
        let id: Int
        var frame: Rect
        var content: DisplayList
        var needsRaster = true
        /// In `changed`: set to raster or move since the last frame.
        var isChanged = true
        /// Set when only the frame changed since the last raster, by whole pixels (`dx`, `dy`).
        var pixelMove: (dx: Int, dy: Int)?
        /// Where the layer's buffer sits in the framebuffer; nil until first composited.
        var extent: PixelRect = .zero
        var composited: PixelRect?
        var buffer: PixelBuffer?
        /// Every pixel of `buffer` is opaque.
        var isOpaque = false
        /// Set instead of `buffer` when the content is one solid fill.
        var solid: SolidFill?
        /// No buffer: the list covers `extent` opaquely and is drawn straight into the framebuffer.
        var drawsDirectly = false
        /// The framebuffer pixels under `extent`, for drawing directly.
        var view: PixelBuffer?
        var blurs: [BackdropBlur] = []
        var problems: [String] = []
        init(id: Int, frame: Rect, content: DisplayList) { self.id = id; self.frame = frame; self.content = content }
    }

    public init(viewport: Size, scale: Int, background: Color, textEngine: TextEngine) {
        precondition((1...3).contains(scale), "display scale must be 1, 2 or 3")
        self.viewport = viewport
        self.scale = scale
        self.background = background
        backgroundARGB = background.premultipliedARGB
        self.textEngine = textEngine
        framebuffer = PixelBuffer(width: Int((viewport.width * Double(scale)).rounded(.up)),
                                  height: Int((viewport.height * Double(scale)).rounded(.up)))
        rasterizer = Rasterizer(textEngine: textEngine)
        damage = Damage(bounds: framebuffer.bounds)
        damage.addWhole()
    }

    deinit {
        willPaint?([framebuffer.bounds])
        pixman_image_unref(opaque)
    }

    /// Framebuffer size in pixels.
    public var pixelWidth: Int { framebuffer.width }
    public var pixelHeight: Int { framebuffer.height }
    public var layerIDs: [Int] { order.map(\.id) }

    /// Adds a layer on top, or updates one in place (keeping its stacking position). Nothing is
    /// drawn until `renderFrame()`; an unchanged frame and list cost nothing.
    public func setLayer(_ id: Int, frame: Rect, content: DisplayList) {
        place(id, frame: frame, content: content) { $0 == content }  // compared once: a comparison walks both lists
    }

    /// `setLayer` from a caller that knows whether `content` differs from the layer's last content,
    /// so the lists are not compared again.
    public func setLayer(_ id: Int, frame: Rect, content: DisplayList, contentChanged: Bool) {
        place(id, frame: frame, content: content) { _ in !contentChanged }
    }

    /// Lets go of layer `id`'s content until the caller sets the layer again, with
    /// `contentChanged`, before the next frame: the caller changes that recording in place, and a
    /// list held twice would be copied whole by the change.
    public func releaseContent(ofLayer id: Int) {
        layers[id]?.content = DisplayList()
    }

    /// `isSame(old content)`: whether `content` equals the layer's last content.
    private func place(_ id: Int, frame: Rect, content: DisplayList, isSame: (DisplayList) -> Bool) {
        if let layer = layers[id] {
            let sameContent = isSame(layer.content)
            // An equal list is taken too: the layer's own may have been released.
            layer.content = content
            guard layer.frame != frame || !sameContent else { return }
            let s = Double(scale)
            let dx = (frame.minX - layer.frame.minX) * s, dy = (frame.minY - layer.frame.minY) * s
            if sameContent && !layer.needsRaster && dx == dx.rounded() && dy == dy.rounded() {
                let previous = layer.pixelMove ?? (0, 0)
                layer.pixelMove = (previous.dx + Int(dx), previous.dy + Int(dy))
            } else {
                layer.pixelMove = nil
                layer.needsRaster = true
            }
            layer.frame = frame
            if !layer.isChanged { layer.isChanged = true; changed.append(layer) }
        } else {
            let layer = Layer(id: id, frame: frame, content: content)
            layers[id] = layer
            order.append(layer)
            changed.append(layer)
        }
    }

    public func removeLayer(_ id: Int) {
        guard let layer = layers.removeValue(forKey: id) else { return }
        order.removeAll { $0 === layer }
        if layer.isChanged { changed.removeAll { $0 === layer } }
        if let old = layer.composited { damage.add(old) }
    }

    public func setBackground(_ color: Color) {
        guard color != background else { return }
        background = color
        damage.addWhole()
    }

    /// Rasters changed layers and composites the damaged region; returns what it did.
    public func renderFrame() -> FrameReport {
        let clock = ContinuousClock()
        let rasterStart = clock.now
        defer { damage.removeAll() }
        var rastered = 0
        var problems: [LayerProblem] = []
        // Several changed layers are rastered bottom to top, so their problems are reported in that order.
        for layer in changed.count > 1 ? order : changed where layer.isChanged {
            layer.isChanged = false
            if let move = layer.pixelMove {
                layer.pixelMove = nil
                if translate(layer, by: move) {
                    if let old = layer.composited { damage.add(old) }
                    damage.add(layer.extent)
                    layer.composited = layer.extent
                } else {
                    layer.needsRaster = true
                }
            }
            if layer.needsRaster {
                raster(layer)
                rastered += 1
                if let old = layer.composited { damage.add(old) }
                damage.add(layer.extent)
                layer.composited = layer.extent
                if !layer.problems.isEmpty { problems += layer.problems.map { LayerProblem(layer: layer.id, message: $0) } }
            }
        }
        if !changed.isEmpty { changed.removeAll(keepingCapacity: true) }
        let compositeStart = clock.now
        let rasterDuration = compositeStart - rasterStart

        let region = damage.mergedRegion()
        let hasBlurs = order.withUnsafeBufferPointer { layers in layers.contains { !$0.blurs.isEmpty } }
        if hasBlurs { closeOverBlurs(&region.pointee) }
        let rects = damage.rects
        if !rects.isEmpty { willPaint?(rects) }
        var composited = 0
        if !rects.isEmpty && usesFastPaths && !hasBlurs {
            composited = compositeVisibleParts(of: &region.pointee)
        } else if !rects.isEmpty {
            pixman_image_set_clip_region32(framebuffer.image, region)
            fillBoxes(framebuffer, rects, argb: backgroundARGB, op: PIXMAN_OP_SRC)
            let bounds = rects.reduce(PixelRect.zero) { $0.union($1) }
            for layer in order {
                if let solid = layer.solid {
                    guard solid.argb != 0, !solid.rect.intersection(bounds).isEmpty else { continue }
                    fillBoxes(framebuffer, [solid.rect], argb: solid.argb, op: solid.isOpaque ? PIXMAN_OP_SRC : PIXMAN_OP_OVER)
                    composited += 1
                    continue
                }
                if layer.drawsDirectly {
                    guard !layer.extent.intersection(bounds).isEmpty else { continue }
                    pixman_image_set_clip_region32(framebuffer.image, nil)
                    drawDirectly(layer, in: &region.pointee)
                    pixman_image_set_clip_region32(framebuffer.image, region)
                    composited += 1
                    continue
                }
                guard let buffer = layer.buffer, !layer.extent.intersection(bounds).isEmpty || !layer.blurs.isEmpty else { continue }
                for blur in layer.blurs { applyBackdropBlur(blur, region: &region.pointee) }
                guard !layer.extent.intersection(bounds).isEmpty else { continue }
                pixman_image_composite32(PIXMAN_OP_OVER, buffer.image, nil, framebuffer.image, 0, 0, 0, 0,
                                         Int32(layer.extent.x), Int32(layer.extent.y),
                                         Int32(layer.extent.width), Int32(layer.extent.height))
                composited += 1
            }
            pixman_image_set_clip_region32(framebuffer.image, nil)
        }
        lastDamage = rects
        let report = FrameReport(index: frameIndex, damage: rects, pixelsTouched: damage.area,
                                 layersRastered: rastered, layersComposited: composited,
                                 rasterDuration: rasterDuration, compositeDuration: clock.now - compositeStart,
                                 problems: problems)
        frameIndex += 1
        return report
    }

    /// The framebuffer's pixels (row-major premultiplied ARGB, `pixelWidth` per row, no tint): the
    /// PNG writer reads the rows that changed without a snapshot. The memory stays put while the
    /// compositor lives; `willPaint` says when its pixels are about to change.
    public func withFramebufferPixels<Result>(_ body: (UnsafeBufferPointer<UInt32>) throws -> Result) rethrows -> Result {
        try body(UnsafeBufferPointer(start: framebuffer.pixels, count: framebuffer.width * framebuffer.height))
    }

    /// A copy of the framebuffer (with the last damage tinted when `showsDamage` is on).
    public func snapshot() -> RasterImage {
        guard showsDamage, !lastDamage.isEmpty else { return framebuffer.snapshot() }
        let copy = PixelBuffer(width: framebuffer.width, height: framebuffer.height)
        copy.pixels.update(from: framebuffer.pixels, count: framebuffer.width * framebuffer.height)
        fillBoxes(copy, lastDamage, argb: Compositor.damageTint, op: PIXMAN_OP_OVER)
        return copy.snapshot()
    }

    /// Translucent magenta, premultiplied: visible on light and dark frames.
    static let damageTint: UInt32 = 0x4C_4C_00_4C

    /// How a layer's pixels are kept: in its own buffer, as one solid fill, or not at all (drawn
    /// straight into the framebuffer); nil for an unknown id or a layer not rastered yet.
    enum LayerStorage { case buffer, solid, direct }

    func storage(ofLayer id: Int) -> LayerStorage? {
        guard let layer = layers[id], !layer.needsRaster else { return nil }
        if layer.solid != nil { return .solid }
        if layer.drawsDirectly { return .direct }
        return layer.buffer == nil ? nil : .buffer
    }

    // MARK: Occlusion

    /// Composites `damage` with each layer only where no opaque layer above covers it, and the
    /// background only where no opaque layer does. Pixel for pixel what blending every layer
    /// bottom to top gives: an opaque pixel OVER anything is itself, so what it covers never
    /// shows. Not for frames with backdrop blurs (they read what lies beneath). Returns how many
    /// layers it composited.
    private func compositeVisibleParts(of damage: inout pixman_region32_t) -> Int {
        var covered = pixman_region32_t()
        pixman_region32_init(&covered)
        defer { pixman_region32_fini(&covered) }
        var visibleParts = self.visibleParts
        self.visibleParts = []
        defer {
            for i in visibleParts.indices { pixman_region32_fini(&visibleParts[i].region) }
            visibleParts.removeAll(keepingCapacity: true)
            self.visibleParts = visibleParts
        }
        // A layer outside the damage's extents neither shows in it nor covers any of it.
        let box = pixman_region32_extents(&damage)!.pointee
        let extents = PixelRect(x: Int(box.x1), y: Int(box.y1), width: Int(box.x2 - box.x1), height: Int(box.y2 - box.y1))
        var coversDamage = false
        for layer in order.reversed() {
            let drawn: PixelRect
            let opaque: PixelRect
            if let solid = layer.solid {
                guard solid.argb != 0 else { continue }
                drawn = solid.rect
                opaque = solid.isOpaque ? solid.rect : .zero
            } else if layer.buffer != nil || layer.drawsDirectly {
                drawn = layer.extent
                opaque = layer.isOpaque ? layer.extent : .zero
            } else {
                continue
            }
            guard !drawn.intersection(extents).isEmpty else { continue }
            var visible = pixman_region32_t()
            pixman_region32_init(&visible)
            _ = pixman_region32_intersect_rect(&visible, &damage, Int32(drawn.x), Int32(drawn.y), UInt32(drawn.width), UInt32(drawn.height))
            if pixman_region32_not_empty(&covered) != 0 {
                withUnsafeMutablePointer(to: &visible) { _ = pixman_region32_subtract($0, $0, &covered) }
            }
            if pixman_region32_not_empty(&visible) != 0 {
                visibleParts.append((layer, visible))
            } else {
                pixman_region32_fini(&visible)
            }
            // Opaque over the whole damage: nothing beneath it shows, nor does the background.
            if opaque.contains(extents) { coversDamage = true; break }
            if !opaque.isEmpty { add(opaque, to: &covered) }
        }
        if !coversDamage {
            var background = pixman_region32_t()
            pixman_region32_init(&background)
            defer { pixman_region32_fini(&background) }
            _ = pixman_region32_subtract(&background, &damage, &covered)
            fill(background, argb: backgroundARGB, op: PIXMAN_OP_SRC)
        }
        for i in visibleParts.indices.reversed() {
            let layer = visibleParts[i].layer
            if let solid = layer.solid {
                fill(visibleParts[i].region, argb: solid.argb, op: solid.isOpaque ? PIXMAN_OP_SRC : PIXMAN_OP_OVER)
            } else if layer.drawsDirectly {
                drawDirectly(layer, in: &visibleParts[i].region)
            } else if let buffer = layer.buffer {
                pixman_image_set_clip_region32(framebuffer.image, &visibleParts[i].region)
                pixman_image_composite32(layer.isOpaque ? PIXMAN_OP_SRC : PIXMAN_OP_OVER, buffer.image, nil, framebuffer.image,
                                         0, 0, 0, 0, Int32(layer.extent.x), Int32(layer.extent.y),
                                         Int32(layer.extent.width), Int32(layer.extent.height))
                pixman_image_set_clip_region32(framebuffer.image, nil)
            }
        }
        return visibleParts.count
    }

    /// Fills the boxes of `region` in the framebuffer with a premultiplied colour.
    private func fill(_ region: pixman_region32_t, argb: UInt32, op: pixman_op_t) {
        var region = region
        var count: Int32 = 0
        guard let boxes = pixman_region32_rectangles(&region, &count), count > 0 else { return }
        var color = pixman_color_t(red: UInt16((argb >> 16) & 0xFF) * 257, green: UInt16((argb >> 8) & 0xFF) * 257,
                                   blue: UInt16(argb & 0xFF) * 257, alpha: UInt16(argb >> 24) * 257)
        pixman_image_fill_boxes(op, framebuffer.image, &color, count, boxes)
    }

    // MARK: Layers

    private func raster(_ layer: Layer) {
        let s = Double(scale)
        let bounds = layer.content.bounds.offsetBy(dx: layer.frame.minX, dy: layer.frame.minY)
        let extent = PixelRect(covering: bounds, scale: s).intersection(framebuffer.bounds)
        layer.extent = extent
        layer.needsRaster = false
        layer.solid = nil
        layer.isOpaque = false
        layer.drawsDirectly = false
        guard !extent.isEmpty else { layer.buffer = nil; layer.blurs = []; layer.problems = []; return }
        let offset = (x: layer.frame.minX * s - Double(extent.x), y: layer.frame.minY * s - Double(extent.y))
        if usesFastPaths, layer.content.commands.count == 1, case .fill(let rect, let color) = layer.content.commands[0] {
            // Where the rasterizer would fill it, moved from buffer to framebuffer pixels.
            let x0 = (rect.minX * s + offset.x).roundedToInt, y0 = (rect.minY * s + offset.y).roundedToInt
            let x1 = (rect.maxX * s + offset.x).roundedToInt, y1 = (rect.maxY * s + offset.y).roundedToInt
            let inBuffer = PixelRect(x: x0, y: y0, width: x1 - x0, height: y1 - y0)
                .intersection(PixelRect(x: 0, y: 0, width: extent.width, height: extent.height))
            let argb = color.premultipliedARGB
            layer.solid = SolidFill(rect: PixelRect(x: inBuffer.x + extent.x, y: inBuffer.y + extent.y,
                                                    width: inBuffer.width, height: inBuffer.height),
                                    argb: inBuffer.isEmpty ? 0 : argb)
            layer.buffer = nil
            layer.blurs = []
            layer.problems = []
            return
        }
        if usesFastPaths, Compositor.canDrawDirectly(layer.content),
           rasterizer.coversFromStart(layer.content, bounds: PixelRect(x: 0, y: 0, width: extent.width, height: extent.height),
                                      scale: s, offset: offset) {
            layer.drawsDirectly = true
            layer.isOpaque = true
            layer.buffer = nil
            if layer.view.map({ $0.pixels != framebuffer.pixels + extent.y * framebuffer.stride + extent.x
                                || $0.width != extent.width || $0.height != extent.height }) ?? true {
                layer.view = PixelBuffer(viewOf: framebuffer, rect: extent)
            }
            layer.blurs = []
            layer.problems = []
            return
        }
        layer.view = nil
        let buffer: PixelBuffer
        let blank: Bool
        if let existing = layer.buffer, existing.width == extent.width, existing.height == extent.height {
            buffer = existing
            blank = false
        } else {
            buffer = PixelBuffer(width: extent.width, height: extent.height)
            blank = true
        }
        layer.buffer = buffer
        rasterizer.draw(layer.content, into: buffer, scale: s, offset: offset, targetIsBlank: blank)
        layer.isOpaque = usesFastPaths && rasterizer.coversTarget
        layer.blurs = rasterizer.backdropBlurs.map {
            var b = $0
            b.rect = PixelRect(x: b.rect.x + extent.x, y: b.rect.y + extent.y, width: b.rect.width, height: b.rect.height)
            return b
        }
        layer.problems = rasterizer.problems
    }

    /// Whether a list can be drawn when composited rather than rastered ahead: it must not
    /// report problems (those belong to the frame it changed in) or ask for backdrop blurs.
    private static func canDrawDirectly(_ list: DisplayList) -> Bool {
        list.commands.withUnsafeBufferPointer { commands in  // read in place, not copied command by command
            commands.indices.allSatisfy {
                switch commands[$0] {
                case .image, .backgroundBlur: false
                case .symbol(let name, _, _, _, _): name == SymbolCatalog.missingName || SymbolRenderer.isKnown(name)
                default: true
                }
            }
        }
    }

    /// Draws a direct layer into the framebuffer inside `region` (framebuffer pixels).
    private func drawDirectly(_ layer: Layer, in region: inout pixman_region32_t) {
        guard let view = layer.view else { return }
        let s = Double(scale), extent = layer.extent
        var part = pixman_region32_t()
        pixman_region32_init(&part)
        defer { pixman_region32_fini(&part) }
        _ = pixman_region32_intersect_rect(&part, &region, Int32(extent.x), Int32(extent.y), UInt32(extent.width), UInt32(extent.height))
        var count: Int32 = 0
        guard let boxes = pixman_region32_rectangles(&part, &count) else { return }
        let offset = (x: layer.frame.minX * s - Double(extent.x), y: layer.frame.minY * s - Double(extent.y))
        for i in 0..<Int(count) {
            let box = boxes[i]
            rasterizer.draw(layer.content, into: view, scale: s, offset: offset, targetIsBlank: false,
                            clip: PixelRect(x: Int(box.x1) - extent.x, y: Int(box.y1) - extent.y,
                                            width: Int(box.x2 - box.x1), height: Int(box.y2 - box.y1)))
        }
    }

    /// Moves a rastered layer by whole pixels without rastering it again: its pixels would be the
    /// same. Only when the buffer holds the whole layer before and after (not cut at the edge).
    private func translate(_ layer: Layer, by move: (dx: Int, dy: Int)) -> Bool {
        guard let buffer = layer.buffer, !layer.needsRaster else { return false }
        let s = Double(scale)
        let old = layer.extent
        let moved = PixelRect(x: old.x + move.dx, y: old.y + move.dy, width: old.width, height: old.height)
        let full = PixelRect(covering: layer.content.bounds.offsetBy(dx: layer.frame.minX, dy: layer.frame.minY), scale: s)
        guard full == moved, framebuffer.bounds.intersection(moved) == moved, buffer.width == old.width,
              buffer.height == old.height, framebuffer.bounds.intersection(old) == old else { return false }
        layer.extent = moved
        layer.blurs = layer.blurs.map {
            var b = $0
            b.rect = PixelRect(x: b.rect.x + move.dx, y: b.rect.y + move.dy, width: b.rect.width, height: b.rect.height)
            return b
        }
        return true
    }

    // MARK: Backdrop blur

    /// The pixels a backdrop blur reads: its rect grown by 3σ, inside the framebuffer.
    private func reach(_ blur: BackdropBlur) -> PixelRect {
        blur.rect.insetBy(-CoverageCache.padding(blur: blur.sigma)).intersection(framebuffer.bounds)
    }

    /// A backdrop blur whose reach meets the damage reads pixels around it: grow the damage until
    /// it holds every such reach, so an incremental frame equals a full one.
    private func closeOverBlurs(_ region: inout pixman_region32_t) {
        let blurs = order.flatMap(\.blurs)
        var changed = true
        while changed {
            changed = false
            for blur in blurs {
                let r = reach(blur)
                var box = pixman_box32_t(x1: Int32(r.x), y1: Int32(r.y), x2: Int32(r.maxX), y2: Int32(r.maxY))
                let overlap = pixman_region32_contains_rectangle(&region, &box)
                if overlap == PIXMAN_REGION_PART {
                    add(r, to: &region)
                    changed = true
                }
            }
        }
    }

    private func applyBackdropBlur(_ blur: BackdropBlur, region: inout pixman_region32_t) {
        let r = reach(blur)
        var box = pixman_box32_t(x1: Int32(r.x), y1: Int32(r.y), x2: Int32(r.maxX), y2: Int32(r.maxY))
        guard !r.isEmpty, pixman_region32_contains_rectangle(&region, &box) != PIXMAN_REGION_OUT else { return }
        let scratch: PixelBuffer
        if let s = blurScratch, s.width >= r.width, s.height >= r.height { scratch = s } else {
            scratch = PixelBuffer(width: max(r.width, blurScratch?.width ?? 0), height: max(r.height, blurScratch?.height ?? 0))
            blurScratch = scratch
        }
        for y in 0..<r.height {
            (scratch.pixels + y * scratch.width).update(from: framebuffer.pixels + (r.y + y) * framebuffer.width + r.x, count: r.width)
        }
        Blur.blurARGB(scratch.pixels, stride: scratch.width, rect: PixelRect(x: 0, y: 0, width: r.width, height: r.height),
                      sigma: blur.sigma)
        // Blurred pixels inside the rounded rect, the originals outside it: dest × (1 − coverage),
        // then + blurred × coverage (the damage region stays the clip).
        textEngine.withCoverage { coverage in
            coverage.composite(PIXMAN_OP_OUT_REVERSE, source: opaque, into: framebuffer.image, rect: blur.rect,
                               radius: blur.cornerRadius)
            coverage.composite(PIXMAN_OP_ADD, source: scratch.image, sourceOffset: (-r.x, -r.y),
                               into: framebuffer.image, rect: blur.rect, radius: blur.cornerRadius)
        }
    }
}

private func add(_ rect: PixelRect, to region: inout pixman_region32_t) {
    guard !rect.isEmpty else { return }
    withUnsafeMutablePointer(to: &region) {
        _ = pixman_region32_union_rect($0, $0, Int32(rect.x), Int32(rect.y), UInt32(rect.width), UInt32(rect.height))
    }
}
