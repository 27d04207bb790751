import CellKit
import Testing
@testable import CellRender

@Suite struct TextEngineTests {
    let engine = Fixtures.engine
    let body = Font.systemFont(ofSize: 17)

    private func measure(_ text: String, font: Font? = nil, width: Double? = nil, lines: Int = 0,
                         mode: LineBreakMode = .byTruncatingTail) -> TextMetrics {
        engine.measure(TextLayoutRequest(text: text, font: font ?? body, numberOfLines: lines, lineBreakMode: mode), width: width)
    }

    @Test func widthGrowsWithText() {
        let short = measure("Inbox"), long = measure("Inbox and everything else")
        #expect(short.size.width > 20)
        #expect(long.size.width > short.size.width + 50)
        #expect(short.lineCount == 1 && long.lineCount == 1)
        #expect(short.size.height == long.size.height)
    }

    @Test func boldAndLargerTextIsWider() {
        let regular = measure("Settings")
        #expect(measure("Settings", font: .systemFont(ofSize: 17, weight: .bold)).size.width > regular.size.width)
        #expect(measure("Settings", font: .systemFont(ofSize: 34)).size.width > 1.9 * regular.size.width)
    }

    @Test func wrapsAtWordsWithinWidth() {
        let text = "The quick brown fox jumps over the lazy dog"
        let oneLine = measure(text)
        let wrapped = measure(text, width: 120)
        #expect(wrapped.lineCount >= 3)
        #expect(wrapped.size.width <= 120)
        #expect(wrapped.size.height == Double(wrapped.lineCount) * wrapped.lineHeight)
        #expect(wrapped.lastBaseline == wrapped.firstBaseline + Double(wrapped.lineCount - 1) * wrapped.lineHeight)
        #expect(oneLine.size.width > 300)
        // Words stay whole: every line of a word-wrapped layout ends before a space or at the end.
        let lines = engine.withLock { engine.layout(TextLayoutRequest(text: text, font: body, lineBreakMode: .byWordWrapping), width: 120).lines }
        for line in lines.dropLast() {
            let piece = line.pieces[0]
            #expect(piece.range.upperBound == piece.run.count || piece.run.isSpace[piece.range.upperBound])
        }
    }

    @Test func numberOfLinesLimitsHeight() {
        let text = "The quick brown fox jumps over the lazy dog again and again"
        let all = measure(text, width: 100)
        let two = measure(text, width: 100, lines: 2)
        #expect(all.lineCount > 2)
        #expect(two.lineCount == 2)
        #expect(two.size.height == 2 * two.lineHeight)
    }

    @Test(arguments: [LineBreakMode.byTruncatingTail, .byTruncatingHead, .byTruncatingMiddle])
    func truncationAddsEllipsisWithinWidth(mode: LineBreakMode) throws {
        let text = "Supercalifragilistic expialidocious words"
        let metrics = measure(text, width: 150, lines: 1, mode: mode)
        #expect(metrics.lineCount == 1)
        #expect(metrics.size.width <= 150)
        let line = try #require(engine.withLock { engine.layout(TextLayoutRequest(text: text, font: body, numberOfLines: 1, lineBreakMode: mode), width: 150).lines.first })
        let ellipsisIndex = try #require(line.pieces.firstIndex { $0.run.count == 1 && $0.range == 0..<1 && $0.run.glyphs[0] == engine.withLock { engine.face(for: body).glyph(for: "\u{2026}") } })
        switch mode {
        case .byTruncatingHead: #expect(ellipsisIndex == 0)
        case .byTruncatingTail: #expect(ellipsisIndex == line.pieces.count - 1)
        default: #expect(ellipsisIndex == 1 && line.pieces.count == 3)
        }
        #expect(line.width <= 150 && line.width > 120, "a truncated line should use most of the width")
    }

    @Test func textThatFitsIsNotTruncated() {
        let line = engine.withLock { engine.layout(TextLayoutRequest(text: "Short", font: body, numberOfLines: 1), width: 200).lines }
        #expect(line.count == 1 && line[0].pieces.count == 1)
    }

    @Test func clippingKeepsMeasuredWidthWithinConstraint() {
        let m = measure("An extremely long single line that must be clipped", width: 80, lines: 1, mode: .byClipping)
        #expect(m.size.width == 80)
        #expect(m.lineCount == 1)
    }

    @Test func charWrappingBreaksInsideWords() {
        let word = "Antidisestablishmentarianism"
        let chars = measure(word, width: 90, mode: .byCharWrapping)
        #expect(chars.lineCount >= 3)
        #expect(chars.size.width <= 90)
    }

    @Test func rightToLeftNaturalAlignmentHugsTheRightEdge() throws {
        let frame = Rect(x: 0, y: 0, width: 300, height: 30)
        func ink(_ text: String, _ direction: LayoutDirection) throws -> PixelRect {
            let run = TextRun(text: text, font: body, color: .black, frame: frame, alignment: .natural, layoutDirection: direction)
            return try #require(Fixtures.inkBounds(Fixtures.render(DisplayList([.text(run)]), size: Size(width: 300, height: 30))))
        }
        let ltr = try ink("Hello", .leftToRight)
        let rtl = try ink("Hello", .rightToLeft)
        let hebrew = try ink("שלום עולם", .rightToLeft)
        #expect(ltr.x < 4)
        #expect(rtl.maxX > 296 && rtl.x > 200)
        #expect(hebrew.maxX > 296)
        #expect(rtl.width == ltr.width)
    }

    @Test func hebrewShapesRightToLeft() {
        let layout = engine.withLock { engine.layout(TextLayoutRequest(text: "שלום", font: body), width: nil) }
        #expect(layout.lines[0].isRightToLeft)
        #expect(layout.lines[0].width > 20)
    }

    @Test(arguments: [1, 2, 3])
    func measureEqualsDrawnExtent(scale: Int) throws {
        let text = "Wrapped text measures what it draws"
        let metrics = measure(text, width: 140)
        let run = TextRun(text: text, font: body, color: .black,
                          frame: Rect(x: 10, y: 10, width: 140, height: metrics.size.height), alignment: .left,
                          lineBreakMode: .byWordWrapping)
        let image = Fixtures.render(DisplayList([.text(run)]), size: Size(width: 200, height: 120), scale: scale)
        let ink = try #require(Fixtures.inkBounds(image))
        let s = Double(scale)
        // Ink lies inside the measured box (glyph side bearings are a point or two).
        #expect(Double(ink.x) >= 10 * s - 1)
        #expect(Double(ink.maxX) <= (10 + metrics.size.width + 1) * s)
        #expect(Double(ink.maxX) >= (10 + metrics.size.width - 3) * s)
        #expect(Double(ink.y) >= 10 * s)
        #expect(Double(ink.maxY) <= (10 + metrics.size.height) * s + 1)
        // The drawn lines are as many as measured: ink spans more than lineCount-1 line heights.
        #expect(Double(ink.height) > Double(metrics.lineCount - 1) * metrics.lineHeight * s)
    }

    @Test func concurrentMeasuringAgreesWithSerialMeasuring() async throws {
        let texts = (0..<40).map { "Row \($0) with words that wrap at some width \(String(repeating: "x", count: $0 % 7))" }
        // Fresh engines: the concurrent one shapes and caches from many threads at once.
        let shared = try TextEngine(), font = body
        let serial = try TextEngine()
        let expected = texts.map { serial.measure(TextLayoutRequest(text: $0, font: font), width: 120) }
        let concurrent = await withTaskGroup(of: (Int, TextMetrics).self) { group in
            for (i, text) in texts.enumerated() {
                group.addTask { (i, shared.measure(TextLayoutRequest(text: text, font: font), width: 120)) }
            }
            var results = [TextMetrics?](repeating: nil, count: texts.count)
            for await (i, metrics) in group { results[i] = metrics }
            return results
        }
        #expect(concurrent == expected.map { Optional($0) })
    }

    @Test func enginesCanBeCreatedUsedAndDestroyedRepeatedly() throws {
        var inked: [Int] = []
        var survivingRun: ShapedRun?
        for i in 0..<6 {
            // Each engine opens regular and bold faces, shapes, rasterises text and a symbol,
            // then goes away with its compositor: faces and caches before FreeType itself.
            let engine = try TextEngine()
            let compositor = Compositor(viewport: Size(width: 160, height: 40), scale: 2, background: .white,
                                        textEngine: engine)
            compositor.setLayer(1, frame: Rect(x: 0, y: 0, width: 160, height: 40), content: DisplayList([
                .text(TextRun(text: "Engine \(i)", font: .systemFont(ofSize: 17, weight: i.isMultiple(of: 2) ? .regular : .bold),
                              color: .black, frame: Rect(x: 4, y: 4, width: 120, height: 24))),
                .symbol(name: "star.fill", frame: Rect(x: 130, y: 8, width: 20, height: 20), pointSize: 17,
                        weight: .regular, color: .black),
            ]))
            _ = compositor.renderFrame()
            inked.append(Fixtures.inkBounds(compositor.snapshot())?.width ?? 0)
            // A shaped run kept past its engine keeps its face, and with it FreeType, alive.
            survivingRun = engine.withLock { engine.layout(TextLayoutRequest(text: "kept", font: body), width: nil) }
                .lines.first?.pieces.first?.run
        }
        #expect(inked.allSatisfy { $0 > 0 })
        #expect(inked[0] == inked[2] && inked[1] == inked[3])
        #expect(survivingRun?.face.glyph(for: "k") != nil)
    }

    @Test func measuringIsDeterministicAndCached() {
        let a = measure("Determinism", width: 50), b = measure("Determinism", width: 50)
        #expect(a == b)
    }

    @Test func unknownFamilyFallsBackToPinnedFace() {
        let fallback = measure("Fallback", font: Font(family: "No Such Family", pointSize: 17))
        #expect(fallback == measure("Fallback"))
    }

    @Test func missingFamilyIsAClearError() {
        #expect(throws: FontError.self) { try TextEngine(family: "No Such Family Anywhere") }
        do { _ = try TextEngine(family: "No Such Family Anywhere") } catch {
            #expect(error.description.contains("No Such Family Anywhere"))
        }
    }
}
