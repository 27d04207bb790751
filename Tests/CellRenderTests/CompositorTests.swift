import CellKit
import Testing
@testable import CellRender

/// Deterministic pseudo-random numbers (SplitMix64), so a failing seed can be replayed.
struct SeededGenerator: RandomNumberGenerator {
    var state: UInt64
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

@Suite struct CompositorTests {
    static let viewport = Size(width: 200, height: 300)

    /// A cell-like recording whose look depends on `variant`.
    static func cell(_ variant: Int, width: Double = 180, height: Double = 44) -> DisplayList {
        let colors: [Color] = [.systemBlue, .systemRed, .systemGreen, .systemOrange, .white, .systemGray5]
        var list = DisplayList()
        switch variant % 6 {
        case 0: list.append(.fill(Rect(x: 0, y: 0, width: width, height: height), colors[variant % colors.count]))
        case 1: list.append(.roundedRect(Rect(x: 0, y: 0, width: width, height: height), cornerRadius: 10,
                                         color: colors[(variant / 6) % colors.count].withAlphaComponent(0.7)))
        case 2: list.append(.shadow(Rect(x: 4, y: 4, width: width - 8, height: height - 8), cornerRadius: 8, radius: 3,
                                    offset: Point(x: 0, y: 2), color: Color(white: 0, alpha: 0.5)))
        case 3: list.append(.backgroundBlur(Rect(x: 0, y: 0, width: width, height: height), radius: 4, cornerRadius: 6))
        case 4: list.append(.stroke(Rect(x: 1, y: 1, width: width - 2, height: height - 2), cornerRadius: 6, width: 1.5,
                                    color: colors[variant % colors.count]))
        default: break
        }
        list.append(.text(TextRun(text: "Row \(variant)", font: .systemFont(ofSize: 15), color: .label,
                                  frame: Rect(x: 12, y: 12, width: width - 60, height: 20))))
        list.append(.symbol(name: ["star", "folder", "checkmark", "gear"][variant % 4],
                            frame: Rect(x: width - 36, y: 10, width: 24, height: 24), pointSize: 17, weight: .regular,
                            color: .systemBlue))
        return list
    }

    @Test(arguments: [1, 7, 42])
    func incrementalFramesEqualFullRendersAndDamageCoversChanges(seed: UInt64) {
        var rng = SeededGenerator(state: seed)
        let engine = Fixtures.engine
        let live = Compositor(viewport: Self.viewport, scale: 2, background: .systemGray6, textEngine: engine)
        var state: [Int: (Rect, DisplayList)] = [:]
        var order: [Int] = []
        for id in 0..<5 {
            let frame = Rect(x: 10, y: 10 + Double(id) * 50, width: 180, height: 44)
            state[id] = (frame, Self.cell(id))
            order.append(id)
            live.setLayer(id, frame: frame, content: Self.cell(id))
        }
        _ = live.renderFrame()
        for step in 0..<40 {
            let before = live.snapshot()
            let id = Int.random(in: 0..<7, using: &rng)
            switch Int.random(in: 0..<10, using: &rng) {
            case 0 where state[id] != nil:
                live.removeLayer(id); state[id] = nil; order.removeAll { $0 == id }
            case 1...3:
                let frame = Rect(x: Double(Int.random(in: -20...40, using: &rng)), y: Double(Int.random(in: -20...280, using: &rng)),
                                 width: 180, height: 44)
                let content = state[id]?.1 ?? Self.cell(id)
                if state[id] == nil { order.append(id) }
                state[id] = (frame, content)
                live.setLayer(id, frame: frame, content: content)
            default:
                let frame = state[id]?.0 ?? Rect(x: 10, y: Double(Int.random(in: 0...250, using: &rng)), width: 180, height: 44)
                let content = Self.cell(Int.random(in: 0..<36, using: &rng))
                if state[id] == nil { order.append(id) }
                state[id] = (frame, content)
                live.setLayer(id, frame: frame, content: content)
            }
            let report = live.renderFrame()
            let after = live.snapshot()

            let fresh = Compositor(viewport: Self.viewport, scale: 2, background: .systemGray6, textEngine: engine)
            for id in order { fresh.setLayer(id, frame: state[id]!.0, content: state[id]!.1) }
            _ = fresh.renderFrame()
            let expected = fresh.snapshot()
            #expect(after.maxChannelDifference(to: expected) == 0,
                    "seed \(seed) step \(step): incremental frame differs from a full render in \(after.differingPixelCount(to: expected)) px")
            var uncovered = 0
            after.pixels.withUnsafeBufferPointer { a in
                before.pixels.withUnsafeBufferPointer { b in
                    for i in 0..<a.count where a[i] != b[i] {
                        let x = i % after.width, y = i / after.width
                        if !report.damage.contains(where: { $0.contains(x: x, y: y) }) { uncovered += 1 }
                    }
                }
            }
            #expect(uncovered == 0, "seed \(seed) step \(step): \(uncovered) changed pixels outside the reported damage")
        }
    }

    /// Several layers changed between frames (content changes, whole-pixel moves, layers set
    /// twice or set alike, changed then removed, removed ids set anew): each frame equals a fresh
    /// compositor given the same layers, whether one layer changed or several.
    @Test(arguments: [3, 19, 77])
    func framesAfterSeveralChangesEqualFullRenders(seed: UInt64) {
        var rng = SeededGenerator(state: seed)
        let engine = Fixtures.engine
        let live = Compositor(viewport: Self.viewport, scale: 2, background: .systemGray6, textEngine: engine)
        var state: [Int: (Rect, DisplayList)] = [:]
        var order: [Int] = []
        func set(_ id: Int, _ frame: Rect, _ content: DisplayList) {
            if state[id] == nil { order.append(id) }
            state[id] = (frame, content)
            live.setLayer(id, frame: frame, content: content)
        }
        for id in 0..<6 { set(id, Rect(x: 10, y: 10 + Double(id) * 45, width: 180, height: 44), Self.cell(id)) }
        _ = live.renderFrame()
        for step in 0..<50 {
            for _ in 0..<Int.random(in: 0...4, using: &rng) {
                let id = Int.random(in: 0..<8, using: &rng)
                let current = state[id] ?? (Rect(x: 10, y: Double(Int.random(in: 0...250, using: &rng)), width: 180, height: 44), Self.cell(id))
                switch Int.random(in: 0..<8, using: &rng) {
                case 0 where state[id] != nil:
                    live.removeLayer(id); state[id] = nil; order.removeAll { $0 == id }
                case 1, 2:  // whole points at scale 2: a move without rastering when the content stays
                    set(id, current.0.offsetBy(dx: Double(Int.random(in: -15...15, using: &rng)), dy: Double(Int.random(in: -30...30, using: &rng))),
                        current.1)
                case 3:
                    set(id, current.0, current.1)
                default:
                    set(id, current.0, Self.cell(Int.random(in: 0..<36, using: &rng)))
                }
            }
            _ = live.renderFrame()
            let fresh = Compositor(viewport: Self.viewport, scale: 2, background: .systemGray6, textEngine: engine)
            for id in order { fresh.setLayer(id, frame: state[id]!.0, content: state[id]!.1) }
            _ = fresh.renderFrame()
            let after = live.snapshot(), expected = fresh.snapshot()
            #expect(after.maxChannelDifference(to: expected) == 0,
                    "seed \(seed) step \(step): frame differs from a full render in \(after.differingPixelCount(to: expected)) px")
        }
    }

    /// Problems of layers changed in one frame are reported bottom to top, whatever order they
    /// changed in.
    @Test func problemsOfSeveralChangedLayersComeBottomToTop() {
        let c = Compositor(viewport: Self.viewport, scale: 1, background: .white, textEngine: Fixtures.engine)
        func list(_ symbol: String) -> DisplayList {
            DisplayList([.symbol(name: symbol, frame: Rect(x: 0, y: 0, width: 20, height: 20), pointSize: 17, weight: .regular,
                                 color: .black)])
        }
        for id in 0..<3 { c.setLayer(id, frame: Rect(x: 0, y: Double(id) * 30, width: 20, height: 20), content: list("no.such.\(id)")) }
        #expect(c.renderFrame().problems.map(\.layer) == [0, 1, 2])
        c.setLayer(2, frame: Rect(x: 0, y: 60, width: 20, height: 20), content: list("no.such.two"))
        c.setLayer(0, frame: Rect(x: 0, y: 0, width: 20, height: 20), content: list("no.such.zero"))
        #expect(c.renderFrame().problems.map(\.layer) == [0, 2])
        c.setLayer(1, frame: Rect(x: 0, y: 30, width: 20, height: 20), content: list("no.such.one"))
        #expect(c.renderFrame().problems.map(\.layer) == [1])
        #expect(c.renderFrame().problems.isEmpty)
    }

    @Test func unchangedFrameHasNoDamageAndSingleCellChangeIsLocal() {
        let c = Compositor(viewport: Self.viewport, scale: 2, background: .white, textEngine: Fixtures.engine)
        for id in 0..<5 { c.setLayer(id, frame: Rect(x: 10, y: 10 + Double(id) * 50, width: 180, height: 44), content: Self.cell(id)) }
        let first = c.renderFrame()
        #expect(first.pixelsTouched == c.pixelWidth * c.pixelHeight)
        #expect(first.layersRastered == 5)
        // Setting identical content is free.
        c.setLayer(2, frame: Rect(x: 10, y: 110, width: 180, height: 44), content: Self.cell(2))
        let idle = c.renderFrame()
        #expect(!idle.hasDamage && idle.layersRastered == 0 && idle.pixelsTouched == 0)
        c.setLayer(1, frame: Rect(x: 10, y: 60, width: 180, height: 44), content: Self.cell(7))
        let one = c.renderFrame()
        #expect(one.layersRastered == 1)
        #expect(one.damageBounds == PixelRect(x: 20, y: 120, width: 360, height: 88))
        #expect(one.pixelsTouched == 360 * 88)
    }

    /// A caller that patches a layer's list in place has the compositor let go of it first, then
    /// says whether the list changed; the compositor keeps what it is given either way.
    @Test func releasedContentIsTakenBackWhenToldChangedOrNot() {
        let c = Compositor(viewport: Self.viewport, scale: 2, background: .white, textEngine: Fixtures.engine)
        let frame = Rect(x: 10, y: 60, width: 180, height: 44)
        c.setLayer(1, frame: frame, content: Self.cell(1))
        _ = c.renderFrame()
        c.releaseContent(ofLayer: 1)
        c.setLayer(1, frame: frame, content: Self.cell(1), contentChanged: false)
        let unchanged = c.renderFrame()
        #expect(!unchanged.hasDamage && unchanged.layersRastered == 0)
        c.setLayer(1, frame: frame, content: Self.cell(1))
        #expect(c.renderFrame().layersRastered == 0, "the list compared next is the one taken back")
        // A whole-pixel move reuses the raster, which needs the layer's list (its bounds).
        c.setLayer(1, frame: frame.offsetBy(dx: 0, dy: 20), content: Self.cell(1))
        #expect(c.renderFrame().layersRastered == 0)
        c.releaseContent(ofLayer: 1)
        c.setLayer(1, frame: frame.offsetBy(dx: 0, dy: 20), content: Self.cell(7), contentChanged: true)
        let changed = c.renderFrame()
        #expect(changed.layersRastered == 1)
        let fresh = Compositor(viewport: Self.viewport, scale: 2, background: .white, textEngine: Fixtures.engine)
        fresh.setLayer(1, frame: frame.offsetBy(dx: 0, dy: 20), content: Self.cell(7))
        _ = fresh.renderFrame()
        #expect(c.snapshot() == fresh.snapshot())
    }

    @Test func movedLayerDamagesOldAndNewPlaces() {
        let c = Compositor(viewport: Self.viewport, scale: 1, background: .white, textEngine: Fixtures.engine)
        let list = DisplayList([.fill(Rect(x: 0, y: 0, width: 20, height: 10), .black)])
        c.setLayer(1, frame: Rect(x: 0, y: 0, width: 20, height: 10), content: list)
        _ = c.renderFrame()
        c.setLayer(1, frame: Rect(x: 100, y: 200, width: 20, height: 10), content: list)
        let report = c.renderFrame()
        #expect(Set(report.damage) == [PixelRect(x: 0, y: 0, width: 20, height: 10), PixelRect(x: 100, y: 200, width: 20, height: 10)])
        #expect(report.pixelsTouched == 400)
        let image = c.snapshot()
        #expect(image[5, 5] == Color.white.premultipliedARGB)
        #expect(image[105, 205] == Color.black.premultipliedARGB)
    }

    @Test func showsDamageTintsOnlyTheSnapshot() {
        let c = Compositor(viewport: Size(width: 50, height: 50), scale: 1, background: .white, textEngine: Fixtures.engine)
        c.setLayer(1, frame: Rect(x: 0, y: 0, width: 50, height: 50), content: DisplayList([.fill(Rect(x: 0, y: 0, width: 10, height: 10), .black)]))
        _ = c.renderFrame()
        c.setLayer(1, frame: Rect(x: 0, y: 0, width: 50, height: 50), content: DisplayList([.fill(Rect(x: 20, y: 20, width: 10, height: 10), .black)]))
        _ = c.renderFrame()
        let plain = c.snapshot()
        c.showsDamage = true
        let tinted = c.snapshot()
        #expect(tinted[5, 5] != plain[5, 5] && tinted[25, 25] != plain[25, 25], "damaged pixels are tinted")
        #expect(tinted[45, 45] == plain[45, 45], "undamaged pixels are not")
        c.showsDamage = false
        #expect(c.snapshot() == plain, "tinting never reaches the framebuffer")
    }

    @Test func backgroundChangeRepaintsEverything() {
        let c = Compositor(viewport: Size(width: 30, height: 20), scale: 2, background: .white, textEngine: Fixtures.engine)
        _ = c.renderFrame()
        c.setBackground(.black)
        let report = c.renderFrame()
        #expect(report.pixelsTouched == 60 * 40)
        #expect(c.snapshot()[0, 0] == Color.black.premultipliedARGB)
    }

    @Test func unknownSymbolAndMissingImageAreReportedNotFatal() {
        let list = DisplayList([
            .symbol(name: "no.such.symbol", frame: Rect(x: 0, y: 0, width: 20, height: 20), pointSize: 17, weight: .regular, color: .black),
            .image(path: "/nonexistent/picture.png", frame: Rect(x: 20, y: 0, width: 20, height: 20), contentMode: .scaleAspectFit, tint: nil),
        ])
        let c = Compositor(viewport: Size(width: 40, height: 20), scale: 1, background: .white, textEngine: Fixtures.engine)
        c.setLayer(9, frame: Rect(x: 0, y: 0, width: 40, height: 20), content: list)
        let report = c.renderFrame()
        #expect(report.problems.count == 2)
        #expect(report.problems.contains { $0.layer == 9 && $0.message.contains("no.such.symbol") })
        #expect(report.problems.contains { $0.message.contains("/nonexistent/picture.png") })
        let image = c.snapshot()
        #expect(Fixtures.inkBounds(image) != nil, "a missing symbol draws a visible box")
    }

    @Test func backgroundBlurSoftensWhatLiesBeneath() {
        let c = Compositor(viewport: Size(width: 60, height: 40), scale: 1, background: .white, textEngine: Fixtures.engine)
        c.setLayer(1, frame: Rect(x: 0, y: 0, width: 60, height: 40), content: DisplayList([.fill(Rect(x: 0, y: 0, width: 30, height: 40), .black)]))
        c.setLayer(2, frame: Rect(x: 10, y: 10, width: 40, height: 20), content: DisplayList([.backgroundBlur(Rect(x: 0, y: 0, width: 40, height: 20), radius: 3, cornerRadius: 0)]))
        _ = c.renderFrame()
        let image = c.snapshot()
        let edge = image.rgba(x: 30, y: 20).red
        #expect(edge > 60 && edge < 200, "the black/white edge is blurred inside the blur rect")
        #expect(image.rgba(x: 30, y: 5).red == 255, "outside the blur rect the edge stays sharp")
        #expect(image.rgba(x: 29, y: 5).red == 0)
    }
}

@Suite struct LayerMoveTests {
    @Test func wholePixelMoveRecompositesWithoutRastering() {
        let c = Compositor(viewport: Size(width: 200, height: 200), scale: 2, background: .white, textEngine: Fixtures.engine)
        let content = CompositorTests.cell(1, width: 100)
        c.setLayer(1, frame: Rect(x: 10, y: 10, width: 100, height: 44), content: content)
        _ = c.renderFrame()
        c.setLayer(1, frame: Rect(x: 10, y: 60.5, width: 100, height: 44), content: content)
        let moved = c.renderFrame()
        #expect(moved.layersRastered == 0, "a move by whole pixels (0.5 pt at 2x) reuses the raster")
        #expect(moved.pixelsTouched > 0)
        let fresh = Compositor(viewport: Size(width: 200, height: 200), scale: 2, background: .white, textEngine: Fixtures.engine)
        fresh.setLayer(1, frame: Rect(x: 10, y: 60.5, width: 100, height: 44), content: content)
        _ = fresh.renderFrame()
        #expect(c.snapshot() == fresh.snapshot())
        c.setLayer(1, frame: Rect(x: 10.25, y: 60.5, width: 100, height: 44), content: content)
        #expect(c.renderFrame().layersRastered == 1, "a move by a fraction of a pixel rasters again")
        c.setLayer(1, frame: Rect(x: 150, y: 60.5, width: 100, height: 44), content: content)
        #expect(c.renderFrame().layersRastered == 1, "a layer moving partly off screen rasters again")
    }
}
