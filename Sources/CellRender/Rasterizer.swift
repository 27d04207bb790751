import CPixman
import CellKit

/// A background blur a layer asks for, in layer-buffer pixels; the compositor applies it to
/// what lies beneath the layer when compositing.
struct BackdropBlur: Hashable {
    var rect: PixelRect
    var sigma: Double
    var cornerRadius: Double
}

/// Draws a `DisplayList` into a pixel buffer: commands in points, mapped to pixels by `scale`
/// and an offset. Clip and alpha groups draw into pooled buffers that are composited back
/// through a rounded mask or a constant alpha on pop.
///
/// Fast paths, each giving the same pixels as the general one (`usesFastPaths` = false keeps
/// to the general path, for tests that compare both):
/// - a list whose first drawing command is an opaque fill covering the target (inside plain
///   clips) draws over the target as it is, without clearing it first;
/// - a rounded clip pushed before anything is drawn draws in place instead of into a group
///   buffer: when its rounding misses the clip it is a plain clip, otherwise the target is blank
///   and its rounding is applied to the target on pop (what compositing a group over blank
///   pixels through the rounded coverage leaves).
final class Rasterizer {
    let textEngine: TextEngine
    let images = ImageCache()
    var usesFastPaths = true
    private var solids: [UInt32: OpaquePointer] = [:]
    private var pool: [PixelBuffer] = []

    /// Set per `draw`: what the list asked for that could not be drawn as asked, and its blurs.
    private(set) var problems: [String] = []
    private(set) var backdropBlurs: [BackdropBlur] = []
    /// Set per `draw`: every pixel of the target is opaque (an opaque fill covered it and
    /// nothing after it can make a pixel translucent), so compositing it is copying it.
    private(set) var coversTarget = false
    /// No drawing command has reached any buffer yet in this `draw`.
    private var untouched = true
    /// The target holds only zero pixels until the first drawing command.
    private var targetIsBlank = true

    private struct Group {
        var buffer: PixelBuffer
        var clip: PixelRect
        var roundedClip: (PixelRect, Double)?
        var alpha: Double?
        /// An in-place rounded clip over blank pixels: its rounding is applied to the buffer on pop.
        var roundingOnPop: (PixelRect, Double)?
    }
    private var stack: [Group] = []
    /// Merge each text line's glyphs into one cached mask and write masks over a known opaque
    /// colour from ramps (off = glyph by glyph, every mask blended by pixman; for tests).
    var usesCoverageShortcuts = true
    /// Lines drawn through a composed mask since this rasterizer was made (for tests).
    private(set) var linesComposited = 0
    /// Where the glyphs of the line being drawn land (reused between lines).
    private var placements: [GlyphPlacement] = []
    /// The layouts and faces of the last text runs drawn, found by comparing requests (a redrawn
    /// row draws the same few runs again) instead of hashing each into the engine's caches.
    private var recentLayouts = RecentItems<RecentLayout>(limit: 8)
    private struct RecentLayout {
        let request: TextLayoutRequest
        let width: Double
        let layout: TextLayout
        let face: FontFace
        /// Where the layout's lines went the last time it was drawn with every line composed.
        var placed: PlacedText?
    }
    /// A text layout's composed lines where one draw put them: the same layout drawn again in
    /// the same frame, alignment and direction, at the same scale and offset, puts every glyph
    /// on the same pixels, so its lines are drawn from these without placing glyphs again.
    private struct PlacedText {
        let frame: Rect
        let alignment: TextAlignment
        let direction: LayoutDirection
        let scale: Double, offsetX: Double, offsetY: Double
        /// The lines that have ink: each one's merged mask and where its top-left corner lands.
        let lines: [(mask: CoverageMask, x: Int, y: Int)]

        func matches(_ run: TextRun, scale: Double, offsetX: Double, offsetY: Double) -> Bool {
            frame == run.frame && alignment == run.alignment && direction == run.layoutDirection
                && self.scale == scale && self.offsetX == offsetX && self.offsetY == offsetY
        }
    }
    /// Text lines drawn from a kept placement (`PlacedText`) since this rasterizer was made (for tests).
    private(set) var linesFromPlacedText = 0
    /// The colours converted last (see `ColorConversions`).
    private var colors = ColorConversions()
    /// The masks of the last symbols drawn (see `symbolMask`).
    private var recentSymbols = RecentItems<(name: String, pointSize: Double, frameSize: Size, weight: FontWeight, mask: CoverageMask)>(limit: 8)
    /// The clips `startsWithCoveringFill` walks through (reused between calls).
    private var clipScratch: [PixelRect] = []
    /// Masks (text lines, symbols, strokes, shadows) written from a ramp over the solid colour
    /// beneath them (see `SolidBeneath`).
    private(set) var masksOverSolid = 0
    /// Translucent rectangles filled as the one pixel they give over the solid colour beneath.
    private(set) var fillsOverSolid = 0
    /// Opaque rectangles filled so far (each starts a new `SolidBeneath`).
    private var solidFills = 0

    /// The last opaque rectangle filled in a buffer and what has been drawn in that buffer since
    /// (conservative pixel bounds): inside the rectangle but outside those bounds, every pixel
    /// is `argb`. A coverage mask (text line, symbol, stroke, shadow) that lies there is copied
    /// from the mask shaded over that colour once (`ramp[coverage]`, the pixel pixman composites
    /// for that coverage over that colour; the colour itself where coverage is zero): the same
    /// pixels as compositing it, without blending each one.
    private struct SolidBeneath {
        let buffer: PixelBuffer
        let rect: PixelRect
        let argb: UInt32
    }
    private var solidBeneath: SolidBeneath?
    private var drawnSince: [PixelRect] = []
    /// Text colour over background colour → the 256 pixels of each coverage (a few in use at once).
    private var ramps: [UInt64: [UInt32]] = [:]
    /// Colour over background colour → the pixel OVER gives (`over`), and where pixman computes it.
    private var blends: [UInt64: UInt32] = [:]
    private let blendPixel = PixelBuffer(width: 1, height: 1)
    private var shadedMasks: [ShadedMask.Key: ShadedMask] = [:]
    /// The last shaded masks used, compared before the hashed lookup (a redrawn row asks again for
    /// the few it drew before).
    private var recentShaded = RecentItems<ShadedMask>(limit: 16)
    private var shadedBytes = 0
    private let coverageRamp: CoverageMask = {
        let mask = CoverageMask(width: 256, height: 1)
        for i in 0..<256 { mask[i, 0] = UInt8(i) }
        return mask
    }()
    private var scale = 1.0, offsetX = 0.0, offsetY = 0.0

    init(textEngine: TextEngine) {
        self.textEngine = textEngine
    }

    deinit { for s in solids.values { pixman_image_unref(s) } }

    /// Draws `list` into `target` as if onto blank pixels: a point p lands on pixel
    /// p × scale + offset. `targetIsBlank` says the target holds only zero pixels already;
    /// otherwise it is cleared first unless the list covers it from its first drawing command.
    /// With `clip`, only those pixels of the target are drawn (and never cleared: the list must
    /// cover them, `coversFromStart`).
    func draw(_ list: DisplayList, into target: PixelBuffer, scale: Double, offset: (x: Double, y: Double),
              targetIsBlank: Bool, clip: PixelRect? = nil) {
        self.scale = scale
        offsetX = offset.x
        offsetY = offset.y
        if !problems.isEmpty { problems.removeAll(keepingCapacity: true) }
        if !backdropBlurs.isEmpty { backdropBlurs.removeAll(keepingCapacity: true) }
        coversTarget = false
        untouched = true
        let bounds = clip ?? target.bounds
        if targetIsBlank {
            self.targetIsBlank = true
        } else if clip != nil || (usesFastPaths && startsWithCoveringFill(list, bounds: bounds)) {
            self.targetIsBlank = false
        } else {
            target.clear()
            self.targetIsBlank = true
        }
        stack.removeAll(keepingCapacity: true)
        stack.append(Group(buffer: target, clip: bounds))
        solidBeneath = nil
        if !drawnSince.isEmpty { drawnSince.removeAll(keepingCapacity: true) }
        target.setClip(nil)
        // Each command read in place (a `for in` over the array copies every command it visits).
        list.commands.withUnsafeBufferPointer { commands in
            for i in commands.indices { execute(commands.baseAddress! + i) }
        }
        while stack.count > 1 { popGroup() }  // unbalanced pushes close at the end
        target.setClip(nil)
    }

    /// Whether `list`, drawn at `scale` and `offset`, overwrites every pixel of `bounds` with an
    /// opaque fill before anything else draws (see `startsWithCoveringFill`).
    func coversFromStart(_ list: DisplayList, bounds: PixelRect, scale: Double, offset: (x: Double, y: Double)) -> Bool {
        self.scale = scale
        offsetX = offset.x
        offsetY = offset.y
        return startsWithCoveringFill(list, bounds: bounds)
    }

    /// Whether the first command that draws is an opaque fill covering `bounds`, with only plain
    /// clips (or rounded ones whose rounding misses the clip) pushed before it: whatever the
    /// target held is then overwritten before anything else reads it.
    private func startsWithCoveringFill(_ list: DisplayList, bounds: PixelRect) -> Bool {
        var clips = clipScratch
        clipScratch = []
        defer { clips.removeAll(keepingCapacity: true); clipScratch = clips }
        clips.append(bounds)
        return list.commands.withUnsafeBufferPointer { commands in
            for i in commands.indices {
                switch commands[i] {
                case .pushClip(let rect, let radius):
                    let r = pixelRect(rect)
                    let clip = clips[clips.count - 1].intersection(r)
                    guard RoundedSplit.roundingMisses(clip, rect: r, radius: radius * scale) else { return false }
                    clips.append(clip)
                case .popClip, .popAlpha:
                    if clips.count > 1 { clips.removeLast() }
                case .backgroundBlur:
                    continue
                case .fill(let rect, let color):
                    return argb(color) >> 24 == 255 && pixelRect(rect).intersection(clips[clips.count - 1]).contains(bounds)
                default:
                    return false
                }
            }
            return false
        }
    }

    private var top: Group { stack[stack.count - 1] }

    /// Draws the command `command` points at (read where the list holds it, not copied).
    private func execute(_ command: UnsafePointer<DisplayCommand>) {
        let draws = command.pointee.draws
        if draws { untouched = false }
        let solidFills = self.solidFills
        defer {
            // What the command drew, for the solid colour beneath later masks (text notes its own
            // lines: glyphs may reach outside the run's frame; a new opaque fill starts afresh).
            if solidBeneath != nil, draws, solidFills == self.solidFills {
                if case .text = command.pointee {} else { drawnSince.append(pixelRect(command.pointee.bounds).insetBy(-2)) }
            }
        }
        switch command.pointee {
        case .fill(let rect, let color):
            fillRounded(pixelRect(rect), radius: 0, argb: argb(color))
        case .roundedRect(let rect, let radius, let color):
            fillRounded(pixelRect(rect), radius: radius * scale, argb: argb(color))
        case .stroke(let rect, let radius, let width, let color):
            let r = pixelRect(rect)
            guard !r.isEmpty, width > 0 else { return }
            let mask = textEngine.withCoverage { $0.mask(RoundedShape(width: Double(r.width), height: Double(r.height), radius: radius * scale),
                                     strokeWidth: width * scale) }
            composite(argb: argb(color), mask: mask, x: r.x, y: r.y)
        case .text(let run):
            drawText(run)
        case .symbol(let name, let frame, let pointSize, let weight, let color):
            drawSymbol(name: name, frame: frame, pointSize: pointSize, weight: weight, argb: argb(color))
        case .image(let path, let frame, let mode, let tint):
            drawImage(path: path, frame: frame, mode: mode, tint: tint)
        case .pushClip(let rect, let radius):
            let r = pixelRect(rect)
            let clip = top.clip.intersection(r)
            if radius > 0 && usesFastPaths && untouched {
                // Nothing drawn yet: a blank buffer, or (target not cleared) one the first fill covers.
                let misses = RoundedSplit.roundingMisses(clip, rect: r, radius: radius * scale)
                let blank = top.buffer !== stack[0].buffer || targetIsBlank
                if misses || blank {
                    stack.append(Group(buffer: top.buffer, clip: clip, roundingOnPop: misses ? nil : (r, radius * scale)))
                    return
                }
            }
            if radius > 0 {
                pushGroup(Group(buffer: borrowBuffer(), clip: clip, roundedClip: (r, radius * scale)))
            } else {
                stack.append(Group(buffer: top.buffer, clip: clip))
            }
        case .pushAlpha(let alpha):
            pushGroup(Group(buffer: borrowBuffer(), clip: top.clip, alpha: min(1, max(0, alpha))))
        case .popClip, .popAlpha:
            if stack.count > 1 { popGroup() }
        case .backgroundBlur(let rect, let radius, let cornerRadius):
            let r = pixelRect(rect)
            if !r.isEmpty && radius > 0 { backdropBlurs.append(BackdropBlur(rect: r, sigma: radius * scale, cornerRadius: cornerRadius * scale)) }
        case .shadow(let rect, let radius, let blur, let offset, let color):
            let r = pixelRect(rect)
            guard !r.isEmpty else { return }
            let sigma = blur * scale
            let mask = textEngine.withCoverage { $0.mask(RoundedShape(width: Double(r.width), height: Double(r.height), radius: radius * scale), blur: sigma) }
            let pad = CoverageCache.padding(blur: sigma)
            composite(argb: argb(color), mask: mask,
                      x: r.x - pad + Int((offset.x * scale).rounded()), y: r.y - pad + Int((offset.y * scale).rounded()))
        }
    }

    // MARK: Geometry

    private func argb(_ color: Color) -> UInt32 { colors.argb(color) }

    private func pixelRect(_ r: Rect) -> PixelRect {
        guard !r.isEmpty else { return .zero }
        let x0 = (r.minX * scale + offsetX).roundedToInt, y0 = (r.minY * scale + offsetY).roundedToInt
        let x1 = (r.maxX * scale + offsetX).roundedToInt, y1 = (r.maxY * scale + offsetY).roundedToInt
        return PixelRect(x: x0, y: y0, width: x1 - x0, height: y1 - y0)
    }

    // MARK: Primitives

    private func solid(_ argb: UInt32) -> OpaquePointer {
        if let s = solids[argb] { return s }
        if solids.count > 256 { for s in solids.values { pixman_image_unref(s) }; solids.removeAll() }
        let s = makeSolidSource(argb)
        solids[argb] = s
        return s
    }

    private func composite(argb: UInt32, mask: CoverageMask, x: Int, y: Int) {
        let group = top
        composite(argb: argb, mask: mask, at: PixelRect(x: x, y: y, width: mask.width, height: mask.height), clip: group.clip,
                  into: group.buffer)
    }

    /// Composites `argb` through `mask` placed at `at` into `buffer` inside `clip`: from the
    /// coverage ramp where the pixels beneath are known to be one opaque colour (no pixman clip
    /// needed), else through pixman with `clip` set. Returns the pixels it may have changed.
    @discardableResult
    private func composite(argb: UInt32, mask: CoverageMask, at: PixelRect, clip: PixelRect, into buffer: PixelBuffer) -> PixelRect {
        let drawn = at.intersection(clip).intersection(buffer.bounds)
        if let solid = solidBeneath, solid.buffer === buffer, solid.rect.contains(drawn),
           !drawnSince.contains(where: { !$0.intersection(drawn).isEmpty }) {
            copyShaded(mask, color: argb, over: solid.argb, at: at, part: drawn, into: buffer)
            masksOverSolid += 1
        } else {
            buffer.setClip(clip)
            pixman_image_composite32(PIXMAN_OP_OVER, solid(argb), mask.image, buffer.image, 0, 0, 0, 0,
                                     Int32(at.x), Int32(at.y), Int32(at.width), Int32(at.height))
        }
        return drawn
    }

    /// Sharp rectangles as boxes (SRC when opaque); rounded ones through `CoverageCache.composite`.
    private func fillRounded(_ r: PixelRect, radius: Double, argb: UInt32) {
        guard !r.isEmpty, argb >> 24 != 0 else { return }
        let group = top
        let shape = radius == 0 ? nil : RoundedShape(width: Double(r.width), height: Double(r.height), radius: radius)
        guard let shape, shape.radius4 != 0 else {
            let drawn = r.intersection(group.clip)
            if argb >> 24 == 255 {
                group.buffer.fill(drawn, argb: argb)
            } else if let solid = solidBeneath, solid.buffer === group.buffer, solid.rect.contains(drawn.intersection(group.buffer.bounds)),
                      !drawnSince.contains(where: { !$0.intersection(drawn).isEmpty }) {
                // Every pixel beneath is `solid.argb`: each becomes the one pixel OVER gives there.
                group.buffer.fill(drawn, argb: over(argb, solid.argb))
                fillsOverSolid += 1
            } else {
                group.buffer.setClip(group.clip)
                fillBoxes(group.buffer, [r], argb: argb, op: PIXMAN_OP_OVER)
            }
            if argb >> 24 == 255 && usesCoverageShortcuts {
                solidBeneath = SolidBeneath(buffer: group.buffer, rect: r.intersection(group.clip).intersection(group.buffer.bounds), argb: argb)
                drawnSince.removeAll(keepingCapacity: true)
                solidFills += 1
            }
            // Every later command composites OVER (or fills opaquely), which keeps opaque pixels opaque.
            if argb >> 24 == 255 && group.buffer === stack[0].buffer && r.intersection(group.clip).contains(group.buffer.bounds) {
                coversTarget = true
            }
            return
        }
        group.buffer.setClip(group.clip)
        let source = solid(argb)
        textEngine.withCoverage { $0.composite(PIXMAN_OP_OVER, source: source, into: group.buffer.image, rect: r, radius: shape.radius) }
    }

    // MARK: Groups

    private func borrowBuffer() -> PixelBuffer {
        let base = stack[0].buffer
        if let i = pool.firstIndex(where: { $0.width == base.width && $0.height == base.height }) {
            let buffer = pool.remove(at: i)
            buffer.setClip(nil)
            buffer.clear()
            return buffer
        }
        return PixelBuffer(width: base.width, height: base.height)
    }

    private func pushGroup(_ group: Group) { stack.append(group) }

    private func popGroup() {
        let group = stack.removeLast()
        let parent = top
        if solidBeneath != nil && (group.buffer !== parent.buffer || group.roundingOnPop != nil) {
            // A group merged into its parent, or corners multiplied in place: pixels changed in its clip.
            if solidBeneath?.buffer === group.buffer && group.buffer !== parent.buffer { solidBeneath = nil }
            drawnSince.append(group.clip)
        }
        if let (rect, radius) = group.roundingOnPop {
            group.buffer.setClip(group.clip)
            let opaque = solid(0xFF00_0000)
            textEngine.withCoverage { $0.maskRounding(of: group.buffer.image, opaque: opaque, rect: rect, radius: radius) }
            coversTarget = false
            return
        }
        guard group.buffer !== parent.buffer else { return }  // a rectangular clip: nothing to merge
        parent.buffer.setClip(parent.clip)
        let c = group.clip
        if let (rect, radius) = group.roundedClip {
            parent.buffer.setClip(c)
            textEngine.withCoverage {
                $0.composite(PIXMAN_OP_OVER, source: group.buffer.image, into: parent.buffer.image, rect: rect, radius: radius)
            }
        } else if let alpha = group.alpha {
            let a = UInt32((alpha * 255).rounded())
            pixman_image_composite32(PIXMAN_OP_OVER, group.buffer.image, solid(a << 24), parent.buffer.image,
                                     Int32(c.x), Int32(c.y), 0, 0, Int32(c.x), Int32(c.y), Int32(c.width), Int32(c.height))
        }
        if pool.count < 4 { pool.append(group.buffer) }
    }

    // MARK: Text

    private func drawText(_ run: TextRun) {
        let frame = run.frame
        guard !run.text.isEmpty, run.color.alpha > 0 else { return }
        let argb = argb(run.color)
        let group = top
        var clip = group.clip
        if run.lineBreakMode == .byClipping { clip = clip.intersection(pixelRect(frame)) }
        textEngine.withLock {
            let entry = recentLayoutIndex(run.layoutRequest, width: frame.width)
            if usesCoverageShortcuts, let placed = recentLayouts.entries[entry].placed,
               placed.matches(run, scale: scale, offsetX: offsetX, offsetY: offsetY) {
                for line in placed.lines {
                    drawComposed(line.mask, at: PixelRect(x: line.x, y: line.y, width: line.mask.width, height: line.mask.height),
                                 argb: argb, clip: clip, into: group.buffer)
                }
                linesFromPlacedText += placed.lines.count
                return
            }
            let layout = recentLayouts.entries[entry].layout, face = recentLayouts.entries[entry].face
            // Taken out of the property while the line loop appends to it (no access check per glyph).
            var placements = self.placements
            self.placements = []
            defer { placements.removeAll(keepingCapacity: true); self.placements = placements }
            /// The composed lines drawn so far; nil once a line is drawn glyph by glyph.
            var placedLines: [(mask: CoverageMask, x: Int, y: Int)]? = usesCoverageShortcuts ? [] : nil
            var clipIsSet = false
            let pixelSize = layout.pointSize * scale
            let textHeight = Double(layout.lines.count) * layout.lineHeight
            let top = frame.minY + max(0, (frame.height - textHeight) / 2)
            let unit = layout.pointSize / face.unitsPerEm
            for (i, line) in layout.lines.enumerated() {
                let x = TextEngine.lineOrigin(line, in: frame, alignment: run.alignment, direction: run.layoutDirection)
                let baseline = ((top + layout.ascent + Double(i) * layout.lineHeight) * scale + offsetY).rounded()
                let anchorY = Int(baseline)
                var anchorX = 0
                var pen = x
                if line.isRightToLeft { pen += line.width }
                placements.removeAll(keepingCapacity: true)
                for piece in line.pieces {
                    let run = piece.run
                    for g in piece.range {
                        let advance = run.advances[g] * unit
                        if line.isRightToLeft { pen -= advance }
                        let gx = (pen + run.xOffsets[g] * unit) * scale + offsetX
                        let gy = baseline - (run.yOffsets[g] * unit * scale).rounded()
                        if !line.isRightToLeft { pen += advance }
                        let whole = gx.rounded(.down)
                        let phase = min(3, Int(((gx - whole) * 4).rounded(.down)))
                        if placements.isEmpty { anchorX = Int(whole) }
                        placements.append(GlyphPlacement(x: Int(whole) - anchorX, y: Int(gy) - anchorY, phase: phase))
                    }
                }
                guard !placements.isEmpty else { continue }
                let composed = usesCoverageShortcuts ? (layout.composed.line(i, pixelSize: pixelSize, placements: placements)
                                                ?? compose(line, index: i, of: layout, pixelSize: pixelSize, placements: placements)) : nil
                if let composed, let mask = composed.mask {
                    let at = PixelRect(x: anchorX + composed.left, y: anchorY + composed.top, width: mask.width, height: mask.height)
                    drawComposed(mask, at: at, argb: argb, clip: clip, into: group.buffer)
                    placedLines?.append((mask, at.x, at.y))
                    continue
                }
                if let composed, !composed.hasInk { continue }
                placedLines = nil
                if !clipIsSet { group.buffer.setClip(clip); clipIsSet = true }
                let source = solid(argb)
                var inked = PixelRect.zero
                defer { if solidBeneath != nil { drawnSince.append(inked.intersection(clip)) } }
                forEachGlyphMask(of: line, pixelSize: pixelSize, placements: placements) { mask, x, y in
                    let at = PixelRect(x: anchorX + x, y: anchorY + y, width: mask.width, height: mask.height)
                    inked = inked.union(at)
                    pixman_image_composite32(PIXMAN_OP_OVER, source, mask.image, group.buffer.image, 0, 0, 0, 0,
                                             Int32(at.x), Int32(at.y), Int32(at.width), Int32(at.height))
                }
            }
            if let placedLines {
                let placed = PlacedText(frame: frame, alignment: run.alignment, direction: run.layoutDirection, scale: scale,
                                        offsetX: offsetX, offsetY: offsetY, lines: placedLines)
                recentLayouts.modify(at: entry) { $0.placed = placed }
            }
        }
    }

    /// Draws a text line's composed mask at `at` (see `composite(argb:mask:at:clip:into:)`).
    private func drawComposed(_ mask: CoverageMask, at: PixelRect, argb: UInt32, clip: PixelRect, into buffer: PixelBuffer) {
        let drawn = composite(argb: argb, mask: mask, at: at, clip: clip, into: buffer)
        linesComposited += 1
        if solidBeneath != nil { drawnSince.append(drawn) }
    }

    /// Each glyph of `line` that has a mask, at `placements`: the mask and its top-left corner
    /// relative to the line's anchor. Caller holds the text engine's lock.
    private func forEachGlyphMask(of line: TextLayout.Line, pixelSize: Double, placements: [GlyphPlacement],
                                  _ body: (CoverageMask, Int, Int) -> Void) {
        var k = 0
        for piece in line.pieces {
            for g in piece.range {
                let p = placements[k]
                k += 1
                guard let glyph = textEngine.glyphMask(face: piece.run.face, glyph: piece.run.glyphs[g], pixelSize: pixelSize,
                                                       phase: p.phase) else { continue }
                body(glyph.mask, p.x + glyph.left, p.y - glyph.top)
            }
        }
    }

    /// Merges the glyph masks of line `index` at `placements` and keeps the result with the
    /// layout. Caller holds the text engine's lock.
    private func compose(_ line: TextLayout.Line, index: Int, of layout: TextLayout, pixelSize: Double,
                         placements: [GlyphPlacement]) -> ComposedLine {
        var glyphs: [(mask: CoverageMask, x: Int, y: Int)] = []
        forEachGlyphMask(of: line, pixelSize: pixelSize, placements: placements) { glyphs.append(($0, $1, $2)) }
        let merged = ComposedLine.merge(glyphs, maxPixels: Rasterizer.maxComposedPixels)
        let composed = ComposedLine(pixelSize: pixelSize, placements: placements, mask: merged?.mask,
                                    left: merged?.left ?? 0, top: merged?.top ?? 0, hasInk: !glyphs.isEmpty)
        layout.composed.add(composed, at: index)
        textEngine.noteComposed(bytes: merged.map { $0.mask.stride * $0.mask.height } ?? 0)
        return composed
    }

    /// Where `recentLayouts` holds the layout of `request` at `width` and its face: found among
    /// the last runs drawn when one asked for the same, else taken from the engine's caches and
    /// kept. Caller holds the text engine's lock.
    private func recentLayoutIndex(_ request: TextLayoutRequest, width: Double) -> Int {
        for i in recentLayouts.entries.indices
        where recentLayouts.entries[i].width == width && recentLayouts.entries[i].request == request {
            return i
        }
        let layout = textEngine.layout(request, width: width)
        let face = textEngine.face(for: request.font)
        return recentLayouts.remember(RecentLayout(request: request, width: width, layout: layout, face: face))
    }

    /// The pixel pixman gives compositing `color` OVER `background` (both premultiplied), kept
    /// per pair of colours.
    private func over(_ color: UInt32, _ background: UInt32) -> UInt32 {
        let key = UInt64(color) << 32 | UInt64(background)
        if let pixel = blends[key] { return pixel }
        blendPixel.pixels[0] = background
        pixman_image_composite32(PIXMAN_OP_OVER, solid(color), nil, blendPixel.image, 0, 0, 0, 0, 0, 0, 1, 1)
        let pixel = blendPixel.pixels[0]
        if blends.count >= 256 { blends.removeAll(keepingCapacity: true) }
        blends[key] = pixel
        return pixel
    }

    /// The pixels compositing `color` through each coverage 0…255 over `background` gives, as
    /// pixman computes them.
    private func ramp(of color: UInt32, over background: UInt32) -> [UInt32] {
        let key = UInt64(color) << 32 | UInt64(background)
        if let ramp = ramps[key] { return ramp }
        let row = PixelBuffer(width: 256, height: 1)
        row.pixels.update(repeating: background, count: 256)
        pixman_image_composite32(PIXMAN_OP_OVER, solid(color), coverageRamp.image, row.image, 0, 0, 0, 0, 0, 0, 256, 1)
        let ramp = Array(UnsafeBufferPointer(start: row.pixels, count: 256))
        if ramps.count >= 64 { ramps.removeAll(keepingCapacity: true) }
        ramps[key] = ramp
        return ramp
    }

    /// Copies `mask` shaded over the solid colour beneath (see `ShadedMask`) into `part` of
    /// `buffer`, row by row.
    private func copyShaded(_ mask: CoverageMask, color: UInt32, over background: UInt32, at: PixelRect, part: PixelRect,
                            into buffer: PixelBuffer) {
        guard !part.isEmpty else { return }
        let shaded = shade(mask, color: color, over: background)
        shaded.pixels.withUnsafeBufferPointer { source in
            for y in part.y..<part.maxY {
                // Only the row's inked columns: the rest of the shaded row is the colour already there.
                let ink = shaded.ink[y - at.y]
                let x0 = max(part.x, at.x + Int(ink.lowerBound)), x1 = min(part.maxX, at.x + Int(ink.upperBound))
                guard x1 > x0 else { continue }
                (buffer.pixels + y * buffer.stride + x0).update(from: source.baseAddress! + (y - at.y) * mask.width + (x0 - at.x), count: x1 - x0)
            }
        }
    }

    /// `mask` composited in `color` over `background`: `ramp[coverage]` where coverage is not
    /// zero, `background` where it is (what compositing leaves there). Kept per mask and colours.
    private func shade(_ mask: CoverageMask, color: UInt32, over background: UInt32) -> ShadedMask {
        for i in recentShaded.entries.indices where recentShaded.entries[i].mask === mask
            && recentShaded.entries[i].color == color && recentShaded.entries[i].background == background {
            return recentShaded.entries[i]
        }
        let key = ShadedMask.Key(mask: ObjectIdentifier(mask), color: color, background: background)
        if let shaded = shadedMasks[key], shaded.mask === mask { return remember(shaded) }
        let ramp = ramp(of: color, over: background)
        var pixels = [UInt32](repeating: background, count: mask.width * mask.height)
        var ink = [Range<Int32>](repeating: 0..<0, count: mask.height)
        for y in 0..<mask.height {
            let row = mask.bytes + y * mask.stride
            var first = -1, last = -1
            for x in 0..<mask.width where row[x] != 0 {
                pixels[y * mask.width + x] = ramp[Int(row[x])]
                if first < 0 { first = x }
                last = x
            }
            if first >= 0 { ink[y] = Int32(first)..<Int32(last + 1) }
        }
        let shaded = ShadedMask(mask: mask, color: color, background: background, pixels: pixels, ink: ink)
        shadedBytes += pixels.count * 4
        if shadedBytes > Rasterizer.shadedBudget {
            shadedMasks.removeAll(keepingCapacity: true)
            recentShaded.removeAll()
            shadedBytes = pixels.count * 4
        }
        shadedMasks[key] = shaded
        return remember(shaded)
    }

    /// Keeps `shaded` among the last few used (the oldest goes).
    private func remember(_ shaded: ShadedMask) -> ShadedMask {
        recentShaded.remember(shaded)
        return shaded
    }

    /// Bytes of shaded masks a rasterizer keeps before it drops them all.
    static let shadedBudget = 8 << 20

    /// Larger lines (very long unwrapped text) are drawn glyph by glyph rather than kept as a mask.
    static let maxComposedPixels = 1 << 20

    // MARK: Symbols and images

    /// The symbol is as tall as its point size asks (never taller than the frame), its ink never
    /// wider than the frame, centred in the frame: layout made an image frame as wide as the
    /// symbol's advance.
    private func drawSymbol(name: String, frame: Rect, pointSize: Double, weight: FontWeight, argb: UInt32) {
        guard let mask = symbolMask(name: name, frame: frame, pointSize: pointSize, weight: weight) else { return }
        if name != SymbolCatalog.missingName && !SymbolRenderer.isKnown(name) { problems.append("unknown symbol \"\(name)\" drawn as a missing-symbol box") }
        let x = (frame.midX * scale + offsetX - Double(mask.width) / 2).roundedToInt
        let y = (frame.midY * scale + offsetY - Double(mask.height) / 2).roundedToInt
        composite(argb: argb, mask: mask, x: x, y: y)
    }

    /// A symbol's mask: from the last symbols drawn when one was asked for the same way, else
    /// sized from the symbol's width and taken from the engine's cache (both under its lock).
    /// nil when the frame is too small to draw in.
    private func symbolMask(name: String, frame: Rect, pointSize: Double, weight: FontWeight) -> CoverageMask? {
        for entry in recentSymbols.entries where entry.pointSize == pointSize && entry.frameSize == frame.size
            && entry.weight == weight && entry.name == name {
            return entry.mask
        }
        // A glyph's ink fits its square, centred in its advance, so its mask is that square and
        // what must fit the frame is the narrower of the two; a drawn symbol fills its width.
        let advance = textEngine.symbolWidth(named: name)
        let isGlyph = SymbolCatalog.glyphScalar(named: name) != nil
        let side = min(SymbolCatalog.standardDimension(pointSize: pointSize), frame.height,
                       frame.width / (isGlyph ? min(1, advance) : advance))
        let height = (side * scale).roundedToInt
        guard height > 0 else { return nil }
        // Wider than tall by whole pixels on each side, so a wide symbol is centred as a square one.
        let width = isGlyph ? height : max(1, height + 2 * ((side * advance * scale - Double(height)) / 2).roundedToInt)
        let mask = textEngine.symbolMask(name: name, width: width, height: height, weight: weight)
        recentSymbols.remember((name: name, pointSize: pointSize, frameSize: frame.size, weight: weight, mask: mask))
        return mask
    }

    private func drawImage(path: String, frame: Rect, mode: ContentMode, tint: Color?) {
        let dest = pixelRect(frame)
        guard !dest.isEmpty else { return }
        let image: PixelBuffer
        switch images.image(path: path) {
        case .success(let decoded): image = decoded
        case .failure(let error):
            problems.append("image \(error.description); drawn as a missing-image box")
            drawSymbol(name: SymbolCatalog.missingName, frame: frame, pointSize: frame.height / 1.2, weight: .regular,
                       argb: (tint ?? .systemGray).premultipliedARGB)
            return
        }
        let iw = Double(image.width), ih = Double(image.height)
        var sx = Double(dest.width) / iw, sy = Double(dest.height) / ih
        switch mode {
        case .scaleToFill: break
        case .scaleAspectFit: sx = min(sx, sy); sy = sx
        case .scaleAspectFill: sx = max(sx, sy); sy = sx
        case .center: sx = scale; sy = scale
        }
        let w = Int((iw * sx).rounded()), h = Int((ih * sy).rounded())
        let x = dest.x + (dest.width - w) / 2, y = dest.y + (dest.height - h) / 2
        var transform = pixman_transform_t()
        pixman_transform_init_scale(&transform, pixman_fixed_t((65536 / sx).rounded()), pixman_fixed_t((65536 / sy).rounded()))
        pixman_image_set_transform(image.image, &transform)
        let group = top
        group.buffer.setClip(group.clip.intersection(dest))
        if let tint {
            pixman_image_composite32(PIXMAN_OP_OVER, solid(tint.premultipliedARGB), image.image, group.buffer.image,
                                     0, 0, 0, 0, Int32(x), Int32(y), Int32(w), Int32(h))
        } else {
            pixman_image_composite32(PIXMAN_OP_OVER, image.image, nil, group.buffer.image,
                                     0, 0, 0, 0, Int32(x), Int32(y), Int32(w), Int32(h))
        }
        pixman_image_set_transform(image.image, nil)
    }
}

extension DisplayCommand {
    /// Whether the command puts pixels into the buffer it draws into (clips, alpha groups and
    /// backdrop blurs do not by themselves).
    var draws: Bool {
        switch self {
        case .fill, .roundedRect, .stroke, .text, .symbol, .image, .shadow: true
        case .pushClip, .popClip, .pushAlpha, .popAlpha, .backgroundBlur: false
        }
    }
}

extension TextEngine {
    /// Where a line starts (points) inside `frame` for an alignment; natural and justified follow
    /// the layout direction (justified lines are not stretched).
    static func lineOrigin(_ line: TextLayout.Line, in frame: Rect, alignment: TextAlignment,
                           direction: LayoutDirection) -> Double {
        let free = frame.width - line.width
        switch alignment {
        case .left: return frame.minX
        case .right: return frame.minX + free
        case .center: return frame.minX + free / 2
        case .natural, .justified: return direction == .rightToLeft ? frame.minX + free : frame.minX
        }
    }
}

/// A coverage mask composited in one colour over one opaque colour, row-major, `mask.width`
/// pixels per row. Holds the mask so its identity (the cache key) stays its own.
private final class ShadedMask {
    struct Key: Hashable {
        var mask: ObjectIdentifier
        var color: UInt32
        var background: UInt32
    }
    let mask: CoverageMask
    let color: UInt32
    let background: UInt32
    let pixels: [UInt32]
    /// Per row, the columns from its first to its last non-zero coverage (empty for a blank row).
    let ink: [Range<Int32>]
    init(mask: CoverageMask, color: UInt32, background: UInt32, pixels: [UInt32], ink: [Range<Int32>]) {
        self.mask = mask
        self.color = color
        self.background = background
        self.pixels = pixels
        self.ink = ink
    }
}
