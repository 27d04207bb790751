import CellKit
import Testing
@testable import CellRender

/// Attributed text of several runs, measured and drawn by the real text engine: each run in its
/// own font, weight and colour on one line.
@Suite struct AttributedRunsTests {
    static let context = LayoutContext(traits: .default, textMeasurer: Fixtures.engine)
    static let runs = AttributedText([
        .init("Due "),
        .init("today", color: .systemRed, weight: .bold),
        .init(" at 9", font: .systemFont(ofSize: 13), color: .systemBlue),
    ])

    static func configuration(_ text: AttributedText) -> ListContentConfiguration {
        var c = ListContentConfiguration.cell()
        c.attributedText = text
        return c
    }

    static func width(_ text: String, _ font: Font) -> Double {
        Fixtures.engine.measure(TextLayoutRequest(text: text, font: font, numberOfLines: 1, lineBreakMode: .byClipping), width: nil)
            .size.width
    }

    /// A value cell lays text and secondary text side by side at their measured widths.
    @Test func measuresTheSumOfItsRunsEachInItsOwnFont() throws {
        var c = ListContentConfiguration.valueCell()
        c.attributedText = Self.runs
        c.secondaryText = "3"
        let layout = ListContentLayout(configuration: c, width: 320, context: Self.context)
        let body = c.textProperties.font
        var bold = body
        bold.weight = .bold
        let expected = Self.width("Due", body) + Self.width(" today", bold) + Self.width(" at 9", .systemFont(ofSize: 13))
        #expect(layout.isSideBySide)
        let frame = try #require(layout.textFrame)
        #expect(abs(frame.width - expected) < 1e-9, "\(frame.width) vs \(expected)")
        c.attributedText = AttributedText(Self.runs.string)
        let plain = ListContentLayout(configuration: c, width: 320, context: Self.context)
        let plainFrame = try #require(plain.textFrame)
        #expect(abs(plainFrame.width - Self.width(Self.runs.string, body)) < 1e-9, "plain text is one run in one font")
        #expect(layout.size.height == plain.size.height, "one line, as tall as a plain row")
    }

    @Test func drawsEachRunInItsColourAndFont() throws {
        let c = Self.configuration(Self.runs)
        var list = DisplayList()
        ListContentView(configuration: c).draw(in: Rect(x: 0, y: 0, width: 320, height: 44), context: Self.context, into: &list)
        let texts = list.commands.compactMap { if case .text(let run) = $0 { run } else { nil } }
        #expect(texts.map(\.text) == ["Due", " today", " at 9"], "a run's trailing space starts the next run, where it has width")
        #expect(texts.map(\.color) == [Color.label, .systemRed, .systemBlue].map { $0.resolved(with: .default) })
        #expect(texts.map(\.font.weight) == [.regular, .bold, .regular])
        #expect(texts.map(\.font.pointSize) == [17, 17, 13])
        #expect(texts[0].frame.maxX == texts[1].frame.minX && texts[1].frame.maxX == texts[2].frame.minX, "side by side")
        let baselines = texts.map { $0.frame.minY + Fixtures.engine.measure($0.layoutRequest, width: nil).firstBaseline }
        #expect(Set(baselines).count == 1, "baselines aligned: \(baselines)")

        let image = Fixtures.render(list, size: Size(width: 320, height: 44), scale: 2)
        for (run, wanted) in zip(texts, [(0, 0, 0), (255, 59, 48), (0, 122, 255)]) {
            let box = PixelRect(x: Int(run.frame.minX * 2), y: Int(run.frame.minY * 2), width: Int(run.frame.width * 2),
                                height: Int(run.frame.height * 2))
            var found = false
            for y in box.y..<box.y + box.height { for x in box.x..<box.x + box.width {
                let p = image.rgba(x: x, y: y)
                if (Int(p.red), Int(p.green), Int(p.blue)) == wanted { found = true }
            } }
            #expect(found, "\"\(run.text)\" has pixels of its own colour \(wanted)")
        }
        goldens.check(image, "attributed-runs@2x")
    }

    @Test func aRunPastTheFrameEndsInAnEllipsisAndTheRestIsNotDrawn() {
        var c = Self.configuration(Self.runs)
        c.textProperties.numberOfLines = 1
        var list = DisplayList()
        ListContentView(configuration: c).draw(in: Rect(x: 0, y: 0, width: 90, height: 44), context: Self.context, into: &list)
        let texts = list.commands.compactMap { if case .text(let run) = $0 { run } else { nil } }
        #expect(texts.count == 2, "the third run lies past the frame")
        #expect(texts.last?.lineBreakMode == .byTruncatingTail)
        #expect((texts.last?.frame.maxX ?? 0) <= 90 - 16 + 1e-9, "within the margins")
    }

    @Test func oneRunKeepsThePlainTextPath() {
        var list = DisplayList()
        let c = Self.configuration(AttributedText("Only", font: .systemFont(ofSize: 20), color: .systemGreen))
        ListContentView(configuration: c).draw(in: Rect(x: 0, y: 0, width: 320, height: 44), context: Self.context, into: &list)
        let texts = list.commands.compactMap { if case .text(let run) = $0 { run } else { nil } }
        #expect(texts.count == 1 && texts[0].font.pointSize == 20 && texts[0].color == Color.systemGreen.resolved(with: .default))
    }
}
