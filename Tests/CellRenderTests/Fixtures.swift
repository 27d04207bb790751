import CellKit
import CellTestSupport
import Foundation
@testable import CellRender

/// Shared by the render tests: one text engine (opening fonts is the slow part) and helpers.
enum Fixtures {
    static let engine: TextEngine = {
        do { return try TextEngine() } catch { fatalError("DejaVu Sans must be installed for render tests: \(error)") }
    }()

    /// Renders `list` alone on `background` at `scale` and returns the frame.
    static func render(_ list: DisplayList, size: Size, scale: Int = 1, background: Color = .white) -> RasterImage {
        let compositor = Compositor(viewport: size, scale: scale, background: background, textEngine: engine)
        compositor.setLayer(1, frame: Rect(origin: .zero, size: size), content: list)
        _ = compositor.renderFrame()
        return compositor.snapshot()
    }

    /// Bounding box of pixels that differ from `background`, nil when none do.
    static func inkBounds(_ image: RasterImage, background: Color = .white) -> PixelRect? {
        image.differenceBounds(to: RasterImage(width: image.width, height: image.height, fill: background))
    }

    static let temporaryDirectory = BuiltProducts.temporaryDirectory(prefix: "cellrender-tests")
}

/// The reference frames in `Goldens/` beside this file.
let goldens = GoldenImages()
