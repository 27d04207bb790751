import CellKit

/// Text laid out in lines, in points, as `TextEngine` measures and draws it. One value serves
/// both, which is what keeps `measure` equal to the drawn extent.
struct TextLayout {
    struct Piece {
        let run: ShapedRun
        let range: Range<Int>
    }

    struct Line {
        /// Pieces in logical order: text, or an ellipsis run.
        var pieces: [Piece]
        /// Advance width in points (trailing spaces excluded).
        var width: Double
        /// The direction glyphs are placed in (the script's, not the layout direction).
        var isRightToLeft: Bool
    }

    var lines: [Line]
    /// The width constraint; a clipped line may be wider, the measured size never is.
    var maxWidth: Double?
    var pointSize: Double
    var ascent: Double
    var descent: Double
    var lineHeight: Double
    /// Each line's glyphs composed into one coverage mask, per placement; filled as it is drawn.
    let composed = ComposedLines()

    var metrics: TextMetrics {
        let count = max(1, lines.count)
        let widest = min(lines.map(\.width).max() ?? 0, maxWidth ?? .infinity)
        return TextMetrics(size: Size(width: widest, height: Double(count) * lineHeight), lineCount: count,
                           firstBaseline: ascent, lastBaseline: Double(count - 1) * lineHeight + ascent,
                           lineHeight: lineHeight)
    }
}

/// Greedy line breaking: at spaces by words (a word longer than the line breaks between
/// characters), or between any characters for `byCharWrapping`; then `numberOfLines` and the
/// truncation of the last line with "…" at the head, middle or tail.
struct LineBreaker {
    let scale: Double  // points per font unit
    let maxWidth: Double?
    let mode: LineBreakMode
    let ellipsis: ShapedRun

    func lines(for paragraph: ShapedRun) -> [Range<Int>] {
        let n = paragraph.count
        guard let maxWidth, n > 0 else { return [0..<n] }
        let limit = maxWidth / scale + 1e-6
        var result: [Range<Int>] = []
        var start = 0
        while start < n {
            var width = 0.0
            var lastBreak = -1
            var end = start
            while end < n {
                let w = width + paragraph.advances[end]
                let trimmedWidth = paragraph.isSpace[end] ? width : w
                if trimmedWidth > limit && end > start {
                    break
                }
                width = w
                end += 1
                if mode != .byCharWrapping && paragraph.isSpace[end - 1] && (end == n || !paragraph.isSpace[end]) {
                    lastBreak = end
                }
            }
            if end < n {
                if mode != .byCharWrapping && lastBreak > start {
                    end = lastBreak
                } else {
                    // Break between characters: never inside a cluster.
                    while end > start + 1 && !paragraph.startsCluster[end] { end -= 1 }
                }
            }
            result.append(start..<end)
            start = end
        }
        return result
    }

    /// The last visible line when more text follows (`hidden`): for the truncating modes the rest
    /// of the paragraph from the line's start, shortened to fit with "…" at the head, middle or
    /// tail; for clipping the whole rest (cut at the frame when drawn); for the wrapping modes
    /// the line as wrapped.
    func truncated(_ paragraph: ShapedRun, line: Range<Int>, hidden: Bool) -> [TextLayout.Piece] {
        if mode == .byWordWrapping || mode == .byCharWrapping {
            return [.init(run: paragraph, range: paragraph.trimmingTrailingSpaces(line))]
        }
        let start = line.lowerBound
        let rest = paragraph.trimmingTrailingSpaces(start..<paragraph.count)
        guard let maxWidth else { return [.init(run: paragraph, range: rest)] }
        let limit = maxWidth / scale + 1e-6
        if !hidden && paragraph.width(rest) <= limit { return [.init(run: paragraph, range: rest)] }
        let ellipsisPiece = TextLayout.Piece(run: ellipsis, range: 0..<ellipsis.count)
        let available = limit - ellipsis.width(0..<ellipsis.count)
        switch mode {
        case .byTruncatingTail:
            let head = paragraph.trimmingTrailingSpaces(rest.lowerBound..<prefixEnd(paragraph, rest, available))
            return [.init(run: paragraph, range: head), ellipsisPiece]
        case .byTruncatingHead:
            let tail = paragraph.trimmingLeadingSpaces(suffixStart(paragraph, rest, available)..<rest.upperBound)
            return [ellipsisPiece, .init(run: paragraph, range: tail)]
        case .byTruncatingMiddle:
            let headEnd = prefixEnd(paragraph, rest, available / 2)
            let head = paragraph.trimmingTrailingSpaces(rest.lowerBound..<headEnd)
            let tailStart = suffixStart(paragraph, headEnd..<rest.upperBound, available - paragraph.width(head))
            let tail = paragraph.trimmingLeadingSpaces(tailStart..<rest.upperBound)
            return [.init(run: paragraph, range: head), ellipsisPiece, .init(run: paragraph, range: tail)]
        case .byClipping, .byWordWrapping, .byCharWrapping:
            return [.init(run: paragraph, range: rest)]
        }
    }

    /// End of the longest cluster-aligned prefix of `range` no wider than `available` font units.
    private func prefixEnd(_ p: ShapedRun, _ range: Range<Int>, _ available: Double) -> Int {
        var width = 0.0, end = range.lowerBound, best = range.lowerBound
        while end < range.upperBound {
            width += p.advances[end]
            end += 1
            if width > available { break }
            if end == range.upperBound || p.startsCluster[end] { best = end }
        }
        return best
    }

    /// Start of the longest cluster-aligned suffix of `range` no wider than `available` font units.
    private func suffixStart(_ p: ShapedRun, _ range: Range<Int>, _ available: Double) -> Int {
        var width = 0.0, start = range.upperBound, best = range.upperBound
        while start > range.lowerBound {
            start -= 1
            width += p.advances[start]
            if width > available { break }
            if p.startsCluster[start] { best = start }
        }
        return best
    }
}

/// Where a line's glyph lands relative to the line's anchor (the first glyph's pixel column and
/// the baseline row), with the quarter-pixel phase its mask was rendered at.
struct GlyphPlacement: Equatable {
    var x: Int
    var y: Int
    var phase: Int
}

/// A line's glyph masks merged into one coverage mask for one placement of its glyphs, so the
/// line is composited with one call instead of one per glyph. Only made when no two glyph masks
/// have ink on the same pixel: each pixel of the merged mask is then the one glyph mask's value
/// or zero, and compositing a solid colour through it gives exactly the pixels of compositing
/// glyph by glyph (zero coverage leaves a pixel as it is).
final class ComposedLine {
    let pixelSize: Double
    let placements: [GlyphPlacement]
    /// Nil when glyphs overlap, the mask would be too large, or no glyph has ink.
    let mask: CoverageMask?
    /// The mask's top-left corner relative to the anchor.
    let left: Int, top: Int
    /// Some glyph has a mask (a line of spaces has none and draws nothing).
    let hasInk: Bool

    init(pixelSize: Double, placements: [GlyphPlacement], mask: CoverageMask?, left: Int, top: Int, hasInk: Bool) {
        self.pixelSize = pixelSize
        self.placements = placements
        self.mask = mask
        self.left = left
        self.top = top
        self.hasInk = hasInk
    }

    /// Merges glyph masks (each with its top-left relative to the anchor); nil when two have
    /// ink on one pixel or the mask would exceed `maxPixels`.
    static func merge(_ glyphs: [(mask: CoverageMask, x: Int, y: Int)], maxPixels: Int) -> (mask: CoverageMask, left: Int, top: Int)? {
        guard let first = glyphs.first else { return nil }
        var x0 = first.x, y0 = first.y, x1 = first.x + first.mask.width, y1 = first.y + first.mask.height
        for g in glyphs.dropFirst() {
            x0 = min(x0, g.x); y0 = min(y0, g.y)
            x1 = max(x1, g.x + g.mask.width); y1 = max(y1, g.y + g.mask.height)
        }
        guard (x1 - x0) * (y1 - y0) <= maxPixels else { return nil }
        let merged = CoverageMask(width: x1 - x0, height: y1 - y0)
        for g in glyphs {
            let w = g.mask.width
            for row in 0..<g.mask.height {
                let source = g.mask.bytes + row * g.mask.stride
                let target = merged.bytes + (g.y - y0 + row) * merged.stride + (g.x - x0)
                for i in 0..<w where source[i] != 0 {
                    if target[i] != 0 { return nil }
                    target[i] = source[i]
                }
            }
        }
        return (merged, x0, y0)
    }
}

/// The composed lines of one layout, a few placements per line (one text drawn at several
/// sub-pixel offsets), most recent first. Guarded by the text engine's lock.
final class ComposedLines {
    private var lines: [[ComposedLine]] = []
    private let placementsPerLine = 4

    func line(_ index: Int, pixelSize: Double, placements: [GlyphPlacement]) -> ComposedLine? {
        guard index < lines.count else { return nil }
        return lines[index].first { $0.pixelSize == pixelSize && $0.placements == placements }
    }

    func add(_ line: ComposedLine, at index: Int) {
        while lines.count <= index { lines.append([]) }
        if lines[index].count >= placementsPerLine { lines[index].removeLast() }
        lines[index].insert(line, at: 0)
    }
}
