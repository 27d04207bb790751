import CellRender

/// The picture of a mismatch: the expected image faded towards white, every differing pixel in
/// solid magenta on it, and the bounding box of the change outlined, so the eye lands on what
/// changed even when it is one glyph in a tall frame. Where the sizes differ, the canvas covers
/// both and the part only one image has counts as changed.
public enum DiffImage {
    static let marked: UInt32 = 0xFF_FF_00_FF
    static let box: UInt32 = 0xFF_00_7A_FF
    /// How much of the expected image's colour stays (out of 255): enough to recognise the cell.
    static let keep: UInt32 = 64

    public static func make(expected: RasterImage, actual: RasterImage, channelTolerance: Int,
                            bounds: PixelRect?) -> RasterImage {
        let width = max(expected.width, actual.width), height = max(expected.height, actual.height)
        var pixels = [UInt32](repeating: 0xFF_FF_FF_FF, count: width * height)
        for y in 0..<height {
            for x in 0..<width {
                let e = x < expected.width && y < expected.height ? expected[x, y] : nil
                let a = x < actual.width && y < actual.height ? actual[x, y] : nil
                guard let e, let a else { pixels[y * width + x] = marked; continue }
                if e != a, ImageComparison.channelDifference(e, a) > channelTolerance {
                    pixels[y * width + x] = marked
                } else {
                    pixels[y * width + x] = faded(e)
                }
            }
        }
        if let bounds { outline(bounds, in: &pixels, width: width, height: height) }
        return RasterImage(width: width, height: height, pixels: pixels)
    }

    /// The pixel over white, then mixed towards white keeping `keep`/255 of it (opaque result).
    static func faded(_ p: UInt32) -> UInt32 {
        let alpha = (p >> 24) & 0xFF
        var result: UInt32 = 0xFF00_0000
        for shift in [UInt32(16), 8, 0] {
            let over = ((p >> shift) & 0xFF) + (255 - alpha)  // premultiplied over white
            let mixed = (over * keep + 255 * (255 - keep) + 127) / 255
            result |= min(255, mixed) << shift
        }
        return result
    }

    /// A box two pixels wide just outside `rect` (inside the canvas).
    static func outline(_ rect: PixelRect, in pixels: inout [UInt32], width: Int, height: Int) {
        let x0 = max(0, rect.x - 2), x1 = min(width - 1, rect.maxX + 1)
        let y0 = max(0, rect.y - 2), y1 = min(height - 1, rect.maxY + 1)
        guard x0 <= x1, y0 <= y1 else { return }
        for x in x0...x1 {
            for y in [y0, y0 + 1, y1 - 1, y1] where y >= y0 && y <= y1 && pixels[y * width + x] != marked {
                pixels[y * width + x] = box
            }
        }
        for y in y0...y1 {
            for x in [x0, x0 + 1, x1 - 1, x1] where x >= x0 && x <= x1 && pixels[y * width + x] != marked {
                pixels[y * width + x] = box
            }
        }
    }
}
