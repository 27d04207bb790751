import CellKit
import Testing
@testable import CellRender

/// Attributed text of several runs wrapped over lines, truncated and shrunk to fit, as plain
/// text is: measured and drawn by the real text engine, in self-sizing cells.
@Suite struct AttributedWrappingTests {
    static let context = AttributedRunsTests.context
    static let width = 320.0
    static let runs = AttributedText([
        .init("Lunch with "),
        .init("Alexandra and the design team", color: .systemRed, weight: .bold),
        .init(" at the café on the corner", font: .systemFont(ofSize: 13), color: .systemBlue),
        .init(" — bring the sketches", font: .systemFont(ofSize: 22)),
    ])

    static func cell(_ text: AttributedText, _ adjust: (inout TextProperties) -> Void = { _ in }) -> Cell {
        let cell = Cell(appearance: .plain, traits: .default)
        var content = cell.defaultContentConfiguration()
        content.attributedText = text
        content.image = Image(systemName: "clock")
        adjust(&content.textProperties)
        cell.contentConfiguration = content
        return cell
    }

    static func texts(_ cell: Cell) -> [TextRun] {
        var list = DisplayList()
        cell.draw(size: Size(width: width, height: cell.preferredHeight(forWidth: width, measurer: Fixtures.engine)),
                  measurer: Fixtures.engine, into: &list)
        return list.commands.compactMap { if case .text(let run) = $0 { run } else { nil } }
    }

    /// Text runs grouped by line (equal baselines), top to bottom.
    static func lines(_ texts: [TextRun]) -> [[TextRun]] {
        var lines: [(baseline: Double, runs: [TextRun])] = []
        for run in texts {
            let baseline = run.frame.minY + Fixtures.engine.measure(run.layoutRequest, width: nil).firstBaseline
            if let i = lines.firstIndex(where: { abs($0.baseline - baseline) < 1e-6 }) { lines[i].runs.append(run) }
            else { lines.append((baseline, [run])) }
        }
        return lines.sorted { $0.baseline < $1.baseline }.map(\.runs)
    }

    @Test func wrapsOverLinesEachPieceInItsRunsFontAndColour() throws {
        let cell = Self.cell(Self.runs) { $0.numberOfLines = 0 }
        let texts = Self.texts(cell)
        let lines = Self.lines(texts)
        #expect(lines.count >= 2, "\(texts.map(\.text))")
        #expect(texts.map(\.text).joined().replacingOccurrences(of: " ", with: "")
                == Self.runs.string.replacingOccurrences(of: " ", with: ""), "every character drawn once")
        let bold = texts.filter { $0.font.weight == .bold }
        let small = texts.filter { $0.font.pointSize == 13 }
        #expect(bold.allSatisfy { $0.color == Color.systemRed.resolved(with: .default) })
        #expect(small.allSatisfy { $0.color == Color.systemBlue.resolved(with: .default) })
        #expect(Set(lines.map { $0.map(\.font).contains { $0.weight == .bold || $0.pointSize == 13 } }).contains(true))
        let split = [bold, small].contains { pieces in Set(pieces.map { p in lines.firstIndex { $0.contains(p) }! }).count > 1 }
        #expect(split, "a run split across lines keeps its font and colour on both: \(lines.map { $0.map(\.text) })")
        // Each line is as tall as its tallest piece: lines stack by their own heights.
        for (upper, lower) in zip(lines, lines.dropFirst()) {
            let top = lower.map { $0.frame.minY + Fixtures.engine.measure($0.layoutRequest, width: nil).firstBaseline }.max()!
                - lower.map { Fixtures.engine.measure($0.layoutRequest, width: nil).firstBaseline }.max()!
            #expect(abs(top - upper.map(\.frame.maxY).max()!) < 1e-6, "the next line starts below the tallest piece")
            #expect(lower.allSatisfy { $0.frame.minX >= upper.map(\.frame.minX).min()! - 1e-6 }, "lines share the leading edge")
        }
        let oneLine = Self.cell(Self.runs) { $0.numberOfLines = 1 }
        #expect(cell.preferredHeight(forWidth: Self.width, measurer: Fixtures.engine)
                > oneLine.preferredHeight(forWidth: Self.width, measurer: Fixtures.engine) + 30, "the row grows with its lines")
        goldens.check(AccessoryGoldenTests.render([cell, oneLine], traits: .default), "attributed-wrapped@2x")
    }

    @Test func theLastAllowedLineEndsInAnEllipsis() throws {
        let cell = Self.cell(Self.runs) { $0.numberOfLines = 2 }
        let lines = Self.lines(Self.texts(cell))
        #expect(lines.count == 2)
        let last = try #require(lines.last?.last)
        #expect(last.lineBreakMode == .byTruncatingTail, "the engine shortens the cut piece with \"…\"")
        #expect(last.frame.maxX <= Self.width - 16 + 1e-6, "within the margins")

        let head = Self.lines(Self.texts(Self.cell(Self.runs) { $0.numberOfLines = 1; $0.lineBreakMode = .byTruncatingHead }))
        #expect(head.count == 1 && head[0].first?.lineBreakMode == .byTruncatingHead)
        #expect(head[0].last?.text.hasSuffix("sketches") == true, "head truncation keeps the end: \(head[0].map(\.text))")

        let middle = Self.lines(Self.texts(Self.cell(Self.runs) { $0.numberOfLines = 1; $0.lineBreakMode = .byTruncatingMiddle }))
        #expect(middle.count == 1)
        #expect(middle[0].first?.text == "Lunch with" && middle[0].last?.text.hasSuffix("sketches") == true,
                "middle truncation keeps both ends: \(middle[0].map(\.text))")
        #expect(middle[0].contains { $0.lineBreakMode == .byTruncatingTail }, "the ellipsis sits in the middle")

        let clipped = Self.lines(Self.texts(Self.cell(Self.runs) { $0.numberOfLines = 1; $0.lineBreakMode = .byClipping }))
        #expect(clipped.count == 1 && clipped[0].allSatisfy { $0.lineBreakMode == .byClipping })

        let wrapped = Self.lines(Self.texts(Self.cell(Self.runs) { $0.numberOfLines = 2; $0.lineBreakMode = .byWordWrapping }))
        #expect(wrapped.count == 2 && wrapped.joined().allSatisfy { $0.lineBreakMode == .byClipping },
                "word wrapping shows the second line as wrapped, without an ellipsis")
        goldens.check(AccessoryGoldenTests.render([cell], traits: .default), "attributed-truncated@2x")
    }

    /// A line that fits but hides the paragraphs after it still ends in "…" (head: starts).
    @Test func hiddenParagraphsStillShowTheEllipsis() throws {
        let text = AttributedText([.init("Short "), .init("first\nsecond paragraph", color: .systemRed)])
        let tail = Self.texts(Self.cell(text) { $0.numberOfLines = 1 })
        #expect(tail.map(\.text) == ["Short", " first\u{2026}"] && tail.last?.lineBreakMode == .byTruncatingTail)
        let head = Self.texts(Self.cell(text) { $0.numberOfLines = 1; $0.lineBreakMode = .byTruncatingHead })
        #expect(head.first?.text == "\u{2026}Short" && head.first?.lineBreakMode == .byTruncatingHead, "\(head.map(\.text))")
        let all = Self.texts(Self.cell(text))
        #expect(Self.lines(all).count == 2 && all.last?.text == "second paragraph", "a line feed breaks the line")
    }

    /// Pieces run in the text's own direction (its first letter's script, as the text engine
    /// takes it), lines align in the layout's: Latin in a right-to-left list reads left to right,
    /// flush right; Hebrew runs right to left.
    @Test func piecesFollowTheTextsDirectionAndLinesTheLayouts() throws {
        var traits = TraitCollection.default
        traits.layoutDirection = .rightToLeft
        func texts(_ text: AttributedText) -> [TextRun] {
            let cell = Cell(appearance: .plain, traits: traits)
            var content = cell.defaultContentConfiguration()
            content.attributedText = text
            cell.contentConfiguration = content
            var list = DisplayList()
            cell.draw(size: Size(width: Self.width, height: 44), measurer: Fixtures.engine, into: &list)
            return list.commands.compactMap { if case .text(let run) = $0 { run } else { nil } }
        }
        let latin = texts(AttributedText([.init("Due "), .init("today", color: .systemRed)]))
        #expect(latin.count == 2 && latin[0].frame.maxX <= latin[1].frame.minX + 1e-6, "left to right")
        #expect(abs(latin[1].frame.maxX - (Self.width - 16)) < 1e-6, "flush with the leading (right) margin")
        let hebrew = texts(AttributedText([.init("שלום "), .init("עולם", color: .systemRed)]))
        #expect(hebrew.count == 2 && hebrew[1].frame.maxX <= hebrew[0].frame.minX + 1e-6, "right to left")
        #expect(abs(hebrew[0].frame.maxX - (Self.width - 16)) < 1e-6)
    }

    @Test func shrinkingToFitScalesEveryRunByOneFactor() throws {
        let cell = Self.cell(Self.runs) {
            $0.numberOfLines = 1
            $0.adjustsFontSizeToFitWidth = true
            $0.minimumScaleFactor = 0.3
        }
        let texts = Self.texts(cell)
        #expect(texts.count == 4, "\(texts.map(\.text))")
        let factors = zip(texts.map(\.font.pointSize), [17.0, 17, 13, 22]).map { $0 / $1 }
        #expect(factors.allSatisfy { abs($0 - factors[0]) < 1e-9 } && factors[0] < 0.9, "one factor: \(factors)")
        #expect(texts.allSatisfy { $0.lineBreakMode == .byClipping }, "the shrunk text fits: nothing is cut")
        let unshrunk = Self.cell(Self.runs) { $0.numberOfLines = 1 }
        #expect(cell.preferredHeight(forWidth: Self.width, measurer: Fixtures.engine)
                == unshrunk.preferredHeight(forWidth: Self.width, measurer: Fixtures.engine), "the row keeps its height")

        let floor = Self.cell(Self.runs) {
            $0.numberOfLines = 1
            $0.adjustsFontSizeToFitWidth = true
            $0.minimumScaleFactor = 0.9
        }
        let limited = Self.texts(floor)
        #expect(abs(limited[0].font.pointSize - 17 * 0.9) < 1e-9, "never below minimumScaleFactor")
        #expect(limited.last?.lineBreakMode == .byTruncatingTail, "what still does not fit is truncated")
        goldens.check(AccessoryGoldenTests.render([cell, floor, unshrunk], traits: .default), "attributed-shrunk@2x")
    }
}
