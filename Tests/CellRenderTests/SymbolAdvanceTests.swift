import CellKit
import Testing
@testable import CellRender

/// A symbol image is as wide as its glyph's advance: "ellipsis" and "rectangle" wider than tall,
/// "exclamationmark" narrower. Symbols keep the standard reservation unless one is set, so a
/// column of mixed symbols lines its text up; with `reservedLayoutSize` width 0 set explicitly
/// the text starts right after each symbol's own width — the golden shows both.
@Suite struct SymbolAdvanceTests {
    static let mixed = ["star.fill", "ellipsis", "exclamationmark", "rectangle"]
    let context = LayoutContext(traits: .default, textMeasurer: Fixtures.engine)

    func layout(_ name: String, configure: (inout ListContentConfiguration) -> Void = { _ in }) -> ListContentLayout {
        var c = ListContentConfiguration.cell()
        c.image = Image(systemName: name)
        c.text = "Text"
        configure(&c)
        return ListContentLayout(configuration: c, width: 320, context: context)
    }

    @Test func aSymbolIsAsWideAsItsAdvanceAndAsTallAsItsPointSizeAsks() {
        let height = Image.symbolHeight(pointSize: 17)
        let sizes = Self.mixed.map { Fixtures.engine.symbolSize(named: $0, pointSize: 17) }
        #expect(sizes.allSatisfy { $0.height == height })
        let width = Dictionary(uniqueKeysWithValues: zip(Self.mixed, sizes.map(\.width)))
        #expect(width["ellipsis"]! > height && width["rectangle"]! > height, "wide symbols: \(width)")
        #expect(width["exclamationmark"]! < height * 0.75, "a narrow symbol: \(width)")
        #expect(Fixtures.engine.symbolSize(named: "circle", pointSize: 17) == Size(width: height, height: height))
        #expect(Fixtures.engine.symbolSize(named: "no.such.symbol", pointSize: 17) == Size(width: height, height: height),
                "an unknown name draws the square missing-symbol box")
        for name in Self.mixed { #expect(layout(name).imageFrame?.size == Fixtures.engine.symbolSize(named: name, pointSize: 17)) }
    }

    @Test func aMeasurerThatKnowsNoGlyphsKeepsSymbolsSquare() {
        let side = Image.symbolHeight(pointSize: 20)
        #expect(FixedAdvanceTextMeasurer().symbolSize(named: "ellipsis", pointSize: 20) == Size(width: side, height: side))
    }

    @Test func theDefaultReservationAlignsTextAndAnExplicitZeroDoesNot() {
        let reservedStarts = Set(Self.mixed.map { layout($0).textFrame!.minX })
        #expect(reservedStarts.count == 1)
        let ownStarts = Self.mixed.map { name in
            layout(name) { $0.imageProperties.reservedLayoutSize = Size(width: 0, height: 0) }.textFrame!.minX
        }
        #expect(Set(ownStarts).count == Self.mixed.count, "misaligned without a reservation: \(ownStarts)")
        let padding = ListContentConfiguration.cell().imageToTextPadding
        for (name, start) in zip(Self.mixed, ownStarts) {
            #expect(start == 16 + Fixtures.engine.symbolSize(named: name, pointSize: 17).width + padding)
        }
    }

    /// The mixed symbols with the default (standard) reservation, then the same rows with
    /// `reservedLayoutSize` width 0: text after each symbol's own width.
    @Test func reservedAndUnreservedSymbolColumnsGolden() {
        let width = 320.0
        var list = DisplayList()
        var y = 0.0
        for reserves in [true, false] {
            for name in Self.mixed {
                var c = ListContentConfiguration.cell()
                c.image = Image(systemName: name)
                if !reserves { c.imageProperties.reservedLayoutSize = .zero }
                c.text = reserves ? "Standard reservation" : "No reservation"
                let view = ListContentView(configuration: c)
                let height = view.sizeThatFits(Size(width: width, height: 0), context: context).height
                list.append(.fill(Rect(x: 16, y: y + height - 0.5, width: width - 16, height: 0.5), .separator))
                view.draw(in: Rect(x: 0, y: y, width: width, height: height), context: context, into: &list)
                y += height
            }
        }
        goldens.check(Fixtures.render(list, size: Size(width: width, height: y), scale: 2), "symbol-advances@2x")
    }
}
