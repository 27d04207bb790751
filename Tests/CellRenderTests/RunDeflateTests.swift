import CPNGStripDeflate
import CZlib
import CellKit
import Foundation
import Testing
@testable import CellRender

/// The frame encoder's own deflate (matches to the left and above only, the cheapest of dynamic
/// Huffman, fixed Huffman and stored blocks) and its Adler-32 over opaque pixels: zlib must
/// inflate every stream to exactly the scanlines, with the checksum the stream carries.
@Suite struct RunDeflateTests {
    /// PNG scanlines of opaque pixels: filter byte 0, then R, G, B per pixel.
    private func rgbScanlines(_ image: RasterImage) -> [UInt8] {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(image.height * (1 + 3 * image.width))
        for y in 0..<image.height {
            bytes.append(0)
            for x in 0..<image.width {
                let p = image[x, y]
                bytes += [UInt8(truncatingIfNeeded: p >> 16), UInt8(truncatingIfNeeded: p >> 8), UInt8(truncatingIfNeeded: p)]
            }
        }
        return bytes
    }

    /// The zlib stream of a PNG file: its IDAT chunks' data, concatenated.
    private func zlibStream(of png: [UInt8]) -> [UInt8] {
        var stream: [UInt8] = [], offset = 8
        while offset + 8 <= png.count {
            let length = png[offset..<offset + 4].reduce(0) { $0 << 8 | Int($1) }
            if png[offset + 4..<offset + 8].elementsEqual("IDAT".utf8) { stream += png[offset + 8..<offset + 8 + length] }
            offset += 12 + length
        }
        return stream
    }

    /// zlib's inflate of the stream (which checks its Adler-32), or nil when zlib refuses it.
    private func inflate(_ stream: [UInt8], expectedCount: Int) -> [UInt8]? {
        var out = [UInt8](repeating: 0, count: expectedCount + 1)
        var length = uLongf(out.count)
        let status = out.withUnsafeMutableBufferPointer { o in
            stream.withUnsafeBufferPointer { uncompress(o.baseAddress, &length, $0.baseAddress, uLong($0.count)) }
        }
        guard status == Z_OK else { return nil }
        return Array(out.prefix(Int(length)))
    }

    private func decode(_ bytes: [UInt8], name: String) throws -> RasterImage {
        let path = Fixtures.temporaryDirectory + "/" + name
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        return try RasterImage.decodePNG(path: path)
    }

    /// Rows made of runs whose lengths straddle deflate's 258-byte match limit (86 RGB pixels,
    /// 64½ RGBA), from a small palette so runs repeat to the left; about half the rows repeat the
    /// row above with a patch, so matches above start and stop mid-row.
    private func runImage(width: Int, height: Int, opaque: Bool, _ g: inout SeededGenerator) -> RasterImage {
        let lengths = [1, 2, 3, 4, 64, 65, 85, 86, 87, 88, 172, 173, 259, 400]
        let palette: [UInt32] = opaque
            ? [0xFFFF_FFFF, 0xFF00_0000, 0xFF12_3456, 0xFFF2_F2F7, 0xFF90_9090]
            : [0xFFFF_FFFF, 0x8040_2010, 0x0000_0000, 0x7F7F_7F7F, 0x0401_0203]
        var image = RasterImage(width: width, height: height)
        for y in 0..<height {
            if y > 0 && Bool.random(using: &g) {
                for x in 0..<width { image[x, y] = image[x, y - 1] }
                let start = Int.random(in: 0..<width, using: &g)
                for x in start..<min(width, start + Int.random(in: 1...90, using: &g)) {
                    image[x, y] = palette.randomElement(using: &g)!
                }
                continue
            }
            var x = 0
            while x < width {
                let color = palette.randomElement(using: &g)!
                for _ in 0..<min(width - x, lengths.randomElement(using: &g)!) { image[x, y] = color; x += 1 }
            }
        }
        return image
    }

    @Test func adlerOverOpaquePixelsEqualsZlibsOverTheScanlines() {
        var g = SeededGenerator(state: 5)
        for width in [1, 2, 7, 780, 2048, 2049, 5000] {
            for rows in [1, 3] {
                var image = RasterImage(width: width, height: rows)
                for y in 0..<rows { for x in 0..<width { image[x, y] = 0xFF00_0000 | UInt32.random(in: 0...0xFF_FFFF, using: &g) } }
                let bytes = rgbScanlines(image)
                let expected = bytes.withUnsafeBufferPointer { UInt32(adler32(1, $0.baseAddress, uInt($0.count))) }
                var opaque: Int32 = 0
                let fromPixels = image.pixels.withUnsafeBufferPointer {
                    cellhost_adler32_rgb_rows(1, $0.baseAddress, width, UInt32(width), UInt32(rows), &opaque)
                }
                #expect(fromPixels == expected, "\(width)×\(rows)")
                #expect(opaque == 1)
                // One translucent pixel anywhere (here the last, past every block of eight) is seen.
                image[width - 1, rows - 1] = 0xFE00_0000
                _ = image.pixels.withUnsafeBufferPointer {
                    cellhost_adler32_rgb_rows(1, $0.baseAddress, width, UInt32(width), UInt32(rows), &opaque)
                }
                #expect(opaque == 0, "\(width)×\(rows)")
            }
        }
        // White rows: the sums are at their largest.
        let white = RasterImage(width: 4000, height: 2, fill: .white)
        let bytes = rgbScanlines(white)
        var opaque: Int32 = 0
        #expect(white.pixels.withUnsafeBufferPointer { cellhost_adler32_rgb_rows(1, $0.baseAddress, 4000, 4000, 2, &opaque) }
                == bytes.withUnsafeBufferPointer { UInt32(adler32(1, $0.baseAddress, uInt($0.count))) })
    }

    /// The processor-specific builds of the checksum (eight lanes for AVX2, sixteen for AVX-512,
    /// each run only where the processor has it) give zlib's Adler-32 at widths around their blocks.
    @Test func everyBuildOfTheChecksumEqualsZlibs() {
        var g = SeededGenerator(state: 17)
        for width in [1, 7, 8, 9, 15, 16, 17, 33, 780, 2047, 2048, 2049, 4111] {
            let rows = 3
            var image = RasterImage(width: width, height: rows)
            for y in 0..<rows { for x in 0..<width { image[x, y] = 0xFF00_0000 | UInt32.random(in: 0...0xFF_FFFF, using: &g) } }
            for x in 0..<width { image[x, 2] = image[x, 1] }  // a row equal to the one above
            let expected = rgbScanlines(image).withUnsafeBufferPointer { UInt32(adler32(1, $0.baseAddress, uInt($0.count))) }
            var builds: [(String, (UnsafePointer<UInt32>, UnsafeMutablePointer<Int32>, UnsafeMutablePointer<UInt64>) -> UInt32)] = [
                ("baseline", { cellhost_adler32_rgb_rows_marking(1, $0, width, UInt32(width), UInt32(rows), $1, $2) }),
            ]
            if cellhost_cpu_has_avx2() != 0 {
                builds.append(("AVX2", { cellhost_adler32_rgb_rows_avx2(1, $0, width, UInt32(width), UInt32(rows), $1, $2) }))
            }
            if cellhost_cpu_has_avx512() != 0 {
                builds.append(("AVX-512", { cellhost_adler32_rgb_rows_avx512(1, $0, width, UInt32(width), UInt32(rows), $1, $2) }))
            }
            for (name, build) in builds {
                var opaque: Int32 = 0, marks: UInt64 = 0
                let adler = image.pixels.withUnsafeBufferPointer { build($0.baseAddress!, &opaque, &marks) }
                #expect(adler == expected && opaque == 1, "\(name), width \(width)")
                #expect(marks == 0b100, "\(name), width \(width)")
            }
        }
    }

    /// Rows equal to the row above reuse its sums: runs of equal rows, a row that returns to an
    /// earlier one, and rows that differ only in their last pixel.
    @Test func adlerOverRepeatedRowsEqualsZlibs() {
        var g = SeededGenerator(state: 9)
        for width in [1, 9, 780, 2049] {
            let patterns: [UInt32] = (0..<4).map { _ in 0xFF00_0000 | UInt32.random(in: 0...0xFF_FFFF, using: &g) }
            let order = [0, 0, 1, 1, 1, 0, 2, 2, 3, 0, 0]
            var image = RasterImage(width: width, height: order.count)
            for (y, p) in order.enumerated() {
                for x in 0..<width { image[x, y] = patterns[p] ^ UInt32((x * 7) & 0x3F) }
            }
            image[width - 1, 4] ^= 0x0000_0101  // row 4 differs from row 3 in its last pixel only
            let bytes = rgbScanlines(image)
            var opaque: Int32 = 0
            let fromPixels = image.pixels.withUnsafeBufferPointer {
                cellhost_adler32_rgb_rows(1, $0.baseAddress, width, UInt32(width), UInt32(order.count), &opaque)
            }
            #expect(fromPixels == bytes.withUnsafeBufferPointer { UInt32(adler32(1, $0.baseAddress, uInt($0.count))) }, "width \(width)")
            #expect(opaque == 1)
        }
    }

    /// The checksum pass marks the rows equal to the row above, and the deflater given those marks
    /// writes the same bytes as when it compares the rows itself.
    @Test func rowsMarkedEqualByTheChecksumPassDeflateAsComparedAgain() {
        var g = SeededGenerator(state: 13)
        for (width, rows) in [(1, 11), (9, 11), (780, 32), (2049, 64)] {
            let patterns: [UInt32] = (0..<3).map { _ in 0xFF00_0000 | UInt32.random(in: 0...0xFF_FFFF, using: &g) }
            var image = RasterImage(width: width, height: rows)
            for y in 0..<rows {
                let p = patterns[[0, 0, 1, 1, 1, 0, 2][y % 7]]
                for x in 0..<width { image[x, y] = p ^ UInt32((x * 5) & 0x1F) }
            }
            image[width - 1, 3] ^= 0x0000_0101  // row 3 differs from row 2 in its last pixel only
            var expected: UInt64 = 0
            for y in 1..<rows where (0..<width).allSatisfy({ image[$0, y] == image[$0, y - 1] }) { expected |= 1 << UInt64(y) }
            var opaque: Int32 = 0, marks: UInt64 = 0
            let adler = image.pixels.withUnsafeBufferPointer {
                cellhost_adler32_rgb_rows_marking(1, $0.baseAddress, width, UInt32(width), UInt32(rows), &opaque, &marks)
            }
            #expect(marks == expected, "\(width)×\(rows)")
            #expect(adler == rgbScanlines(image).withUnsafeBufferPointer { UInt32(adler32(1, $0.baseAddress, uInt($0.count))) })
            let bound = cellhost_run_deflate_bound(rows * (1 + 3 * width))
            let workspace = cellhost_run_deflate_workspace_create()
            defer { cellhost_run_deflate_workspace_destroy(workspace) }
            func deflated(_ marks: UnsafePointer<UInt64>?) -> [UInt8] {
                var out = [UInt8](repeating: 0, count: bound)
                let count = image.pixels.withUnsafeBufferPointer { p in
                    out.withUnsafeMutableBufferPointer {
                        cellhost_run_deflate(workspace, p.baseAddress, width, UInt32(width), UInt32(rows), 3, nil, 1, marks, $0.baseAddress)
                    }
                }
                return Array(out.prefix(count))
            }
            let marked = withUnsafePointer(to: &marks) { deflated($0) }, compared = deflated(nil)
            let same = marked == compared  // a Bool: on a failure, a diff of the bytes would take minutes
            #expect(same, "\(width)×\(rows): \(marked.count) bytes against \(compared.count)")
        }
    }

    @Test func runsOfEveryLengthAboveAndToTheLeftInflateExactly() throws {
        var g = SeededGenerator(state: 19)
        for stripHeight in [1, 16, 32] {
            let opaque = runImage(width: 701, height: 70, opaque: true, &g)
            let bytes = try PNGStripEncoder(stripHeight: stripHeight).encodedBytes(opaque, changed: nil)
            let scanlines = rgbScanlines(opaque)
            #expect(inflate(zlibStream(of: bytes), expectedCount: scanlines.count) == scanlines, "strips of \(stripHeight)")
            #expect(try decode(bytes, name: "runs-opaque.png") == opaque)

            let translucent = runImage(width: 333, height: 70, opaque: false, &g)
            let rgba = try PNGStripEncoder(stripHeight: stripHeight).encodedBytes(translucent, changed: nil)
            #expect(rgba[25] == 6)
            #expect(inflate(zlibStream(of: rgba), expectedCount: 70 * (1 + 4 * 333))?.count == 70 * (1 + 4 * 333))
            #expect(try decode(rgba, name: "runs-translucent.png").maxChannelDifference(to: translucent) <= 1)
        }
    }

    @Test func rowsWiderThanTheDeflateWindowMatchOnlyToTheLeft() throws {
        // 11,000 RGB pixels and 8,200 RGBA pixels make scanlines over 32,768 bytes: no copy from the row above.
        var g = SeededGenerator(state: 23)
        for (width, opaque) in [(11_000, true), (8_200, false)] {
            var image = runImage(width: width, height: 5, opaque: opaque, &g)
            for x in 0..<width { image[x, 3] = image[x, 2] }
            let bytes = try PNGStripEncoder(stripHeight: 4).encodedBytes(image, changed: nil)
            let count = 5 * (1 + (opaque ? 3 : 4) * width)
            let inflated = inflate(zlibStream(of: bytes), expectedCount: count)
            #expect(inflated?.count == count)
            if opaque { #expect(inflated == rgbScanlines(image)) }
            #expect(try decode(bytes, name: "runs-wide.png").maxChannelDifference(to: image) <= (opaque ? 0 : 1))
        }
    }

    @Test func flatFrameDeflatesToAFewBytesPerRow() throws {
        // A list-like frame: a grouped background with white rows and grey separators.
        var image = RasterImage(width: 780, height: 1688, fill: Color(red: 0.95, green: 0.95, blue: 0.97))
        for top in stride(from: 100, to: 1600, by: 88) {
            for y in top..<top + 87 { for x in 32..<748 { image[x, y] = 0xFFFF_FFFF } }
            for x in 64..<748 { image[x, top + 87] = 0xFFC6_C6C8 }
        }
        let bytes = try PNGStripEncoder().encodedBytes(image, changed: nil)
        #expect(bytes.count < 1688 * 40, "\(bytes.count) bytes for 1,688 rows")
        #expect(try decode(bytes, name: "runs-flat.png") == image)
    }
}
