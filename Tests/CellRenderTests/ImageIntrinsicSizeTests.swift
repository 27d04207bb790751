import CellKit
import Testing
@testable import CellRender

/// Bitmap images lay out at their own size (pixels over the scale their name says), aspect-fit
/// into `maximumSize` exactly, and `reservedLayoutSize` lines up the text of rows whose images
/// differ in width — the golden shows a column without it and with it.
@Suite struct ImageIntrinsicSizeTests {
    /// A solid PNG of `width`×`height` pixels named `name` in the test folder.
    static func png(_ name: String, width: Int, height: Int, color: Color) -> String {
        let path = Fixtures.temporaryDirectory + "/" + name
        let image = RasterImage(width: width, height: height, fill: color)
        try? image.writePNG(path: path)
        return path
    }

    static let square = png("square.png", width: 20, height: 20, color: .systemBlue)
    static let squareAt2x = png("square-retina@2x.png", width: 40, height: 40, color: .systemBlue)
    static let wide = png("wide.png", width: 36, height: 20, color: .systemGreen)
    static let banner = png("banner.png", width: 120, height: 40, color: .systemOrange)

    func layout(_ path: String, configure: (inout ListContentConfiguration) -> Void = { _ in }) -> ListContentLayout {
        var c = ListContentConfiguration.cell()
        c.image = Image(path: path)
        c.text = "Text"
        configure(&c)
        return ListContentLayout(configuration: c, width: 320, context: LayoutContext(traits: .default, textMeasurer: Fixtures.engine))
    }

    @Test func theRendererReadsSizesFromThePNGHeaderAndTheScaleFromTheName() throws {
        #expect(Fixtures.engine.imageSize(atPath: Self.square) == Size(width: 20, height: 20))
        #expect(Fixtures.engine.imageSize(atPath: Self.squareAt2x) == Size(width: 20, height: 20))
        #expect(Fixtures.engine.imageSize(atPath: Self.banner) == Size(width: 120, height: 40))
        #expect(Fixtures.engine.imageSize(atPath: Fixtures.temporaryDirectory + "/missing.png") == nil)
        let notPNG = Fixtures.temporaryDirectory + "/not-a.png"
        try "not a png, but long enough to hold a header".write(toFile: notPNG, atomically: true, encoding: .utf8)
        #expect(Fixtures.engine.imageSize(atPath: notPNG) == nil)
    }

    @Test func aBitmapImageLaysOutAtItsOwnSize() {
        #expect(layout(Self.square).imageFrame?.size == Size(width: 20, height: 20))
        #expect(layout(Self.squareAt2x).imageFrame?.size == Size(width: 20, height: 20))
        #expect(layout(Self.banner).imageFrame?.size == Size(width: 120, height: 40))
        // Without a reservation the text starts after the image's own width.
        let padding = ListContentConfiguration.cell().imageToTextPadding
        #expect(layout(Self.wide).textFrame!.minX == 16 + 36 + padding)
    }

    @Test func maximumSizeAspectFitsExactly() {
        let fitted = layout(Self.banner) { $0.imageProperties.maximumSize = Size(width: 30, height: 30) }
        #expect(fitted.imageFrame?.size == Size(width: 30, height: 10))
        let byHeight = layout(Self.banner) { $0.imageProperties.maximumSize = Size(width: 0, height: 30) }
        #expect(byHeight.imageFrame?.size == Size(width: 90, height: 30))
        let small = layout(Self.square) { $0.imageProperties.maximumSize = Size(width: 30, height: 30) }
        #expect(small.imageFrame?.size == Size(width: 20, height: 20), "a maximum never enlarges")
    }

    /// Three rows without a reservation (their text starts wherever their image ends), then the
    /// same three with `reservedLayoutSize` 36 pt wide (their text lines up).
    @Test func reservedLayoutSizeAlignsAColumnGolden() {
        let images: [(String, Size)] = [(Self.square, .zero), (Self.wide, .zero), (Self.banner, Size(width: 30, height: 30))]
        let width = 320.0
        let context = LayoutContext(traits: .default, textMeasurer: Fixtures.engine)
        var list = DisplayList()
        var y = 0.0
        var textStarts: [[Double]] = [[], []]
        for (column, reserved) in [0.0, 36].enumerated() {
            for (path, maximum) in images {
                var c = ListContentConfiguration.cell()
                c.image = Image(path: path)
                c.imageProperties.maximumSize = maximum
                c.imageProperties.reservedLayoutSize = Size(width: reserved, height: 0)
                c.text = reserved > 0 ? "Reserved 36 pt" : "Own width"
                let view = ListContentView(configuration: c)
                let height = view.sizeThatFits(Size(width: width, height: 0), context: context).height
                let frame = Rect(x: 0, y: y, width: width, height: height)
                list.append(.fill(Rect(x: 16, y: y + height - 0.5, width: width - 16, height: 0.5), .separator))
                view.draw(in: frame, context: context, into: &list)
                textStarts[column].append(ListContentLayout(configuration: c, width: width, context: context).textFrame!.minX)
                y += height
            }
        }
        #expect(Set(textStarts[0]).count == 3, "misaligned without a reservation: \(textStarts[0])")
        #expect(Set(textStarts[1]).count == 1, "aligned with one: \(textStarts[1])")
        goldens.check(Fixtures.render(list, size: Size(width: width, height: y), scale: 2), "reserved-layout-size@2x")
    }
}
