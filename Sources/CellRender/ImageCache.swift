import CPixman

/// Decoded PNG images by path, kept as pixman images; a failure is cached too, so a missing file
/// is reported once per frame instead of decoded again.
final class ImageCache {
    private var entries: [String: Result<PixelBuffer, PNGError>] = [:]

    func image(path: String) -> Result<PixelBuffer, PNGError> {
        if let cached = entries[path] { return cached }
        let result: Result<PixelBuffer, PNGError>
        do {
            let decoded = try RasterImage.decodePNG(path: path)
            let buffer = PixelBuffer(width: decoded.width, height: decoded.height)
            decoded.pixels.withUnsafeBufferPointer { buffer.pixels.update(from: $0.baseAddress!, count: $0.count) }
            pixman_image_set_repeat(buffer.image, PIXMAN_REPEAT_PAD)
            pixman_image_set_filter(buffer.image, PIXMAN_FILTER_BILINEAR, nil, 0)
            result = .success(buffer)
        } catch {
            result = .failure(error)
        }
        entries[path] = result
        return result
    }
}
