/// The characters of attributed text with several runs, each knowing the run it belongs to, so
/// lines can break anywhere in the text while every piece keeps its run's font and colour.
/// Widths come from the text measurer one run's piece at a time, in that run's font.
///
/// Spaces that end a run move to the start of the next one: the text engine lets a line's
/// trailing spaces hang (no width, not drawn), so inside a line they must lead a piece to be
/// measured and drawn; they are then in the following run's font.
struct StyledCharacters {
    var characters: [Character] = []
    /// Per character, the index of its run in `fonts` / `colors`.
    var owners: [Int] = []
    var fonts: [Font] = []
    var colors: [Color?] = []
    /// The text's own direction, from its first letter (as the text engine takes a paragraph's
    /// direction from its script): pieces are ordered in it, lines aligned in the layout's.
    /// nil when no letter says (the layout direction then orders them).
    var isRightToLeft: Bool?
    let direction: LayoutDirection
    let measurer: any TextMeasuring

    /// The characters of `text` when it has several runs; nil for none or one (laid out as plain text).
    init?(several text: AttributedText?, base: Font, properties p: TextProperties, direction: LayoutDirection,
          measurer: any TextMeasuring) {
        guard let text, text.hasSeveralRuns else { return nil }
        self.direction = direction
        self.measurer = measurer
        var carried = ""
        for (i, run) in text.runs.enumerated() {
            var shown = carried + p.transform.apply(run.text)
            carried = ""
            if i < text.runs.count - 1 {
                while shown.last == " " { shown.removeLast(); carried += " " }
            }
            guard !shown.isEmpty else { continue }
            let owner = fonts.count
            fonts.append(run.font(over: base))
            colors.append(run.color)
            for character in shown {
                characters.append(character)
                owners.append(owner)
            }
        }
        isRightToLeft = characters.lazy.flatMap(\.unicodeScalars).compactMap(Self.direction(of:)).first
    }

    /// True for a letter of a right-to-left script (Hebrew, Arabic, Syriac, Thaana, N'Ko and
    /// their presentation forms), false for any other letter, nil for what is not a letter.
    private static func direction(of scalar: Unicode.Scalar) -> Bool? {
        switch scalar.value {
        case 0x0590...0x08FF, 0xFB1D...0xFDFF, 0xFE70...0xFEFF, 0x10800...0x10FFF, 0x1E800...0x1EFFF: return true
        default: return scalar.properties.isAlphabetic ? false : nil
        }
    }

    var count: Int { characters.count }

    /// Every run's font scaled by `factor` (fit-to-width shrinks all runs alike).
    func scaled(by factor: Double) -> StyledCharacters {
        var copy = self
        for i in copy.fonts.indices { copy.fonts[i].pointSize *= factor }
        return copy
    }

    /// `range` split where the run changes: one piece per run, in logical order.
    func pieces(_ range: Range<Int>) -> [(range: Range<Int>, owner: Int)] {
        var out: [(range: Range<Int>, owner: Int)] = []
        var start = range.lowerBound
        while start < range.upperBound {
            var end = start + 1
            while end < range.upperBound && owners[end] == owners[start] { end += 1 }
            out.append((start..<end, owners[start]))
            start = end
        }
        return out
    }

    /// One line of one run's characters, measured in its font, unconstrained.
    func metrics(_ range: Range<Int>, owner: Int) -> TextMetrics {
        measurer.measure(request(String(characters[range]), font: fonts[owner]), width: nil)
    }

    /// One line of `text` in `font`, in the text's layout direction.
    func request(_ text: String, font: Font, lineBreakMode: LineBreakMode = .byClipping) -> TextLayoutRequest {
        TextLayoutRequest(text: text, font: font, numberOfLines: 1, lineBreakMode: lineBreakMode,
                          layoutDirection: direction)
    }

    /// The width of `range` on one line, piece by piece (trailing spaces hang, as in the engine).
    func width(_ range: Range<Int>) -> Double {
        let trimmed = trimmingTrailingSpaces(range)
        return pieces(trimmed).reduce(0) { $0 + metrics($1.range, owner: $1.owner).size.width }
    }

    func trimmingTrailingSpaces(_ range: Range<Int>) -> Range<Int> {
        var end = range.upperBound
        while end > range.lowerBound && characters[end - 1] == " " { end -= 1 }
        return range.lowerBound..<end
    }

    /// The paragraphs: ranges between line feeds.
    var paragraphs: [Range<Int>] {
        var out: [Range<Int>] = []
        var start = 0
        for i in characters.indices where characters[i] == "\n" {
            out.append(start..<i)
            start = i + 1
        }
        out.append(start..<count)
        return out
    }

    /// The end of the longest prefix of `range` that fits in `limit` points (at least one
    /// character, as a line never stays empty). The prefix grows by doubling before it is
    /// bisected, so a line costs measurements of about its own length, however long the text.
    func fittingEnd(_ range: Range<Int>, limit: Double) -> Int {
        guard range.count > 1 else { return range.upperBound }
        var fits = range.lowerBound + 1, step = 16
        while fits < range.upperBound {
            let next = min(range.upperBound, fits + step)
            guard width(range.lowerBound..<next) <= limit else {
                return bisect(fits, next - 1) { width(range.lowerBound..<$0) <= limit }
            }
            fits = next
            step *= 2
        }
        return fits
    }

    /// The start of the longest suffix of `range` that fits in `limit` points (may be empty),
    /// grown by doubling from the end as `fittingEnd` grows a prefix.
    func fittingStart(_ range: Range<Int>, limit: Double) -> Int {
        var fits = range.upperBound, step = 16
        while fits > range.lowerBound {
            let next = max(range.lowerBound, fits - step)
            guard width(next..<range.upperBound) <= limit else {
                // The smallest start that fits: bisect on the distance from the end.
                let distance = bisect(range.upperBound - fits, range.upperBound - next - 1) {
                    width((range.upperBound - $0)..<range.upperBound) <= limit
                }
                return range.upperBound - distance
            }
            fits = next
            step *= 2
        }
        return fits
    }

    /// The largest `n` in `low...high` for which `fits(n)` holds, given that it holds for `low`
    /// and that once it fails it fails for every larger `n`.
    private func bisect(_ low: Int, _ high: Int, _ fits: (Int) -> Bool) -> Int {
        var low = low, high = high
        while low < high {
            let mid = (low + high + 1) / 2
            if fits(mid) { low = mid } else { high = mid - 1 }
        }
        return low
    }
}
