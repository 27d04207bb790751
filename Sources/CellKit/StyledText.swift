/// Attributed text of several runs laid out in lines, as plain text is: greedy breaking at spaces
/// (or between characters for `byCharWrapping`, and inside a word longer than the line), at most
/// `numberOfLines` lines, the last one clipped or shortened with "…" at its head, middle or tail
/// by the line break mode. A run split across lines keeps its font, weight and colour on each;
/// on a line, pieces sit side by side with their baselines aligned, and the line is as tall as
/// its tallest piece. Recorded as one one-line `TextRun` per piece, so the compositor draws each
/// in its own face and colour.
struct StyledText: Hashable, Sendable {
    struct Piece: Hashable, Sendable {
        var text: String
        var font: Font
        var color: Color?
        /// Logical x from the line's start.
        var x: Double
        /// The frame's width; `advance` is how far the next piece starts (less than the frame for
        /// a piece the text engine shortens to less than its frame).
        var width: Double
        var advance: Double
        /// The piece's baseline from its top, and its one-line height.
        var ascent: Double
        var height: Double
        /// `.byClipping` for a whole piece or one cut at the frame; a truncating mode for the
        /// piece the text engine shortens with "…".
        var lineBreakMode: LineBreakMode
    }

    struct Line: Hashable, Sendable {
        var pieces: [Piece] = []
        var width = 0.0
        /// From the text's top to the line's top, and the line's baseline from its top.
        var top = 0.0
        var ascent = 0.0
        var height = 0.0
    }

    var lines: [Line]
    var metrics: TextMetrics
    /// Pieces run right to left on a line (the text's direction; see `StyledCharacters`).
    var isRightToLeft: Bool

    /// `characters` laid out in lines no wider than `width` (nil = one line per paragraph), by
    /// `numberOfLines` (0 = unlimited) and `lineBreakMode`, as `TextEngine` lays out plain text.
    init(_ characters: StyledCharacters, width: Double?, numberOfLines: Int, lineBreakMode mode: LineBreakMode) {
        let c = characters
        isRightToLeft = c.isRightToLeft ?? (c.direction == .rightToLeft)
        let limit = numberOfLines > 0 ? numberOfLines : Int.max
        let paragraphs = c.paragraphs
        var lines: [Line] = []
        paragraphLoop: for (index, paragraph) in paragraphs.enumerated() {
            var start = paragraph.lowerBound
            repeat {
                let end = Self.lineEnd(c, from: start, in: paragraph, width: width, mode: mode)
                var next = end
                while next < paragraph.upperBound && c.characters[next] == " " { next += 1 }
                let moreFollows = next < paragraph.upperBound || index < paragraphs.count - 1
                if lines.count == limit - 1 && moreFollows {
                    lines.append(Self.lastLine(c, rest: start..<paragraph.upperBound, wrapped: start..<end, width: width,
                                               mode: mode))
                    break paragraphLoop
                }
                lines.append(Self.line(c, start..<end))
                start = next
            } while start < paragraph.upperBound
        }
        var top = 0.0
        for i in lines.indices {
            lines[i].top = top
            top += lines[i].height
        }
        self.lines = lines
        let widest = lines.map(\.width).max() ?? 0
        metrics = TextMetrics(size: Size(width: width.map { min($0, widest) } ?? widest, height: top),
                              lineCount: max(1, lines.count), firstBaseline: lines.first?.ascent ?? 0,
                              lastBaseline: (lines.last?.top ?? 0) + (lines.last?.ascent ?? 0),
                              lineHeight: lines.first?.height ?? 0)
    }

    /// Where the line from `start` ends: the longest prefix that fits, moved back to the last
    /// space in it unless wrapping by characters or one word fills the line.
    private static func lineEnd(_ c: StyledCharacters, from start: Int, in paragraph: Range<Int>, width: Double?,
                                mode: LineBreakMode) -> Int {
        guard let width, start < paragraph.upperBound else { return paragraph.upperBound }
        var end = c.fittingEnd(start..<paragraph.upperBound, limit: width + 1e-6)
        if end < paragraph.upperBound && mode != .byCharWrapping && c.characters[end] != " " {
            var space = end
            while space > start && c.characters[space - 1] != " " { space -= 1 }
            if space > start { end = space }
        }
        return end
    }

    /// A line of whole pieces (its trailing spaces hang).
    private static func line(_ c: StyledCharacters, _ range: Range<Int>) -> Line {
        let trimmed = c.trimmingTrailingSpaces(range)
        var pieces = c.pieces(trimmed).map { piece(c, $0.range, owner: $0.owner) }
        if pieces.isEmpty {
            // An empty line is as tall as the font of the run it sits in.
            let owner = c.owners.isEmpty ? 0 : c.owners[min(range.lowerBound, c.count - 1)]
            let m = c.measurer.measure(c.request("", font: c.fonts.isEmpty ? Font(pointSize: 0) : c.fonts[owner]), width: nil)
            return finished([], ascent: m.firstBaseline, height: m.size.height)
        }
        placed(&pieces)
        return finished(pieces)
    }

    private static func piece(_ c: StyledCharacters, _ range: Range<Int>, owner: Int) -> Piece {
        piece(c, String(c.characters[range]), font: c.fonts[owner], color: c.colors[owner])
    }

    /// `text` in `font` on one line, in a frame as wide as the text, or `frameWidth` when narrower.
    private static func piece(_ c: StyledCharacters, _ text: String, font: Font, color: Color?, frameWidth: Double? = nil,
                              mode: LineBreakMode = .byClipping) -> Piece {
        let m = c.measurer.measure(c.request(text, font: font), width: nil)
        let width = min(frameWidth ?? m.size.width, m.size.width)
        return Piece(text: text, font: font, color: color, x: 0, width: width, advance: width, ascent: m.firstBaseline,
                     height: m.size.height, lineBreakMode: mode)
    }

    /// Gives pieces their x, one after another.
    private static func placed(_ pieces: inout [Piece]) {
        var x = 0.0
        for i in pieces.indices {
            pieces[i].x = x
            x += pieces[i].advance
        }
    }

    private static func finished(_ pieces: [Piece], ascent: Double? = nil, height: Double? = nil) -> Line {
        let top = ascent ?? pieces.map(\.ascent).max() ?? 0
        let below = height.map { $0 - top } ?? pieces.map { $0.height - $0.ascent }.max() ?? 0
        return Line(pieces: pieces, width: pieces.reduce(0) { $0 + $1.advance }, ascent: top, height: top + below)
    }

    /// The last visible line when more text follows: for the wrapping modes the line as
    /// wrapped; else the rest of the paragraph on one line, cut at the frame (clipping) or
    /// shortened with "…" at its tail, head or middle.
    private static func lastLine(_ c: StyledCharacters, rest: Range<Int>, wrapped: Range<Int>, width: Double?,
                                 mode: LineBreakMode) -> Line {
        guard let width, mode != .byWordWrapping, mode != .byCharWrapping else { return line(c, wrapped) }
        let rest = c.trimmingTrailingSpaces(rest)
        let parts = c.pieces(rest)
        var pieces: [Piece] = []
        // Whether a piece was shortened; if none was, the text hidden below still gets its "…".
        var cut = false
        switch mode {
        case .byTruncatingHead:
            var used = 0.0
            for (range, owner) in parts.reversed() {
                let whole = piece(c, range, owner: owner)
                let available = width - used
                if whole.width > available + 1e-6 {
                    if available > 0 {
                        pieces.append(piece(c, whole.text, font: whole.font, color: whole.color, frameWidth: available, mode: mode))
                        cut = true
                    }
                    break
                }
                pieces.append(whole)
                used += whole.width
            }
            pieces.reverse()
        case .byTruncatingMiddle:
            let half = width / 2
            var used = 0.0, headEnd = rest.lowerBound
            for (range, owner) in parts {
                let whole = piece(c, range, owner: owner)
                if used + whole.width > half + 1e-6 {
                    let available = half - used
                    let shown = c.measurer.measure(c.request(whole.text, font: whole.font, lineBreakMode: .byTruncatingTail),
                                                   width: available).size.width
                    var shortened = piece(c, whole.text, font: whole.font, color: whole.color, frameWidth: available,
                                          mode: .byTruncatingTail)
                    shortened.advance = min(available, shown)
                    pieces.append(shortened)
                    used += shortened.advance
                    headEnd = range.upperBound
                    cut = true
                    break
                }
                pieces.append(whole)
                used += whole.width
                headEnd = range.upperBound
            }
            var tailStart = c.fittingStart(headEnd..<rest.upperBound, limit: width - used)
            while tailStart < rest.upperBound && c.characters[tailStart] == " " { tailStart += 1 }
            pieces += c.pieces(tailStart..<rest.upperBound).map { piece(c, $0.range, owner: $0.owner) }
        default:
            // Tail truncation and clipping: whole pieces while they fit, then the one the frame cuts.
            var used = 0.0
            for (range, owner) in parts {
                let whole = piece(c, range, owner: owner)
                let available = width - used
                guard available > 0 else { break }
                if whole.width > available + 1e-6 {
                    pieces.append(piece(c, whole.text, font: whole.font, color: whole.color, frameWidth: available,
                                        mode: mode == .byClipping ? .byClipping : .byTruncatingTail))
                    cut = true
                    break
                }
                pieces.append(whole)
                used += whole.width
            }
        }
        if !cut && mode != .byClipping && !pieces.isEmpty {
            // Everything shown fits, but text below is hidden: the line still shows "…", in the
            // font of the piece it joins, shortening that piece if it must.
            if mode == .byTruncatingHead {
                let first = pieces[0]
                let after = pieces.dropFirst().reduce(0) { $0 + $1.advance }
                pieces[0] = piece(c, "\u{2026}" + first.text, font: first.font, color: first.color,
                                  frameWidth: width - after, mode: mode)
            } else {
                let last = pieces[pieces.count - 1]
                let before = pieces.dropLast().reduce(0) { $0 + $1.advance }
                pieces[pieces.count - 1] = piece(c, last.text + "\u{2026}", font: last.font, color: last.color,
                                                 frameWidth: width - before, mode: .byTruncatingTail)
            }
        }
        placed(&pieces)
        return finished(pieces)
    }

    /// One text run per piece inside `frame`: each line aligned in the layout direction (natural
    /// = its leading edge), its pieces ordered in the text's direction; `color` gives a piece's
    /// colour as drawn (its own, or nil for the properties').
    func textRuns(in frame: Rect, alignment: TextAlignment, direction: LayoutDirection,
                  color: (Color?) -> Color) -> [TextRun] {
        let rtl = direction == .rightToLeft
        var runs: [TextRun] = []
        for line in lines {
            let slack = max(0, frame.width - line.width)
            let left: Double
            switch alignment {
            case .center: left = slack / 2
            case .right: left = slack
            case .left: left = 0
            case .natural, .justified: left = rtl ? slack : 0
            }
            for piece in line.pieces {
                let x = isRightToLeft ? frame.minX + left + line.width - piece.x - piece.width : frame.minX + left + piece.x
                let y = frame.minY + line.top + line.ascent - piece.ascent
                runs.append(TextRun(text: piece.text, font: piece.font, color: color(piece.color),
                                    frame: Rect(x: x, y: y, width: piece.width, height: piece.height),
                                    alignment: isRightToLeft ? .right : .left,
                                    lineBreakMode: piece.lineBreakMode, numberOfLines: 1, layoutDirection: direction))
            }
        }
        return runs
    }
}
