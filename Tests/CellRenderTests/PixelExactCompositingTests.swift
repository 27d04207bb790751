import CellKit
import Testing
@testable import CellRender

/// The compositor's and rasterizer's fast paths (opaque layers hiding what lies beneath, solid
/// layers without a buffer, no clear before a covering fill, rounded clips drawn in place) must
/// give exactly the pixels of the general path: every layer rastered onto blank pixels, rounded
/// clips through group buffers, blended bottom to top over the background.
@Suite struct PixelExactCompositingTests {
    static let viewport = Size(width: 120, height: 160)

    /// Layer contents that reach each fast path and the cases that must not take it.
    static func content(_ kind: Int, size: Size, variant: Int) -> DisplayList {
        let bounds = Rect(origin: .zero, size: size)
        let colors: [Color] = [.systemBlue, .white, .systemGray5, .systemRed.withAlphaComponent(0.6), .black]
        let color = colors[variant % colors.count]
        let text = DisplayCommand.text(TextRun(text: "Row \(variant) text", font: .systemFont(ofSize: 13), color: .label,
                                               frame: Rect(x: 6, y: 4, width: size.width - 30, height: 16)))
        let symbol = DisplayCommand.symbol(name: ["star", "folder", "gear"][variant % 3],
                                           frame: Rect(x: size.width - 22, y: 4, width: 18, height: 18), pointSize: 15,
                                           weight: .regular, color: .systemBlue)
        let separator = DisplayCommand.fill(Rect(x: 6, y: size.height - 1 / 3, width: size.width - 6, height: 1 / 3), .separator)
        switch kind % 10 {
        case 0:  // solid, opaque or not
            return DisplayList([.fill(bounds, color)])
        case 1:  // opaque row: covering fill first
            return DisplayList([.fill(bounds, color.withAlphaComponent(1)), text, symbol, separator])
        case 2, 3:  // inset-grouped row: a section clip whose corners lie outside (2) or inside (3) the row
            let above = kind % 10 == 2 ? Double(40 + variant % 3 * 30) : 0
            let section = Rect(x: 0, y: -above, width: size.width, height: above + size.height + (kind % 10 == 2 ? 200 : 0))
            return DisplayList([.pushClip(section, cornerRadius: 10), .fill(bounds, color.withAlphaComponent(1)), text, symbol,
                                separator, .popClip])
        case 4:  // rounded clip first, then a translucent fill: in place over blank pixels
            return DisplayList([.pushClip(bounds, cornerRadius: 7), .fill(bounds, color.withAlphaComponent(0.5)), text, .popClip])
        case 5:  // translucent: rounded rect and text
            return DisplayList([.roundedRect(bounds.insetBy(dx: 2, dy: 2), cornerRadius: 8, color: color), text])
        case 6:  // alpha group around an opaque fill: not opaque
            return DisplayList([.pushAlpha(0.6), .fill(bounds, .systemGreen), text, .popAlpha])
        case 7:  // covering fill, then a rounded clip drawn into a group buffer
            return DisplayList([.fill(bounds, .white), .pushClip(bounds.insetBy(dx: 4, dy: 2), cornerRadius: 6),
                                .fill(bounds, color), symbol, .popClip, text])
        case 9:  // a backdrop blur: frames holding one take the general compositing path
            return DisplayList([.backgroundBlur(bounds, radius: 3, cornerRadius: 6),
                                .roundedRect(bounds, cornerRadius: 6, color: Color(white: 1, alpha: 0.3)), text])
        default:  // nested rounded clips before anything is drawn, then a shadow
            return DisplayList([.pushClip(bounds, cornerRadius: 9), .pushClip(bounds.insetBy(dx: 3, dy: 0), cornerRadius: 4),
                                .shadow(bounds.insetBy(dx: 8, dy: 6), cornerRadius: 4, radius: 2, offset: Point(x: 0, y: 1),
                                        color: Color(white: 0, alpha: 0.4)),
                                .fill(bounds.insetBy(dx: 10, dy: 8), color), .popClip, .popClip, text])
        }
    }

    private static func pair(scale: Int) -> (fast: Compositor, general: Compositor) {
        let fast = Compositor(viewport: viewport, scale: scale, background: .systemGroupedBackground, textEngine: Fixtures.engine)
        let general = Compositor(viewport: viewport, scale: scale, background: .systemGroupedBackground, textEngine: Fixtures.engine)
        general.usesFastPaths = false
        return (fast, general)
    }

    @Test(arguments: [(3, 2), (11, 3), (29, 1)] as [(UInt64, Int)])
    func randomLayerStacksMatchTheGeneralPath(seed: UInt64, scale: Int) {
        var rng = SeededGenerator(state: seed)
        let (fast, general) = Self.pair(scale: scale)
        var fastOnlyCompositions = 0, generalCompositions = 0
        for step in 0..<60 {
            // A full-viewport list background now and then, like the engine's.
            if step % 15 == 0 {
                let background = DisplayList([.fill(Rect(origin: .zero, size: Self.viewport), step % 30 == 0 ? .systemGray6 : .black)])
                for c in [fast, general] { c.setLayer(0, frame: Rect(origin: .zero, size: Self.viewport), content: background) }
            }
            for _ in 0..<Int.random(in: 1...3, using: &rng) {
                let id = Int.random(in: 1...8, using: &rng)
                if Int.random(in: 0..<12, using: &rng) == 0 {
                    for c in [fast, general] { c.removeLayer(id) }
                    continue
                }
                let fractional = Int.random(in: 0..<4, using: &rng) == 0
                let frame = Rect(x: Double(Int.random(in: -10...20, using: &rng)) + (fractional ? 0.4 : 0),
                                 y: Double(Int.random(in: -10...150, using: &rng)),
                                 width: Double(Int.random(in: 60...110, using: &rng)), height: Double(Int.random(in: 20...44, using: &rng)))
                let content = Self.content(Int.random(in: 0..<10, using: &rng), size: frame.size,
                                           variant: Int.random(in: 0..<30, using: &rng))
                for c in [fast, general] { c.setLayer(id, frame: frame, content: content) }
            }
            let fastReport = fast.renderFrame(), generalReport = general.renderFrame()
            fastOnlyCompositions += fastReport.layersComposited
            generalCompositions += generalReport.layersComposited
            #expect(fastReport.damage == generalReport.damage, "seed \(seed) step \(step): damage differs")
            let a = fast.snapshot(), b = general.snapshot()
            #expect(a.maxChannelDifference(to: b) == 0,
                    "seed \(seed) step \(step): fast path differs from the general path in \(a.differingPixelCount(to: b)) px")
        }
        #expect(fastOnlyCompositions < generalCompositions, "opaque layers hide some of what lies beneath them")
    }

    @Test func eachLayerKeepsItsPixelsTheCheapestWay() {
        let (fast, general) = Self.pair(scale: 3)
        let size = Size(width: 100, height: 40)
        for c in [fast, general] {
            for kind in 0..<10 {
                c.setLayer(kind, frame: Rect(x: 5, y: 5 + Double(kind) * 14, width: size.width, height: size.height),
                           content: Self.content(kind, size: size, variant: 1))
            }
            // A list that starts covering the layer but draws a symbol nobody knows: its problem
            // is reported in the frame it changed in, so it is rastered ahead.
            c.setLayer(10, frame: Rect(x: 0, y: 0, width: 40, height: 40), content: DisplayList([
                .fill(Rect(x: 0, y: 0, width: 40, height: 40), .white),
                .symbol(name: "no.such.symbol", frame: Rect(x: 0, y: 0, width: 40, height: 40), pointSize: 17, weight: .regular, color: .black),
            ]))
        }
        let fastReport = fast.renderFrame(), generalReport = general.renderFrame()
        #expect(fast.snapshot() == general.snapshot())
        #expect(fastReport.problems == generalReport.problems && fastReport.problems.count == 1)
        #expect(fast.storage(ofLayer: 0) == .solid)
        for kind in [1, 2, 7] { #expect(fast.storage(ofLayer: kind) == .direct, "kind \(kind) covers its layer: drawn, not kept") }
        for kind in [3, 4, 5, 6, 8, 9] { #expect(fast.storage(ofLayer: kind) == .buffer, "kind \(kind)") }
        #expect(fast.storage(ofLayer: 10) == .buffer)
        for kind in 0...10 { #expect(general.storage(ofLayer: kind) == .buffer) }
    }

    @Test func opaqueLayerHidesEverythingBeneathIt() {
        let (fast, general) = Self.pair(scale: 2)
        let all = Rect(origin: .zero, size: Self.viewport)
        for c in [fast, general] {
            c.setLayer(1, frame: Rect(x: 10, y: 10, width: 80, height: 30), content: Self.content(5, size: Size(width: 80, height: 30), variant: 3))
            c.setLayer(2, frame: all, content: Self.content(1, size: all.size, variant: 2))
            c.setLayer(3, frame: Rect(x: 20, y: 60, width: 80, height: 30), content: Self.content(5, size: Size(width: 80, height: 30), variant: 4))
        }
        let fastReport = fast.renderFrame(), generalReport = general.renderFrame()
        #expect(generalReport.layersComposited == 3)
        #expect(fastReport.layersComposited == 2, "the layer under the opaque full-viewport one is not composited")
        #expect(fast.snapshot() == general.snapshot())
    }

    /// A row redrawn in place (a single-cell state change): its opaque layer covers the whole
    /// damage, so neither the layers beneath it nor the background are composited there, while a
    /// translucent layer above it still is; the pixels stay the general path's.
    @Test func rowRedrawnInPlaceHidesWhatLiesBeneathTheDamage() {
        let (fast, general) = Self.pair(scale: 3)
        let all = Rect(origin: .zero, size: Self.viewport)
        let row = Rect(x: 0, y: 40, width: Self.viewport.width, height: 30)
        let beneath = Rect(x: 5, y: 30, width: 90, height: 60), above = Rect(x: 10, y: 50, width: 60, height: 34)
        for c in [fast, general] {
            c.setLayer(0, frame: all, content: DisplayList([.fill(all, .systemGray6)]))
            c.setLayer(1, frame: beneath, content: Self.content(5, size: beneath.size, variant: 1))
            c.setLayer(2, frame: row, content: Self.content(1, size: row.size, variant: 0))
            c.setLayer(3, frame: above, content: Self.content(5, size: above.size, variant: 3))
            _ = c.renderFrame()
        }
        #expect(fast.snapshot() == general.snapshot())
        for step in 1...6 {
            for c in [fast, general] { c.setLayer(2, frame: row, content: Self.content(1, size: row.size, variant: step)) }
            let fastReport = fast.renderFrame(), generalReport = general.renderFrame()
            #expect(fastReport.damage == generalReport.damage)
            #expect(fast.snapshot() == general.snapshot(), "step \(step)")
            #expect(fastReport.layersComposited == 2, "step \(step): the row and the translucent layer above it")
        }
    }

    @Test func insetGroupedRowsAreOpaqueWhereTheSectionRoundingMissesThem() {
        let (fast, general) = Self.pair(scale: 3)
        let size = Size(width: 110, height: 40)
        // Row 2 sits in the middle of its section; row 1 holds the section's top corners.
        for c in [fast, general] {
            c.setLayer(0, frame: Rect(origin: .zero, size: Self.viewport), content: DisplayList([.fill(Rect(origin: .zero, size: Self.viewport), .systemGray6)]))
            c.setLayer(1, frame: Rect(x: 5, y: 10, width: 110, height: 40), content: Self.content(3, size: size, variant: 1))
            c.setLayer(2, frame: Rect(x: 5, y: 50, width: 110, height: 40), content: Self.content(2, size: size, variant: 1))
        }
        let fastReport = fast.renderFrame(), generalReport = general.renderFrame()
        #expect(fast.snapshot() == general.snapshot())
        #expect(generalReport.layersComposited == 3)
        #expect(fastReport.layersComposited == 3, "the list background still shows around both rows")
        // Only the middle row changes: it covers its damage, so nothing beneath it is composited.
        for c in [fast, general] {
            c.setLayer(2, frame: Rect(x: 5, y: 50, width: 110, height: 40), content: Self.content(2, size: size, variant: 6))
        }
        let fastChange = fast.renderFrame(), generalChange = general.renderFrame()
        #expect(fast.snapshot() == general.snapshot())
        #expect(generalChange.layersComposited == 2)
        #expect(fastChange.layersComposited == 1)
    }

    @Test func rasterizerFastPathsMatchTheGeneralPathOnReusedBuffers() {
        let size = Size(width: 70, height: 30)
        let fast = Rasterizer(textEngine: Fixtures.engine), general = Rasterizer(textEngine: Fixtures.engine)
        general.usesFastPaths = false
        let fastTarget = PixelBuffer(width: 210, height: 90), generalTarget = PixelBuffer(width: 210, height: 90)
        for kind in 0..<10 {
            for variant in 0..<5 {
                // The buffers still hold the previous list's pixels.
                let list = Self.content(kind, size: size, variant: variant)
                fast.draw(list, into: fastTarget, scale: 3, offset: (0, 0), targetIsBlank: false)
                general.draw(list, into: generalTarget, scale: 3, offset: (0, 0), targetIsBlank: false)
                #expect(fastTarget.snapshot() == generalTarget.snapshot(), "kind \(kind) variant \(variant)")
                let opaqueEverywhere = fastTarget.snapshot().pixels.allSatisfy { $0 >> 24 == 255 }
                if fast.coversTarget { #expect(opaqueEverywhere, "kind \(kind) variant \(variant) reported opaque") }
                if [1, 2, 7].contains(kind) { #expect(fast.coversTarget, "kind \(kind) covers its target") }
                if [3, 4, 5, 6].contains(kind) { #expect(!fast.coversTarget, "kind \(kind) leaves pixels translucent") }
            }
        }
    }
}
