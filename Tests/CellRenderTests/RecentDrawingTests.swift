import CellKit
import Testing
@testable import CellRender

/// What the rasterizer keeps from the last commands it drew (layouts and faces of text runs,
/// symbol masks, shaded masks) and translucent fills written as the one pixel they give over a
/// known opaque colour must give exactly the pixels of drawing without them.
@Suite struct RecentDrawingTests {
    static let viewport = Size(width: 120, height: 90)
    static let bounds = Rect(origin: .zero, size: viewport)

    /// More texts, fonts and symbols than the rasterizer keeps, drawn in a seeded order: each
    /// frame of a long-lived compositor equals the same list drawn by a fresh one.
    @Test(arguments: [(3, 1), (29, 3)] as [(UInt64, Int)])
    func keptLookupsGiveTheFreshPixels(seed: UInt64, scale: Int) {
        var g = SeededGenerator(state: seed)
        let texts = ["Inbox", "Drafts", "3 unsent messages", "Flagged", "12", "Archive", "Sent", "Trash", "Junk",
                     "Notes", "Reminders", "A longer line that wraps"]
        let fonts: [Font] = [.systemFont(ofSize: 17), .systemFont(ofSize: 15, weight: .bold), Font(pointSize: 13, isItalic: true)]
        let symbols = ["star", "tray", "envelope", "flag", "trash", "folder", "bell", "heart", "gear", "person"]
        let kept = Compositor(viewport: Self.viewport, scale: scale, background: .white, textEngine: Fixtures.engine)
        for step in 0..<90 {
            let text = texts[Int.random(in: 0..<texts.count, using: &g)]
            let font = fonts[Int.random(in: 0..<fonts.count, using: &g)]
            let width = [60.0, 100.0][Int.random(in: 0...1, using: &g)]
            let symbol = symbols[Int.random(in: 0..<symbols.count, using: &g)]
            let pointSize = [17.0, 22.0][Int.random(in: 0...1, using: &g)]
            let weight: FontWeight = Bool.random(using: &g) ? .regular : .bold
            let list = DisplayList([
                .fill(Self.bounds, step % 2 == 0 ? .white : .systemGray5),
                .symbol(name: symbol, frame: Rect(x: 4, y: 4, width: 28, height: 28), pointSize: pointSize, weight: weight,
                        color: .systemBlue),
                .text(TextRun(text: text, font: font, color: .label, frame: Rect(x: 36, y: 4, width: width, height: 50),
                              alignment: .natural, lineBreakMode: .byWordWrapping, numberOfLines: 2,
                              layoutDirection: .leftToRight)),
            ])
            let fresh = Compositor(viewport: Self.viewport, scale: scale, background: .white, textEngine: Fixtures.engine)
            for c in [kept, fresh] {
                c.setLayer(1, frame: Self.bounds, content: list)
                _ = c.renderFrame()
            }
            let same = kept.snapshot().pixels == fresh.snapshot().pixels
            #expect(same, "step \(step): \(text), \(symbol) at \(pointSize)")
        }
    }

    /// Translucent sharp fills over an opaque fill, with text and symbols drawn before and after
    /// them (some meeting them), inside clips and alpha groups: the same pixels with the
    /// shortcuts on and off, and most such fills written as one pixel.
    @Test(arguments: [(7, 1), (13, 2), (31, 3)] as [(UInt64, Int)])
    func translucentFillsOverSolidGiveTheBlendedPixels(seed: UInt64, scale: Int) {
        var g = SeededGenerator(state: seed)
        let colors: [Color] = [.separator, .systemBlue.withAlphaComponent(0.3), Color(white: 0, alpha: 0.15),
                               .systemRed.withAlphaComponent(0.8), Color(white: 1, alpha: 0.5)]
        let grounds: [Color] = [.white, .systemGray5, .black, .systemGreen]
        let shortcuts = Compositor(viewport: Self.viewport, scale: scale, background: .white, textEngine: Fixtures.engine)
        let blended = Compositor(viewport: Self.viewport, scale: scale, background: .white, textEngine: Fixtures.engine)
        blended.usesCoverageShortcuts = false
        func rect() -> Rect {
            Rect(x: Double(Int.random(in: 0...100, using: &g)) + Double(Int.random(in: 0..<3, using: &g)) / 3,
                 y: Double(Int.random(in: 0...80, using: &g)), width: Double(Int.random(in: 1...60, using: &g)),
                 height: [1.0 / 3, 0.5, 1, 4, 20][Int.random(in: 0..<5, using: &g)])
        }
        for step in 0..<120 {
            let color = colors[Int.random(in: 0..<colors.count, using: &g)]
            let fill = DisplayCommand.fill(rect(), color)
            let text = DisplayCommand.text(TextRun(text: "Separator", font: .systemFont(ofSize: 17), color: .label,
                                                   frame: Rect(x: 10, y: 30, width: 90, height: 24), alignment: .natural,
                                                   lineBreakMode: .byTruncatingTail, numberOfLines: 1, layoutDirection: .leftToRight))
            let symbol = DisplayCommand.symbol(name: "star", frame: Rect(x: 60, y: 50, width: 24, height: 24), pointSize: 17,
                                               weight: .regular, color: .systemOrange)
            let ground = DisplayCommand.fill(Self.bounds, grounds[step % grounds.count])
            let commands: [DisplayCommand]
            switch step % 6 {
            case 0: commands = [ground, fill, text]
            case 1: commands = [ground, text, symbol, fill, .fill(rect(), color)]  // may meet what was drawn
            case 2: commands = [ground, fill, fill, symbol]  // the second over the first: not solid any more
            case 3: commands = [ground, .pushClip(Rect(x: 20, y: 10, width: 70, height: 60), cornerRadius: 0), fill, .popClip, text]
            case 4: commands = [ground, .pushAlpha(0.6), fill, .popAlpha, fill]
            default: commands = [.fill(Self.bounds, Color(white: 0.5, alpha: 0.5)), fill, text]  // translucent ground
            }
            let list = DisplayList(commands)
            for c in [shortcuts, blended] {
                c.setLayer(1, frame: Self.bounds, content: list)
                _ = c.renderFrame()
            }
            let same = shortcuts.snapshot().pixels == blended.snapshot().pixels
            #expect(same, "step \(step): \(fill)")
        }
        #expect(shortcuts.fillsOverSolid > 40, "translucent fills over an opaque fill are written as one pixel")
        #expect(blended.fillsOverSolid == 0)
    }

    /// Each step redraws one of a few texts with one thing about where it goes changed from that
    /// text's last draw (frame origin, height or width, alignment, direction, the layer's
    /// sub-pixel position) or nothing changed: a long-lived compositor, which draws a repeat from
    /// where the layout's lines went last time, gives the pixels of a fresh one, and most repeats
    /// are drawn that way.
    @Test(arguments: [(5, 1), (17, 2), (41, 3)] as [(UInt64, Int)])
    func placedTextIsReusedOnlyWherePlacedAlike(seed: UInt64, scale: Int) {
        var g = SeededGenerator(state: seed)
        struct Placement {
            var frame = Rect(x: 8, y: 6, width: 90, height: 30)
            var alignment = TextAlignment.natural
            var direction = LayoutDirection.leftToRight
            var layer = Point(x: 0, y: 0)
        }
        let texts = ["Inbox", "3 unsent messages", "שלום עולם", "Wrapping text over two lines"]
        var placements = texts.map { _ in Placement() }
        let kept = Compositor(viewport: Self.viewport, scale: scale, background: .white, textEngine: Fixtures.engine)
        var repeats = 0
        for step in 0..<160 {
            let t = Int.random(in: 0..<texts.count, using: &g)
            var p = placements[t]
            let quarter = Double(Int.random(in: 1...3, using: &g)) / 4
            let change = Int.random(in: 0..<14, using: &g)
            switch change {
            case 0: p.frame.origin.x += Bool.random(using: &g) ? quarter : -quarter
            case 1: p.frame.origin.y += Bool.random(using: &g) ? quarter : -quarter
            case 2: p.frame.size.height = p.frame.height == 30 ? 44 : 30  // moves the lines' vertical centre
            case 3: p.frame.size.width = p.frame.width == 90 ? 70 : 90
            case 4: p.alignment = [TextAlignment.natural, .left, .center, .right].filter { $0 != p.alignment }[Int.random(in: 0..<3, using: &g)]
            case 5: p.direction = p.direction == .leftToRight ? .rightToLeft : .leftToRight
            case 6: p.layer.x = Double(Int.random(in: 0..<8, using: &g)) / 8
            case 7: p.layer.y = Double(Int.random(in: 0..<8, using: &g)) / 8
            default: repeats += 1
            }
            placements[t] = p
            let list = DisplayList([
                .fill(Rect(x: 0, y: 0, width: 110, height: 60), step % 3 == 0 ? .systemGray5 : .white),
                .text(TextRun(text: texts[t], font: .systemFont(ofSize: 15), color: step % 2 == 0 ? .label : .systemBlue,
                              frame: p.frame, alignment: p.alignment, lineBreakMode: .byWordWrapping, numberOfLines: 2,
                              layoutDirection: p.direction)),
            ])
            let frame = Rect(x: p.layer.x, y: p.layer.y, width: 110, height: 60)
            let fresh = Compositor(viewport: Self.viewport, scale: scale, background: .white, textEngine: Fixtures.engine)
            for c in [kept, fresh] {
                c.setLayer(1, frame: frame, content: list)
                _ = c.renderFrame()
            }
            let same = kept.snapshot().pixels == fresh.snapshot().pixels
            #expect(same, "step \(step): \(texts[t]) after change \(change)")
        }
        #expect(kept.linesFromPlacedText >= repeats, "repeated texts are drawn where their lines went last time")
        #expect(repeats > 40)
    }

    /// Colours converted from the last few kept equal converting them anew, for colours that
    /// differ from a kept one in one component only.
    @Test func keptColourConversionsEqualConvertingAnew() {
        var g = SeededGenerator(state: 11)
        var conversions = ColorConversions()
        var colors: [Color] = []
        for _ in 0..<12 {
            colors.append(Color(red: Double.random(in: 0...1, using: &g), green: Double.random(in: 0...1, using: &g),
                                blue: Double.random(in: 0...1, using: &g), alpha: Double.random(in: 0...1, using: &g)))
        }
        for step in 0..<400 {
            var color = colors[Int.random(in: 0..<colors.count, using: &g)]
            let delta = Double(Int.random(in: 1...3, using: &g)) / 255
            switch Int.random(in: 0..<5, using: &g) {
            case 0: color = Color(red: min(1, color.red + delta), green: color.green, blue: color.blue, alpha: color.alpha)
            case 1: color = Color(red: color.red, green: min(1, color.green + delta), blue: color.blue, alpha: color.alpha)
            case 2: color = Color(red: color.red, green: color.green, blue: min(1, color.blue + delta), alpha: color.alpha)
            case 3: color = Color(red: color.red, green: color.green, blue: color.blue, alpha: max(0, color.alpha - delta))
            default: break
            }
            let argb = conversions.argb(color)
            #expect(argb == color.premultipliedARGB, "step \(step): \(color)")
        }
    }
}
