import CPixman
import CellKit

/// A premultiplied ARGB32 pixman image owning its pixels: the framebuffer, layer rasters and
/// group (clip/alpha) buffers; or a view of a rectangle of another buffer's pixels (an opaque
/// layer drawn straight into the framebuffer, with the coordinates its own buffer would have).
final class PixelBuffer {
    let width: Int, height: Int
    /// Pixels from one row to the next (the owner's width for a view).
    let stride: Int
    let pixels: UnsafeMutablePointer<UInt32>
    let image: OpaquePointer
    /// The buffer a view's pixels belong to (kept alive by the view); nil when this one owns them.
    private let owner: PixelBuffer?

    init(width: Int, height: Int) {
        self.width = max(1, width)
        self.height = max(1, height)
        stride = self.width
        owner = nil
        pixels = .allocate(capacity: self.width * self.height)
        pixels.initialize(repeating: 0, count: self.width * self.height)
        image = pixman_image_create_bits(PIXMAN_a8r8g8b8, Int32(self.width), Int32(self.height), pixels,
                                         Int32(self.width * 4))!
    }

    /// A view of `rect` (inside `owner`'s bounds, not empty) of `owner`'s pixels.
    init(viewOf owner: PixelBuffer, rect: PixelRect) {
        precondition(owner.bounds.contains(rect) && !rect.isEmpty, "a view lies inside its buffer")
        self.owner = owner
        width = rect.width
        height = rect.height
        stride = owner.stride
        pixels = owner.pixels + rect.y * owner.stride + rect.x
        image = pixman_image_create_bits(PIXMAN_a8r8g8b8, Int32(width), Int32(height), pixels, Int32(stride * 4))!
    }

    deinit {
        pixman_image_unref(image)
        if owner == nil { pixels.deallocate() }
    }

    var bounds: PixelRect { PixelRect(x: 0, y: 0, width: width, height: height) }

    func clear() {
        guard stride != width else { pixels.update(repeating: 0, count: width * height); return }
        for y in 0..<height { (pixels + y * stride).update(repeating: 0, count: width) }
    }

    /// Sets every pixel of `rect` (clipped to the buffer, not to its clip region) to `argb`:
    /// `pixman_fill` straight into the pixels, what a `SRC` fill of the colour writes there,
    /// without the boxes, region and clip a fill through the image costs.
    func fill(_ rect: PixelRect, argb: UInt32) {
        let r = rect.intersection(bounds)
        guard !r.isEmpty else { return }
        _ = pixman_fill(pixels, Int32(stride), 32, Int32(r.x), Int32(r.y), Int32(r.width), Int32(r.height), argb)
    }

    /// Restricts every following composite into this buffer to `rect` (nil = no clip).
    func setClip(_ rect: PixelRect?) {
        guard let rect else { pixman_image_set_clip_region32(image, nil); return }
        var region = pixman_region32_t()
        pixman_region32_init_rect(&region, Int32(rect.x), Int32(rect.y), UInt32(max(0, rect.width)), UInt32(max(0, rect.height)))
        pixman_image_set_clip_region32(image, &region)
        pixman_region32_fini(&region)
    }

    func snapshot() -> RasterImage {
        guard stride != width else {
            return RasterImage(width: width, height: height, pixels: Array(UnsafeBufferPointer(start: pixels, count: width * height)))
        }
        var copy: [UInt32] = []
        copy.reserveCapacity(width * height)
        for y in 0..<height { copy.append(contentsOf: UnsafeBufferPointer(start: pixels + y * stride, count: width)) }
        return RasterImage(width: width, height: height, pixels: copy)
    }
}

/// A solid pixman source of a premultiplied colour.
func makeSolidSource(_ argb: UInt32) -> OpaquePointer {
    var color = pixman_color_t(red: UInt16((argb >> 16) & 0xFF) * 257, green: UInt16((argb >> 8) & 0xFF) * 257,
                               blue: UInt16(argb & 0xFF) * 257, alpha: UInt16(argb >> 24) * 257)
    return pixman_image_create_solid_fill(&color)!
}

/// Fills boxes of `buffer` with a premultiplied colour, honouring its clip region.
func fillBoxes(_ buffer: PixelBuffer, _ boxes: [PixelRect], argb: UInt32, op: pixman_op_t) {
    var color = pixman_color_t(red: UInt16((argb >> 16) & 0xFF) * 257, green: UInt16((argb >> 8) & 0xFF) * 257,
                               blue: UInt16(argb & 0xFF) * 257, alpha: UInt16(argb >> 24) * 257)
    var pixmanBoxes = boxes.filter { !$0.isEmpty }.map {
        pixman_box32_t(x1: Int32($0.x), y1: Int32($0.y), x2: Int32($0.maxX), y2: Int32($0.maxY))
    }
    guard !pixmanBoxes.isEmpty else { return }
    pixman_image_fill_boxes(op, buffer.image, &color, Int32(pixmanBoxes.count), &pixmanBoxes)
}
