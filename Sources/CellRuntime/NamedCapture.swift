import CellKit
import CellRender

extension Engine {
    /// Room around a cell capture, in points: the separator and the rounded corners of an inset
    /// grouped cell lie at its edges, and a crop flush with the frame would cut them.
    public static let cellCaptureMargin = 8.0

    /// Writes the named captures of the event just processed as `<name><suffix>.png`: the whole
    /// viewport, or one cell's frame plus `cellCaptureMargin` (clipped to the viewport). Named
    /// files do not depend on how many frames came before, so references stay valid when a
    /// stream gains an event. A cell off screen is bad input (at the capture's line); a file that
    /// cannot be written is remembered for `finish()`, as a frame that cannot be.
    func writePendingCaptures(line: Int) throws(EngineError) {
        defer { pendingCaptures.removeAll(keepingCapacity: true) }
        guard let directory = options.capturesDirectory, let image = renderer.capturedImage() else { return }
        for capture in pendingCaptures {
            var picture = image
            if let cell = capture.cell {
                let crop = try cropRect(ofCell: cell, capture: capture.name, line: line, imageWidth: image.width,
                                        imageHeight: image.height)
                picture = image.cropped(to: crop)
            }
            let path = directory + "/" + capture.name + options.captureSuffix + ".png"
            do { try picture.writePNG(path: path) } catch {
                if captureWriteFailure == nil { captureWriteFailure = error.description }
            }
        }
    }

    /// The pixels of `cell`'s frame on screen, grown by the margin and clipped to the image.
    private func cropRect(ofCell cell: String, capture: String, line: Int, imageWidth: Int, imageHeight: Int)
        throws(EngineError) -> PixelRect {
        let row = try row(for: .cell(cell))
        guard try visibleRows().contains(where: { $0 === row }) else {
            throw EngineError("capture \"\(capture)\": cell \"\(cell)\" is not on screen; scroll to it first", line: line)
        }
        let frame = row.frame.offsetBy(dx: 0, dy: -contentOffset)
        let m = Engine.cellCaptureMargin
        let grown = Rect(x: frame.minX - m, y: frame.minY - m, width: frame.width + 2 * m, height: frame.height + 2 * m)
        return PixelRect(covering: grown, scale: scene.scale)
            .intersection(PixelRect(x: 0, y: 0, width: imageWidth, height: imageHeight))
    }
}

extension RasterImage {
    /// The pixels inside `rect` (which lies within the image) as an image of their own.
    func cropped(to rect: PixelRect) -> RasterImage {
        var pixels: [UInt32] = []
        pixels.reserveCapacity(rect.area)
        for y in rect.y..<rect.maxY {
            pixels += self.pixels[(y * width + rect.x)..<(y * width + rect.maxX)]
        }
        return RasterImage(width: rect.width, height: rect.height, pixels: pixels)
    }
}
