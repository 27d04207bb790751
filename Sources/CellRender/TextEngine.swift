import CFreeType
import CPixman
import CellKit
import Glibc

/// Text through fontconfig, HarfBuzz and FreeType: measures for layout (`TextMeasuring`) and
/// draws the same layout into frames. Faces are pinned to one installed family so frames are
/// reproducible. Thread-safe: one lock guards FreeType's face state and the caches.
public final class TextEngine: TextMeasuring, @unchecked Sendable {
    public let family: String
    private let lock = Mutex()
    private let library: FreeTypeLibrary
    private var faces: [FaceKey: FontFace] = [:]
    private var facesByIndex: [FontFace] = []
    private var shapedRuns: [RunKey: ShapedRun] = [:]
    private var layouts: [LayoutKey: TextLayout] = [:]
    private var glyphs: [GlyphKey: GlyphMask?] = [:]
    private var symbols: [SymbolKey: CoverageMask] = [:]
    /// Symbol widths in symbol heights, by name (`SymbolRenderer.width(named:)`), read once each.
    private var symbolWidths: [String: Double] = [:]
    /// Rounded-rect, stroke and shadow masks, shared by every compositor using this engine.
    private let coverage = CoverageCache()
    private let imageSizes = ImageSizes()
    /// The pinned family's regular face.
    private var regular: FontFace { facesByIndex[0] }
    /// Entries each cache may hold before it is emptied (long streams of distinct texts).
    private let cacheLimit = 8192
    /// Bytes of composed line masks the cached layouts hold, and how many they may hold before
    /// the layouts (and the masks with them) are dropped.
    private var composedBytes = 0
    private let composedBudget = 16 << 20

    private struct FaceKey: Hashable { var family: String; var bold: Bool; var italic: Bool }
    private struct RunKey: Hashable { var text: Substring; var face: Int }
    private struct LayoutKey: Hashable { var request: TextLayoutRequest; var width: Double? }
    private struct GlyphKey: Hashable { var face: Int; var glyph: UInt32; var size26_6: Int; var phase: Int }
    private struct SymbolKey: Hashable { var name: String; var width: Int; var height: Int; var weight: FontWeight }

    /// Opens `family` (regular, bold, oblique) through fontconfig; throws when it is not installed.
    public init(family: String = "DejaVu Sans") throws(FontError) {
        self.family = family
        let library = try FreeTypeLibrary()
        self.library = library
        let path = try FontLocator.file(family: family, bold: false, italic: false)
        let regular = try FontFace(index: 0, path: path, library: library)
        faces[FaceKey(family: family, bold: false, italic: false)] = regular
        facesByIndex = [regular]
    }

    // MARK: Measuring

    public func measure(_ request: TextLayoutRequest, width: Double?) -> TextMetrics {
        lock.withLock { layout(request, width: width).metrics }
    }

    public func imageSize(atPath path: String) -> Size? { imageSizes.size(atPath: path) }

    /// As tall as the symbol height for `pointSize`, as wide as its advance at that height (whole
    /// points, so text after an unreserved symbol starts on a point). The rasterizer draws from
    /// the same width, so layout and pixels agree.
    public func symbolSize(named name: String, pointSize: Double) -> Size {
        let height = Image.symbolHeight(pointSize: pointSize)
        return Size(width: max(1, (height * symbolWidth(named: name)).rounded()), height: height)
    }

    /// The symbol's width in symbol heights; unknown names draw the square missing-symbol box.
    func symbolWidth(named name: String) -> Double {
        lock.withLock {
            if let known = symbolWidths[name] { return known }
            let width = SymbolRenderer.isKnown(name) ? SymbolRenderer(textEngine: self).width(named: name) : 1
            if symbolWidths.count >= cacheLimit { symbolWidths.removeAll(keepingCapacity: true) }
            symbolWidths[name] = width
            return width
        }
    }

    /// Caller holds the lock.
    func layout(_ request: TextLayoutRequest, width: Double?) -> TextLayout {
        let key = LayoutKey(request: request, width: width)
        if let cached = layouts[key] { return cached }
        let face = self.face(for: request.font)
        let pointSize = max(0, request.font.pointSize)
        let scale = pointSize / face.unitsPerEm
        let breaker = LineBreaker(scale: scale, maxWidth: width, mode: request.lineBreakMode,
                                  ellipsis: shaped("\u{2026}", face: face))
        let limit = request.numberOfLines > 0 ? request.numberOfLines : Int.max
        var lines: [TextLayout.Line] = []
        let paragraphs = request.text.split(separator: "\n", omittingEmptySubsequences: false)
        paragraphLoop: for (p, paragraphText) in paragraphs.enumerated() {
            let run = shaped(paragraphText, face: face)
            let ranges = breaker.lines(for: run)
            for (i, range) in ranges.enumerated() {
                let moreFollows = i < ranges.count - 1 || p < paragraphs.count - 1
                if lines.count == limit - 1 && moreFollows {
                    lines.append(line(breaker.truncated(run, line: range, hidden: true), scale: scale,
                                      rtl: run.isRightToLeft))
                    break paragraphLoop
                }
                lines.append(line([.init(run: run, range: run.trimmingTrailingSpaces(range))], scale: scale,
                                  rtl: run.isRightToLeft))
            }
        }
        let result = TextLayout(lines: lines, maxWidth: width, pointSize: pointSize, ascent: face.ascender * scale,
                                descent: face.descender * scale,
                                lineHeight: (face.ascender + face.descender + face.lineGap) * scale)
        if layouts.count >= cacheLimit {
            layouts.removeAll(keepingCapacity: true)
            composedBytes = 0
        }
        layouts[key] = result
        return result
    }

    private func line(_ pieces: [TextLayout.Piece], scale: Double, rtl: Bool) -> TextLayout.Line {
        let width = pieces.reduce(0.0) { $0 + $1.run.width($1.range) } * scale
        return TextLayout.Line(pieces: pieces, width: width, isRightToLeft: rtl)
    }

    private func shaped(_ text: Substring, face: FontFace) -> ShapedRun {
        let key = RunKey(text: text, face: face.index)
        if let run = shapedRuns[key] { return run }
        let run = ShapedRun(text: text, face: face)
        if shapedRuns.count >= cacheLimit { shapedRuns.removeAll(keepingCapacity: true) }
        shapedRuns[key] = run
        return run
    }

    // MARK: Faces

    /// Semibold and bold map to the family's Bold face, italic to its Oblique; an unknown family
    /// falls back to the pinned one, so a typo never stops a frame.
    func face(for font: Font) -> FontFace {
        let bold = font.weight == .semibold || font.weight == .bold
        let key = FaceKey(family: font.family ?? family, bold: bold, italic: font.isItalic)
        if let face = faces[key] { return face }
        var face = regular
        if let path = try? FontLocator.file(family: key.family, bold: bold, italic: font.isItalic),
           let opened = try? FontFace(index: facesByIndex.count, path: path, library: library) {
            face = opened
            facesByIndex.append(opened)
        } else if key.family != family {
            face = self.face(for: Font(pointSize: font.pointSize, weight: font.weight, isItalic: font.isItalic))
        }
        faces[key] = face
        return face
    }

    /// A face of the pinned family (for symbols). Caller holds the lock.
    func face(bold: Bool) -> FontFace { face(for: Font(pointSize: 12, weight: bold ? .bold : .regular)) }

    // MARK: Glyph masks

    /// A cached glyph mask. Caller holds the lock.
    func glyphMask(face: FontFace, glyph: UInt32, pixelSize: Double, phase: Int) -> GlyphMask? {
        let key = GlyphKey(face: face.index, glyph: glyph, size26_6: Int((pixelSize * 64).rounded()), phase: phase)
        if let cached = glyphs[key] { return cached }
        let mask = face.renderGlyph(glyph, pixelSize: pixelSize, phase: phase)
        if glyphs.count >= cacheLimit { glyphs.removeAll(keepingCapacity: true) }
        glyphs[key] = mask
        return mask
    }

    /// Counts the bytes of a line mask kept with a cached layout. Caller holds the lock.
    func noteComposed(bytes: Int) {
        composedBytes += bytes
        guard composedBytes > composedBudget else { return }
        layouts.removeAll(keepingCapacity: true)
        composedBytes = 0
    }

    /// Runs `body` with the shared coverage-mask cache, under the lock.
    func withCoverage<T>(_ body: (CoverageCache) -> T) -> T { lock.withLock { body(coverage) } }

    /// A cached symbol mask `width` × `height` pixels (unknown names give the missing-symbol box).
    func symbolMask(name: String, width: Int, height: Int, weight: FontWeight) -> CoverageMask {
        lock.withLock {
            let key = SymbolKey(name: name, width: width, height: height, weight: weight)
            if let cached = symbols[key] { return cached }
            let mask = SymbolRenderer(textEngine: self).mask(name: name, width: width, height: height, weight: weight)
            if symbols.count >= cacheLimit { symbols.removeAll(keepingCapacity: true) }
            symbols[key] = mask
            return mask
        }
    }

    func withLock<T>(_ body: () throws -> T) rethrows -> T { try lock.withLock(body) }
}

/// A pthread mutex; `NSLock` would pull Foundation into every caller for one lock.
final class Mutex: @unchecked Sendable {
    private var mutex = pthread_mutex_t()
    init() { pthread_mutex_init(&mutex, nil) }
    deinit { pthread_mutex_destroy(&mutex) }
    func withLock<T>(_ body: () throws -> T) rethrows -> T {
        pthread_mutex_lock(&mutex)
        defer { pthread_mutex_unlock(&mutex) }
        return try body()
    }
}
