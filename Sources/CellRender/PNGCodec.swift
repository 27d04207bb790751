import CPNG
import Glibc

/// A PNG that could not be read or written, naming the file and libpng's reason.
public struct PNGError: Error, CustomStringConvertible, Equatable {
    public var path: String
    public var reason: String
    public var description: String { "\(path): \(reason)" }
}

extension RasterImage {
    /// Decodes any PNG libpng reads (palette, grey, 16-bit…) into premultiplied ARGB.
    /// Uses libpng's simplified API, which reports errors in the image struct instead of longjmp.
    /// Only a regular file is read, opened without blocking: a FIFO would stop the worker until
    /// something wrote to it, and a device such as /dev/zero never ends.
    public static func decodePNG(path: String) throws(PNGError) -> RasterImage {
        let descriptor = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
        guard descriptor >= 0 else { throw PNGError(path: path, reason: String(cString: strerror(errno))) }
        var status = stat()
        guard fstat(descriptor, &status) == 0, status.st_mode & S_IFMT == S_IFREG, let file = fdopen(descriptor, "rb") else {
            close(descriptor)
            throw PNGError(path: path, reason: "not a regular file (a folder, FIFO or device); images are read from PNG files")
        }
        defer { fclose(file) }
        var image = png_image()
        image.version = cellhost_png_image_version()
        guard png_image_begin_read_from_stdio(&image, file) != 0 else {
            throw PNGError(path: path, reason: pngMessage(&image, fallback: "cannot read PNG header"))
        }
        image.format = cellhost_png_format_bgra()
        let width = Int(image.width), height = Int(image.height)
        guard width > 0, height > 0, width * height <= 64 * 1024 * 1024 else {
            png_image_free(&image)
            throw PNGError(path: path, reason: "unsupported size \(width)×\(height)")
        }
        var bytes = [UInt8](repeating: 0, count: width * height * 4)
        let ok = bytes.withUnsafeMutableBytes { png_image_finish_read(&image, nil, $0.baseAddress, Int32(width * 4), nil) }
        guard ok != 0 else {
            let reason = pngMessage(&image, fallback: "cannot decode PNG data")
            png_image_free(&image)
            throw PNGError(path: path, reason: reason)
        }
        var pixels = [UInt32](repeating: 0, count: width * height)
        bytes.withUnsafeBufferPointer { src in
            pixels.withUnsafeMutableBufferPointer { cellhost_premultiply_bgra(src.baseAddress, $0.baseAddress, $0.count) }
        }
        return RasterImage(width: width, height: height, pixels: pixels)
    }

    /// Encodes the image as an 8-bit PNG (RGB when every pixel is opaque, else RGBA with straight
    /// alpha), no tIME chunk, into a partial file that is put in place at `path` only once
    /// complete (`FileReplacer`). One-off images take the same strip encoder as frames, all strips.
    public func writePNG(path: String) throws(PNGError) {
        try PNGStripEncoder().write(self, changed: nil, to: path)
    }
}

private func pngMessage(_ image: inout png_image, fallback: String) -> String {
    let message = withUnsafeBytes(of: &image.message) { raw -> String in
        let chars = raw.bindMemory(to: CChar.self)
        let end = chars.firstIndex(of: 0) ?? chars.count
        return String(decoding: raw.prefix(end), as: UTF8.self)
    }
    return message.isEmpty ? fallback : message
}
