/// Attributed text of several runs laid out on one line: each run measured in its own font
/// through the text measurer, side by side, baselines aligned. The line is as wide as its runs
/// together and as tall as its tallest run; a run that reaches past the frame ends in "…" and
/// the runs after it are not drawn; spaces between runs are drawn in the following run's font. Recorded as one `TextRun` per run, so the compositor draws
/// each in its own face and colour.
struct StyledLine {
    struct Piece {
        var text: String
        var font: Font
        var color: Color?
        var metrics: TextMetrics
    }

    var pieces: [Piece]
    var metrics: TextMetrics

    /// The line of `text` when it has several runs; nil for none or one (laid out as plain text).
    init?(several text: AttributedText?, base: Font, properties p: TextProperties, direction: LayoutDirection,
          measurer: any TextMeasuring) {
        guard let text, text.hasSeveralRuns else { return nil }
        self.init(text, base: base, properties: p, direction: direction, measurer: measurer)
    }

    init(_ text: AttributedText, base: Font, properties p: TextProperties, direction: LayoutDirection,
         measurer: any TextMeasuring) {
        var pieces: [Piece] = []
        var width = 0.0, ascent = 0.0, descent = 0.0, lineHeight = 0.0
        // The text engine lets a line's trailing spaces hang (no width, not drawn), so spaces
        // that end a run start the next one instead, in that run's font.
        var carried = ""
        for (i, run) in text.runs.enumerated() {
            var shown = carried + p.transform.apply(run.text)
            carried = ""
            if i < text.runs.count - 1 {
                while shown.last == " " { shown.removeLast(); carried += " " }
            }
            guard !shown.isEmpty else { continue }
            let font = run.font(over: base)
            let m = measurer.measure(TextLayoutRequest(text: shown, font: font, numberOfLines: 1, lineBreakMode: .byClipping,
                                                       layoutDirection: direction), width: nil)
            pieces.append(Piece(text: shown, font: font, color: run.color, metrics: m))
            width += m.size.width
            ascent = max(ascent, m.firstBaseline)
            descent = max(descent, m.size.height - m.firstBaseline)
            lineHeight = max(lineHeight, m.lineHeight)
        }
        self.pieces = pieces
        metrics = TextMetrics(size: Size(width: width, height: ascent + descent), lineCount: 1, firstBaseline: ascent,
                              lastBaseline: ascent, lineHeight: lineHeight)
    }

    /// The line's metrics when it may be `width` wide at most.
    func metrics(width: Double?) -> TextMetrics {
        var m = metrics
        if let width { m.size.width = min(m.size.width, width) }
        return m
    }

    /// One text run per piece inside `frame`, placed from the aligned start in the layout
    /// direction; `color` gives a piece's colour as drawn (its own, or nil for the properties').
    func textRuns(in frame: Rect, alignment: TextAlignment, direction: LayoutDirection,
                  color: (Color?) -> Color) -> [TextRun] {
        let total = metrics.size.width
        let slack = max(0, frame.width - total)
        let rtl = direction == .rightToLeft
        let lead: Double
        switch alignment {
        case .center: lead = slack / 2
        case .right: lead = rtl ? 0 : slack
        case .left: lead = rtl ? slack : 0
        case .natural, .justified: lead = 0
        }
        var runs: [TextRun] = []
        var used = lead
        for piece in pieces {
            let available = frame.width - used
            guard available > 0 else { break }
            let cut = piece.metrics.size.width > available + 1e-6
            let width = cut ? available : piece.metrics.size.width
            let x = rtl ? frame.maxX - used - width : frame.minX + used
            let y = frame.minY + metrics.firstBaseline - piece.metrics.firstBaseline
            runs.append(TextRun(text: piece.text, font: piece.font, color: color(piece.color),
                                frame: Rect(x: x, y: y, width: width, height: piece.metrics.size.height),
                                lineBreakMode: cut ? .byTruncatingTail : .byClipping, numberOfLines: 1,
                                layoutDirection: direction))
            used += width
            if cut { break }
        }
        return runs
    }
}
