import CellKit
import Testing
@testable import CellRender

/// One golden per drawing command family, symbols at every scale, text styles and modes.
@Suite struct CommandGoldenTests {
    let canvas = Size(width: 240, height: 120)

    private func stripes(_ list: inout DisplayList, in rect: Rect) {
        var x = rect.minX
        var i = 0
        while x < rect.maxX {
            list.append(.fill(Rect(x: x, y: rect.minY, width: min(10, rect.maxX - x), height: rect.height),
                              i % 2 == 0 ? .systemBlue : .systemYellow))
            x += 10
            i += 1
        }
    }

    @Test func fills() {
        let list = DisplayList([
            .fill(Rect(x: 10, y: 10, width: 100, height: 50), .systemRed),
            .fill(Rect(x: 60, y: 35, width: 100, height: 50), Color.systemBlue.withAlphaComponent(0.5)),
            .fill(Rect(x: 170, y: 10, width: 60, height: 100), .black),
            .fill(Rect(x: 180.5, y: 20.5, width: 20, height: 20), .white),
        ])
        goldens.check(Fixtures.render(list, size: canvas), "fills")
    }

    @Test(arguments: [1, 2, 3])
    func roundedRects(scale: Int) {
        let list = DisplayList([
            .roundedRect(Rect(x: 10, y: 10, width: 60, height: 40), cornerRadius: 4, color: .systemGreen),
            .roundedRect(Rect(x: 80, y: 10, width: 60, height: 40), cornerRadius: 10, color: .systemOrange),
            .roundedRect(Rect(x: 150, y: 10, width: 80, height: 30), cornerRadius: 15, color: .systemPurple),
            .roundedRect(Rect(x: 10, y: 60, width: 50, height: 50), cornerRadius: 25, color: .systemBlue),
            .roundedRect(Rect(x: 70, y: 60, width: 100, height: 50), cornerRadius: 12,
                         color: Color.systemRed.withAlphaComponent(0.6)),
            .roundedRect(Rect(x: 120, y: 80, width: 100, height: 30), cornerRadius: 8,
                         color: Color.systemTeal.withAlphaComponent(0.6)),
        ])
        goldens.check(Fixtures.render(list, size: canvas, scale: scale), "rounded-rects@\(scale)x")
    }

    @Test func strokes() {
        let list = DisplayList([
            .stroke(Rect(x: 10, y: 10, width: 60, height: 40), cornerRadius: 0, width: 1, color: .black),
            .stroke(Rect(x: 80, y: 10, width: 60, height: 40), cornerRadius: 8, width: 2, color: .systemBlue),
            .stroke(Rect(x: 150, y: 10, width: 80, height: 30), cornerRadius: 15, width: 3, color: .systemRed),
            .stroke(Rect(x: 10, y: 60, width: 50, height: 50), cornerRadius: 25, width: 0.5, color: .black),
            .stroke(Rect(x: 70, y: 60, width: 100, height: 50), cornerRadius: 12, width: 6,
                    color: Color.systemGreen.withAlphaComponent(0.5)),
        ])
        goldens.check(Fixtures.render(list, size: canvas, scale: 2), "strokes@2x")
    }

    @Test func clipping() {
        var list = DisplayList()
        list.append(.pushClip(Rect(x: 10, y: 10, width: 100, height: 100), cornerRadius: 0))
        stripes(&list, in: Rect(x: 0, y: 0, width: 130, height: 120))
        list.append(.popClip)
        list.append(.pushClip(Rect(x: 125, y: 10, width: 100, height: 100), cornerRadius: 20))
        stripes(&list, in: Rect(x: 120, y: 0, width: 120, height: 120))
        list.append(.pushClip(Rect(x: 150, y: 40, width: 100, height: 40), cornerRadius: 0))
        list.append(.fill(Rect(x: 0, y: 0, width: 240, height: 120), Color.black.withAlphaComponent(0.5)))
        list.append(.popClip)
        list.append(.popClip)
        goldens.check(Fixtures.render(list, size: canvas, scale: 2), "clipping@2x")
    }

    @Test func alphaGroups() {
        var list = DisplayList()
        // Overlapping shapes in a group fade as one; outside a group each one fades on its own.
        list.append(.pushAlpha(0.5))
        list.append(.roundedRect(Rect(x: 10, y: 20, width: 60, height: 60), cornerRadius: 10, color: .systemRed))
        list.append(.roundedRect(Rect(x: 40, y: 40, width: 60, height: 60), cornerRadius: 10, color: .systemBlue))
        list.append(.popAlpha)
        list.append(.roundedRect(Rect(x: 130, y: 20, width: 60, height: 60), cornerRadius: 10, color: Color.systemRed.withAlphaComponent(0.5)))
        list.append(.roundedRect(Rect(x: 160, y: 40, width: 60, height: 60), cornerRadius: 10, color: Color.systemBlue.withAlphaComponent(0.5)))
        goldens.check(Fixtures.render(list, size: canvas, scale: 2), "alpha-groups@2x")
    }

    @Test func shadows() {
        let list = DisplayList([
            .shadow(Rect(x: 20, y: 20, width: 80, height: 60), cornerRadius: 10, radius: 4, offset: Point(x: 0, y: 4),
                    color: Color(white: 0, alpha: 0.4)),
            .roundedRect(Rect(x: 20, y: 20, width: 80, height: 60), cornerRadius: 10, color: .white),
            .shadow(Rect(x: 140, y: 30, width: 70, height: 50), cornerRadius: 0, radius: 10, offset: Point(x: 6, y: 6),
                    color: Color.systemBlue.withAlphaComponent(0.8)),
        ])
        goldens.check(Fixtures.render(list, size: canvas, scale: 2, background: .systemGray6), "shadows@2x")
    }

    @Test func backgroundBlur() {
        let c = Compositor(viewport: canvas, scale: 2, background: .white, textEngine: Fixtures.engine)
        var beneath = DisplayList()
        stripes(&beneath, in: Rect(x: 0, y: 0, width: 240, height: 120))
        beneath.append(.text(TextRun(text: "Behind the glass", font: .systemFont(ofSize: 22, weight: .bold), color: .black,
                                     frame: Rect(x: 20, y: 45, width: 220, height: 30))))
        c.setLayer(1, frame: Rect(origin: .zero, size: canvas), content: beneath)
        c.setLayer(2, frame: Rect(x: 40, y: 20, width: 160, height: 80), content: DisplayList([
            .backgroundBlur(Rect(x: 0, y: 0, width: 160, height: 80), radius: 6, cornerRadius: 16),
            .roundedRect(Rect(x: 0, y: 0, width: 160, height: 80), cornerRadius: 16, color: Color(white: 1, alpha: 0.3)),
        ]))
        _ = c.renderFrame()
        goldens.check(c.snapshot(), "background-blur@2x")
    }

    @Test(arguments: [1, 2, 3])
    func textStyles(scale: Int) {
        let styles: [(String, Font, Color)] = [
            ("Large Title", .systemFont(ofSize: 34, weight: .bold), .label),
            ("Headline semibold", .systemFont(ofSize: 17, weight: .semibold), .label),
            ("Body text regular", .systemFont(ofSize: 17), .secondaryLabel),
            ("Italic footnote", Font(pointSize: 13, isItalic: true), .systemBlue),
            ("Caption 2 — small print 0123456789", .systemFont(ofSize: 11), .systemRed),
        ]
        var list = DisplayList()
        var y = 4.0
        for (text, font, color) in styles {
            let metrics = Fixtures.engine.measure(TextLayoutRequest(text: text, font: font), width: 300)
            list.append(.text(TextRun(text: text, font: font, color: color,
                                      frame: Rect(x: 8, y: y, width: 300, height: metrics.size.height))))
            y += metrics.size.height + 2
        }
        goldens.check(Fixtures.render(list, size: Size(width: 316, height: y + 4), scale: scale), "text-styles@\(scale)x")
    }

    @Test func textWrappingAndAlignment() {
        let text = "Cells self-size: the height comes from the content, margins and paddings."
        var list = DisplayList()
        for (i, alignment) in [TextAlignment.left, .center, .right].enumerated() {
            let frame = Rect(x: 6 + Double(i) * 108, y: 6, width: 100, height: 150)
            list.append(.stroke(frame, cornerRadius: 0, width: 1, color: .systemGray4))
            list.append(.text(TextRun(text: text, font: .systemFont(ofSize: 13), color: .label, frame: frame,
                                      alignment: alignment, lineBreakMode: .byWordWrapping)))
        }
        goldens.check(Fixtures.render(list, size: Size(width: 330, height: 162), scale: 2), "text-alignment@2x")
    }

    @Test func textTruncationModes() {
        let text = "The beginning, the middle part and the very end"
        var list = DisplayList()
        let modes: [LineBreakMode] = [.byTruncatingTail, .byTruncatingHead, .byTruncatingMiddle, .byClipping, .byCharWrapping]
        for (i, mode) in modes.enumerated() {
            let frame = Rect(x: 6, y: 6 + Double(i) * 26, width: 200, height: 22)
            list.append(.fill(frame, .systemGray6))
            list.append(.text(TextRun(text: text, font: .systemFont(ofSize: 15), color: .label, frame: frame,
                                      lineBreakMode: mode, numberOfLines: 1)))
        }
        let twoLines = Rect(x: 6, y: 140, width: 200, height: 40)
        list.append(.fill(twoLines, .systemGray6))
        list.append(.text(TextRun(text: text + ", which keeps going for a while", font: .systemFont(ofSize: 15), color: .label,
                                  frame: twoLines, lineBreakMode: .byTruncatingTail, numberOfLines: 2)))
        goldens.check(Fixtures.render(list, size: Size(width: 212, height: 186), scale: 2), "text-truncation@2x")
    }

    @Test func rightToLeftText() {
        var list = DisplayList()
        let rows: [(String, LayoutDirection)] = [("שלום עולם", .rightToLeft), ("Natural in RTL", .rightToLeft),
                                                 ("Natural in LTR", .leftToRight), ("مرحبا بالعالم", .rightToLeft)]
        for (i, (text, direction)) in rows.enumerated() {
            let frame = Rect(x: 6, y: 6 + Double(i) * 26, width: 220, height: 22)
            list.append(.fill(frame, .systemGray6))
            list.append(.text(TextRun(text: text, font: .systemFont(ofSize: 17), color: .label, frame: frame,
                                      layoutDirection: direction)))
        }
        goldens.check(Fixtures.render(list, size: Size(width: 232, height: 112), scale: 2), "text-rtl@2x")
    }

    private func symbolSheet(weight: FontWeight, color: Color) -> (DisplayList, Size) {
        let names = SymbolCatalog.names
        let columns = 8
        var list = DisplayList()
        for (i, name) in names.enumerated() {
            let frame = Rect(x: 4 + Double(i % columns) * 30, y: 4 + Double(i / columns) * 30, width: 26, height: 26)
            list.append(.symbol(name: name, frame: frame, pointSize: 17, weight: weight, color: color))
        }
        return (list, Size(width: 4 + Double(columns) * 30, height: 4 + Double((names.count + columns - 1) / columns) * 30))
    }

    @Test(arguments: [1, 2, 3])
    func symbols(scale: Int) {
        let (list, size) = symbolSheet(weight: .regular, color: .systemBlue)
        goldens.check(Fixtures.render(list, size: size, scale: scale), "symbols@\(scale)x")
    }

    @Test func boldSymbolsOnDark() {
        let (list, size) = symbolSheet(weight: .bold, color: .white)
        goldens.check(Fixtures.render(list, size: size, scale: 2, background: .black), "symbols-bold-dark@2x")
    }

    @Test func symbolSizesFollowPointSize() {
        var list = DisplayList()
        var x = 4.0
        for size in [11.0, 15, 17, 22, 28, 34] {
            let side = SymbolCatalog.standardDimension(pointSize: size)
            list.append(.symbol(name: "star.fill", frame: Rect(x: x, y: 4, width: side, height: side), pointSize: size,
                                weight: .regular, color: .systemYellow))
            list.append(.symbol(name: "unknown.symbol", frame: Rect(x: x, y: 50, width: side, height: side), pointSize: size,
                                weight: .regular, color: .systemRed))
            x += side + 6
        }
        goldens.check(Fixtures.render(list, size: Size(width: x, height: 96), scale: 2), "symbol-sizes-and-missing@2x")
    }

    /// A deterministic test image: a colour gradient with a transparent hole, written as PNG.
    static let fixtureImagePath: String = {
        var image = RasterImage(width: 40, height: 20)
        for y in 0..<20 {
            for x in 0..<40 {
                let inHole = (x - 30) * (x - 30) + (y - 10) * (y - 10) < 25
                image[x, y] = inHole ? 0 : premultiply(red: UInt8(x * 6), green: UInt8(y * 12), blue: 200, alpha: 255)
            }
        }
        let path = Fixtures.temporaryDirectory + "/gradient.png"
        try? image.writePNG(path: path)
        return path
    }()

    @Test func imagesInEveryContentMode() {
        var list = DisplayList()
        for (i, mode) in ContentMode.allCases.enumerated() {
            let frame = Rect(x: 6 + Double(i) * 58, y: 6, width: 52, height: 52)
            list.append(.fill(frame, .systemGray5))
            list.append(.pushClip(frame, cornerRadius: 0))
            list.append(.image(path: Self.fixtureImagePath, frame: frame, contentMode: mode, tint: nil))
            list.append(.popClip)
            list.append(.image(path: Self.fixtureImagePath, frame: frame.offsetBy(dx: 0, dy: 58), contentMode: mode,
                               tint: .systemPink))
        }
        goldens.check(Fixtures.render(list, size: Size(width: 240, height: 120), scale: 2), "images@2x")
    }

    @Test func damageTint() {
        let c = Compositor(viewport: canvas, scale: 1, background: .white, textEngine: Fixtures.engine)
        c.setLayer(1, frame: Rect(x: 10, y: 10, width: 110, height: 44), content: CompositorTests.cell(0, width: 110))
        c.setLayer(2, frame: Rect(x: 10, y: 60, width: 110, height: 44), content: CompositorTests.cell(4, width: 110))
        _ = c.renderFrame()
        c.setLayer(2, frame: Rect(x: 125, y: 60, width: 110, height: 44), content: CompositorTests.cell(4, width: 110))
        _ = c.renderFrame()
        c.showsDamage = true
        goldens.check(c.snapshot(), "damage-tint")
    }
}
