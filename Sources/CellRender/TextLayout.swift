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
