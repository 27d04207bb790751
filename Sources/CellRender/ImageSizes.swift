import CellKit
import Glibc

/// Intrinsic sizes of PNG files, read from their header (no pixels are decoded) and kept by
/// path: layout asks once per configuration it lays out, drawing decodes the file separately.
final class ImageSizes: @unchecked Sendable {
    private let lock = Mutex()
    private var sizes: [String: Size?] = [:]

    /// The size in points: pixels over the scale the file name says (`name@2x.png`), as UIImage
    /// reads a file; nil when the file is missing or not a PNG.
    func size(atPath path: String) -> Size? {
        lock.withLock {
            if let known = sizes[path] { return known }
            let read = Self.readSize(path)
            sizes[path] = .some(read)
            return read
        }
    }

    /// The PNG signature, then the IHDR chunk whose first eight bytes are width and height (big-endian).
    static func readSize(_ path: String) -> Size? {
        guard let file = fopen(path, "rb") else { return nil }
        defer { fclose(file) }
        var header = [UInt8](repeating: 0, count: 24)
        guard fread(&header, 1, 24, file) == 24 else { return nil }
        guard header[0..<8] == [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A], header[12..<16] == [0x49, 0x48, 0x44, 0x52]
        else { return nil }
        func bigEndian(_ at: Int) -> Double { Double(header[at..<at + 4].reduce(UInt32(0)) { $0 << 8 | UInt32($1) }) }
        let scale = scale(ofFileNamed: path)
        return Size(width: bigEndian(16) / scale, height: bigEndian(20) / scale)
    }

    /// 2 for `name@2x.png`, 3 for `name@3x.png`, else 1.
    static func scale(ofFileNamed path: String) -> Double {
        let name = path.lowercased()
        for factor in [2, 3] where name.hasSuffix("@\(factor)x.png") { return Double(factor) }
        return 1
    }
}
