import CellKit
import Testing
@testable import CellRender

/// Text lines composited through one merged glyph mask (kept with the cached layout), or written
/// from a coverage ramp over the opaque fill beneath them, must give exactly the pixels of
/// compositing glyph by glyph, at every sub-pixel placement, and fall back to glyph by glyph
/// where glyph masks overlap.
@Suite struct ComposedLineTests {
    static let viewport = Size(width: 160, height: 120)
    static let texts = [
        "Inbox", "3 unsent messages", "Flagged 12", "Wrapping text that needs a few lines in a narrow frame",
        "AVAWAY Tâche ﬁnale", "שלום עולם", "مرحبا بالعالم", "e\u{301}e\u{302}a\u{308}o\u{303} combining", "   ", "x",
        "Truncated in the middle of a rather long line",
    ]

    private static func list(_ g: inout SeededGenerator, step: Int) -> DisplayList {
        let text = texts[Int.random(in: 0..<texts.count, using: &g)]
        let fonts: [Font] = [.systemFont(ofSize: 13), .systemFont(ofSize: 17, weight: .bold), Font(pointSize: 11, isItalic: true),
                             .systemFont(ofSize: 22)]
        let modes: [LineBreakMode] = [.byTruncatingTail, .byTruncatingMiddle, .byTruncatingHead, .byClipping, .byWordWrapping]
        let colors: [Color] = [.label, .systemBlue, .systemRed.withAlphaComponent(0.5), .white]
        let frame = Rect(x: Double(Int.random(in: 0...40, using: &g)) + Double(Int.random(in: 0..<12, using: &g)) / 12,
                         y: Double(Int.random(in: 0...60, using: &g)) + Double(Int.random(in: 0..<3, using: &g)) / 3,
                         width: Double(Int.random(in: 30...140, using: &g)), height: Double(Int.random(in: 16...60, using: &g)))
        let run = TextRun(text: text, font: fonts[step % fonts.count], color: colors[Int.random(in: 0..<colors.count, using: &g)],
                          frame: frame, alignment: [.natural, .center, .right][step % 3],
                          lineBreakMode: modes[Int.random(in: 0..<modes.count, using: &g)],
                          numberOfLines: Int.random(in: 0...2, using: &g),
                          layoutDirection: step % 5 == 0 ? .rightToLeft : .leftToRight)
        let bounds = Rect(origin: .zero, size: viewport)
        // Lines over an opaque fill are written from a ramp unless something drawn since meets them.
        let symbol = DisplayCommand.symbol(name: "star", frame: Rect(x: frame.minX + 4, y: frame.minY, width: 20, height: 20),
                                           pointSize: 17, weight: .regular, color: .systemOrange)
        switch step % 6 {
        case 0: return DisplayList([.fill(bounds, .white), .text(run)])
        case 1: return DisplayList([.fill(bounds, .systemGray5), symbol, .text(run)])  // the symbol meets the first line
        case 2: return DisplayList([.fill(bounds, Color(white: 0.5, alpha: 0.5)), .text(run)])  // translucent: no solid beneath
        case 3: return DisplayList([.fill(bounds, .black), .pushAlpha(0.7), .fill(bounds, .systemBlue), .text(run), .popAlpha, .text(run)])
        case 4: return DisplayList([.pushClip(bounds.insetBy(dx: 10, dy: 10), cornerRadius: 12), .fill(bounds, .systemGreen), .text(run),
                                    .popClip, .text(run)])
        default: return DisplayList([.fill(bounds, .white), .fill(frame.insetBy(dx: 5, dy: 2), .systemYellow), .text(run), .text(run)])
        }
    }

    @Test(arguments: [(5, 1), (17, 2), (41, 3)] as [(UInt64, Int)])
    func composedLinesGiveTheGlyphByGlyphPixels(seed: UInt64, scale: Int) {
        var g = SeededGenerator(state: seed)
        let composed = Compositor(viewport: Self.viewport, scale: scale, background: .white, textEngine: Fixtures.engine)
        let glyphByGlyph = Compositor(viewport: Self.viewport, scale: scale, background: .white, textEngine: Fixtures.engine)
        glyphByGlyph.usesCoverageShortcuts = false
        for step in 0..<80 {
            let list = Self.list(&g, step: step)
            // The same list moved by a fraction of a point reuses the layout at another placement.
            let shift = Double(Int.random(in: 0..<8, using: &g)) / 8
            for frame in [Rect(origin: .zero, size: Self.viewport), Rect(x: shift, y: 0, width: Self.viewport.width, height: Self.viewport.height)] {
                for c in [composed, glyphByGlyph] {
                    c.setLayer(1, frame: frame, content: list)
                    _ = c.renderFrame()
                }
                #expect(composed.snapshot().pixels == glyphByGlyph.snapshot().pixels, "step \(step): \(list.commands[1])")
            }
        }
        #expect(composed.linesComposited > 100, "most lines go through a composed mask")
        #expect(composed.masksOverSolid > 50, "lines and symbols over an opaque fill are written from a ramp")
        #expect(glyphByGlyph.linesComposited == 0 && glyphByGlyph.masksOverSolid == 0)
    }

    @Test func mergedMaskHoldsEachGlyphWhereItLies() throws {
        let a = CoverageMask(width: 3, height: 2), b = CoverageMask(width: 2, height: 3)
        for y in 0..<2 { for x in 0..<3 { a[x, y] = UInt8(10 * (y * 3 + x) + 5) } }
        for y in 0..<3 { for x in 0..<2 { b[x, y] = UInt8(200 + y * 2 + x) } }
        b[0, 1] = 0; b[0, 2] = 0  // blank where it meets `a`'s last column
        let merged = try #require(ComposedLine.merge([(a, 0, 1), (b, 2, 0)], maxPixels: 100))
        #expect((merged.left, merged.top, merged.mask.width, merged.mask.height) == (0, 0, 4, 3))
        #expect(merged.mask[0, 0] == 0 && merged.mask[2, 0] == b[0, 0] && merged.mask[3, 0] == b[1, 0])
        #expect(merged.mask[0, 1] == a[0, 0] && merged.mask[2, 1] == a[2, 0] && merged.mask[3, 1] == b[1, 1])
        #expect(merged.mask[2, 2] == a[2, 1] && merged.mask[3, 2] == b[1, 2])
    }

    @Test func overlappingInkOrOversizeIsNotMerged() {
        let a = CoverageMask(width: 2, height: 2), b = CoverageMask(width: 2, height: 2)
        a[1, 1] = 1
        b[0, 0] = 1
        #expect(ComposedLine.merge([(a, 0, 0), (b, 1, 1)], maxPixels: 100) == nil, "both have ink on pixel (1, 1)")
        #expect(ComposedLine.merge([(a, 0, 0), (b, 2, 2)], maxPixels: 100) != nil)
        #expect(ComposedLine.merge([(a, 0, 0), (b, 2, 2)], maxPixels: 15) == nil, "4×4 exceeds 15 pixels")
        #expect(ComposedLine.merge([], maxPixels: 100) == nil)
    }

    @Test func aLineIsKeptPerPlacement() {
        let lines = ComposedLines()
        let here = [GlyphPlacement(x: 0, y: 0, phase: 0), GlyphPlacement(x: 9, y: 0, phase: 2)]
        let there = [GlyphPlacement(x: 0, y: 0, phase: 1), GlyphPlacement(x: 9, y: 0, phase: 3)]
        lines.add(ComposedLine(pixelSize: 39, placements: here, mask: nil, left: 0, top: 0, hasInk: true), at: 1)
        #expect(lines.line(1, pixelSize: 39, placements: here) != nil)
        #expect(lines.line(1, pixelSize: 39, placements: there) == nil)
        #expect(lines.line(1, pixelSize: 26, placements: here) == nil)
        #expect(lines.line(0, pixelSize: 39, placements: here) == nil)
        for phase in 0..<4 {
            lines.add(ComposedLine(pixelSize: 39, placements: [GlyphPlacement(x: 0, y: 0, phase: phase)], mask: nil, left: 0, top: 0,
                                   hasInk: true), at: 1)
        }
        #expect(lines.line(1, pixelSize: 39, placements: here) == nil, "the oldest of five placements is dropped")
        #expect(lines.line(1, pixelSize: 39, placements: [GlyphPlacement(x: 0, y: 0, phase: 0)]) != nil)
    }
}
