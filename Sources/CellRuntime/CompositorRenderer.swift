import CellIO
import Glibc
import CellKit
import CellRender

/// The engine's renderer backed by CellRender: layers composited with damage by pixman, frames
/// encoded to PNG on the writer's thread (off the event path). The writer puts each frame in
/// place under its own name once the file is complete (a frame of an earlier run it replaces is
/// written over as the next frame's file, not freed: `FileReplacer`); a thumbnail of each is kept
/// for the contact sheet.
public final class CompositorRenderer: FrameRenderer {
    public let compositor: Compositor
    private let writer: PNGFrameWriter?
    private(set) var thumbnails: [RasterImage] = []
    /// The framebuffer downscaled as of the last frame written: only the blocks a frame's damage
    /// touches are downscaled again, so a contact sheet needs no copy of the whole framebuffer.
    private var thumbnail: RasterImage?
    /// Framebuffer rectangles repainted since the last frame queued for writing.
    private var unwrittenDamage: [PixelRect] = []
    /// The last frame's damage list, shared with the frame handed out (see `takeForRefill`).
    private var lastDamage: [Rect] = []
    /// Thumbnails are this fraction of a frame's size.
    let thumbnailDivisor: Int
    /// Whether frames are kept as thumbnails for `writeContactSheet` (downscaling every frame
    /// costs as much as encoding it, so runs without a contact sheet skip it).
    private let keepsThumbnails: Bool

    public init(viewport: Size, scale: Int, textEngine: TextEngine, showsDamage: Bool, writesFrames: Bool,
                keepsThumbnails: Bool = true) {
        compositor = Compositor(viewport: viewport, scale: scale, background: .white, textEngine: textEngine)
        compositor.showsDamage = showsDamage
        let writer = writesFrames ? PNGFrameWriter(capacity: 4, frameSize: (compositor.pixelWidth, compositor.pixelHeight)) : nil
        self.writer = writer
        self.keepsThumbnails = keepsThumbnails
        thumbnailDivisor = max(2, Int((viewport.width * Double(scale) / 200).rounded()))
        // Frames lend the framebuffer to the writer: it copies unread strips only when they are
        // about to be painted over. The pixels about to be painted are also kept until the paint,
        // to tell a frame that repeats the last one written (weak: the compositor outlives this
        // renderer's deinit, and tells the writer the framebuffer goes then).
        if let writer {
            compositor.willPaint = { [weak self] rects in
                writer.willOverwrite(rects)
                self?.repeatCheck.keepPixels(in: rects, of: self?.compositor)
            }
        }
    }

    /// Whether the framebuffer still shows the last frame written, pixel for pixel.
    private var repeatCheck = FrameRepeatCheck()

    public func setLayer(_ id: Int, frame: Rect, content: DisplayList) { compositor.setLayer(id, frame: frame, content: content) }
    public func setLayer(_ id: Int, frame: Rect, content: DisplayList, contentChanged: Bool) {
        compositor.setLayer(id, frame: frame, content: content, contentChanged: contentChanged)
    }
    public func releaseContent(ofLayer id: Int) { compositor.releaseContent(ofLayer: id) }
    public func removeLayer(_ id: Int) { compositor.removeLayer(id) }

    public func renderFrame() -> RenderedFrame {
        let report = compositor.renderFrame()
        if writer != nil { repeatCheck.comparePaintedPixels(of: compositor) }
        if writer != nil { unwrittenDamage += report.damage }
        var damage = lastDamage.takeForRefill()
        for r in report.damage { damage.append(Rect(pixels: r)) }
        lastDamage = damage
        return RenderedFrame(damage: damage, damagedPixels: report.pixelsTouched, rasterMicros: report.rasterDuration.micros,
                             compositeMicros: report.compositeDuration.micros, problems: report.problems)
    }

    public func writeFrame(to path: String) -> Double {
        guard let writer else { return 0 }
        let start = ContinuousClock.now
        if compositor.showsDamage {
            let image = compositor.snapshot()
            if keepsThumbnails { thumbnails.append(ContactSheet.downscale(image, by: thumbnailDivisor)) }
            // A damage-tinted snapshot also differs from the previous one where that one was tinted.
            writer.enqueue(image, path: path, changed: nil)
        } else {
            // No snapshot: the writer reads the strips the damage touches straight from the framebuffer.
            compositor.withFramebufferPixels { pixels in
                if keepsThumbnails { keepThumbnail(of: pixels) }
                writer.enqueue(lending: pixels, width: compositor.pixelWidth, height: compositor.pixelHeight, path: path,
                               changed: unwrittenDamage)
            }
        }
        unwrittenDamage.removeAll(keepingCapacity: true)
        repeatCheck.frameWritten()
        return (ContinuousClock.now - start).micros
    }

    /// A damage-tinted frame differs from the last one wherever either was tinted, so only
    /// untinted frames repeat.
    public func repeatsLastWrittenFrame() -> Bool {
        guard writer != nil, !compositor.showsDamage, repeatCheck.showsLastWrittenFrame else { return false }
        // The contact sheet shows the repeated frame as often as the trace does.
        if keepsThumbnails, let last = thumbnails.last { thumbnails.append(last) }
        return true
    }

    /// Brings `thumbnail` up to date with `pixels` (the framebuffer) where the frame's damage
    /// touched it, and keeps a copy of it for the contact sheet.
    private func keepThumbnail(of pixels: UnsafeBufferPointer<UInt32>) {
        let width = compositor.pixelWidth, height = compositor.pixelHeight, divisor = thumbnailDivisor
        let w = max(1, width / divisor), h = max(1, height / divisor)
        var image: RasterImage
        var areas = unwrittenDamage
        if let kept = thumbnail.take(), kept.width == w, kept.height == h {
            image = kept
        } else {
            // The first frame (or one of another size) is downscaled whole.
            image = RasterImage(width: w, height: h, pixels: [UInt32](repeating: 0, count: w * h))
            areas = [PixelRect(x: 0, y: 0, width: width, height: height)]
        }
        for rect in areas {
            ContactSheet.downscale(pixels, width: width, height: height, by: divisor, into: &image,
                                   columns: rect.x / divisor ..< (rect.maxX + divisor - 1) / divisor,
                                   rows: rect.y / divisor ..< (rect.maxY + divisor - 1) / divisor)
        }
        thumbnail = image
        thumbnails.append(image)
    }

    public func capturedImage() -> RasterImage? { compositor.snapshot() }

    public func finish() -> String? {
        var failure: String?
        if let writer {
            do { try writer.finish() } catch { failure = error.description }
        }
        return failure
    }

    /// Writes a grid of the frames' thumbnails as one PNG (`writePNG` puts it in place only once
    /// complete), each labelled with `labels[i]` (frame i + 1's event, "#N summary") when given.
    public func writeContactSheet(to path: String, labels: [String] = []) throws(SinkError) {
        guard !thumbnails.isEmpty else { return }
        let sheet = ContactSheet.compose(thumbnails, labels: labels, textEngine: compositor.textEngine)
        do { try sheet.writePNG(path: path) } catch { throw SinkError(error.description) }
    }
}

extension Duration {
    var micros: Double {
        let c = components
        return Double(c.seconds) * 1e6 + Double(c.attoseconds) / 1e12
    }
}

/// A grid of downscaled frames: the whole run at a glance.
enum ContactSheet {
    static let maximumFrames = 48
    static let gap = 8

    /// Box-filter downscale of premultiplied ARGB (averaging premultiplied values is correct).
    static func downscale(_ image: RasterImage, by divisor: Int) -> RasterImage {
        let w = max(1, image.width / divisor), h = max(1, image.height / divisor)
        var out = RasterImage(width: w, height: h, pixels: [UInt32](repeating: 0, count: w * h))
        image.pixels.withUnsafeBufferPointer { src in
            downscale(src, width: image.width, height: image.height, by: divisor, into: &out, columns: 0..<w, rows: 0..<h)
        }
        return out
    }

    /// Box-filters the `divisor × divisor` blocks of `src` (`width × height`) at block `columns` ×
    /// `rows` (clamped to the whole blocks) into the same pixels of `out`, leaving the others.
    static func downscale(_ src: UnsafeBufferPointer<UInt32>, width: Int, height: Int, by divisor: Int,
                          into out: inout RasterImage, columns: Range<Int>, rows: Range<Int>) {
        let columns = columns.clamped(to: 0..<min(out.width, width / divisor))
        let rows = rows.clamped(to: 0..<min(out.height, height / divisor))
        let n = UInt32(divisor * divisor), w = out.width
        out.pixels.withUnsafeMutableBufferPointer { dst in
            for y in rows {
                for x in columns {
                    var a: UInt32 = 0, r: UInt32 = 0, g: UInt32 = 0, b: UInt32 = 0
                    for dy in 0..<divisor {
                        let row = (y * divisor + dy) * width + x * divisor
                        for dx in 0..<divisor {
                            let p = src[row + dx]
                            a += p >> 24; r += (p >> 16) & 0xFF; g += (p >> 8) & 0xFF; b += p & 0xFF
                        }
                    }
                    dst[y * w + x] = (a / n) << 24 | (r / n) << 16 | (g / n) << 8 | (b / n)
                }
            }
        }
    }

    /// The strip under each thumbnail that holds its label, in pixels.
    static let labelHeight = 16
    static let labelFont = Font.systemFont(ofSize: 10)
    static let ground = Color(white: 0.5)

    /// Lays thumbnails out in rows of up to 8 on a grey ground, each above its label ("#N
    /// summary", drawn by the text engine, cut short to the thumbnail's width); long runs are
    /// sampled evenly, labels with them. Without labels the grid has no label strips.
    static func compose(_ all: [RasterImage], labels allLabels: [String] = [], textEngine: TextEngine? = nil) -> RasterImage {
        let picked: [Int] = all.count > maximumFrames
            ? (0..<maximumFrames).map { $0 * (all.count - 1) / (maximumFrames - 1) }
            : Array(all.indices)
        let frames = picked.map { all[$0] }
        let labels = picked.map { $0 < allLabels.count ? allLabels[$0] : "" }
        let labelled = textEngine != nil && labels.contains { !$0.isEmpty }
        let labelHeight = labelled ? ContactSheet.labelHeight : 0
        let cellW = frames.map(\.width).max() ?? 1, cellH = (frames.map(\.height).max() ?? 1) + labelHeight
        let columns = min(8, frames.count), rows = (frames.count + columns - 1) / columns
        let width = columns * cellW + (columns + 1) * gap, height = rows * cellH + (rows + 1) * gap
        func origin(_ i: Int) -> (x: Int, y: Int) { (gap + (i % columns) * (cellW + gap), gap + (i / columns) * (cellH + gap)) }
        var pixels: [UInt32]
        if labelled, let textEngine {
            let ground = Compositor(viewport: Size(width: Double(width), height: Double(height)), scale: 1, background: ground,
                                    textEngine: textEngine)
            var list = DisplayList()
            for (i, label) in labels.enumerated() where !label.isEmpty {
                let o = origin(i)
                list.append(.text(TextRun(text: label, font: labelFont, color: .white,
                                          frame: Rect(x: Double(o.x + 2), y: Double(o.y + cellH - labelHeight + 1),
                                                      width: Double(cellW - 4), height: Double(labelHeight - 2)),
                                          lineBreakMode: .byTruncatingTail, numberOfLines: 1)))
            }
            ground.setLayer(1, frame: Rect(x: 0, y: 0, width: Double(width), height: Double(height)), content: list)
            _ = ground.renderFrame()
            pixels = ground.snapshot().pixels
        } else {
            pixels = [UInt32](repeating: 0xFF_80_80_80, count: width * height)
        }
        for (i, f) in frames.enumerated() {
            let (ox, oy) = origin(i)
            for y in 0..<f.height {
                let src = y * f.width, dst = (oy + y) * width + ox
                for x in 0..<f.width { pixels[dst + x] = f.pixels[src + x] }
            }
        }
        return RasterImage(width: width, height: height, pixels: pixels)
    }
}
