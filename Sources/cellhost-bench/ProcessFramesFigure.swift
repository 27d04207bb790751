import CellIO
import CellRender
import CPNGStripDeflate
import CZlib
import Glibc

/// `cellhost run --frames` as a user runs it: the executable as a child process (default worker
/// mode), a generated stream of single-row state changes over a 1,000-item list, each repainting
/// one row. The CPU a frame costs (the run with frames minus the same run without) is compared
/// with deflating the 32-row strips of the frame that changed with cellhost's own strip
/// deflater (zlib level 1 of the same strips beside it); the PNG bytes with zlib level 1 of the
/// same frames' raw scanlines (RGB, filter 0). Both references are measured here on the frames
/// the run wrote, decoded.
extension Figures {
    func processFrames() throws -> FigureLine {
        let cellhost = executable.lastIndex(of: "/").map { String(executable[..<$0]) + "/cellhost" } ?? "cellhost"
        guard access(cellhost, X_OK) == 0 else { throw BenchError("\(cellhost) is not built") }
        guard let dir = makeTemporaryDirectory(prefix: "cellhost-bench-process-frames") else {
            throw BenchError("cannot create a temporary directory in /tmp")
        }
        defer { _ = system("rm -rf '\(dir)'") }
        let events = n(12, 400)
        var lines = [list.stream(items: 1000)]
        for i in 0..<events {
            // Rows 0…5 are on screen; each event turns one highlight on or off.
            lines.append(#"{"cell": "item\#((i / 2) % 6)", "highlighted": \#(i % 2 == 0)}"#)
        }
        let stream = dir + "/changes.jsonl"
        try FileCopy.write(Array((lines.joined(separator: "\n") + "\n").utf8), to: stream)

        /// CPU seconds (user + system) of `cellhost run` and its worker.
        func run(frames: String?) throws -> Double {
            let before = childCPUSeconds()
            var command = "'\(cellhost)' run --quiet --events '\(stream)'"
            if let frames { command += " --frames '\(frames)'" }
            guard system(command + " >/dev/null 2>&1") == 0 else { throw BenchError("\(command) failed") }
            return childCPUSeconds() - before
        }
        let rounds = n(1, 3)
        var withFrames: [Double] = [], without: [Double] = []
        let framesDir = dir + "/frames"
        for _ in 0..<rounds {
            _ = system("rm -rf '\(framesDir)'")
            withFrames.append(try run(frames: framesDir))
            without.append(try run(frames: nil))
        }
        let files = (directoryEntries(framesDir) ?? []).filter { $0.hasPrefix("frame-") && $0.hasSuffix(".png") }.sorted()
        guard files.count > 1 else { throw BenchError("the run wrote \(files.count) frame(s)") }
        let cpuPerFrame = max(0, Samples(withFrames).p50 - Samples(without).p50) / Double(files.count)
        let cpuPerFrameWhole = Samples(withFrames).p50 / Double(files.count)

        // The reference, on the frames the run wrote: zlib level 1 of each frame's changed strips
        // (timed), and of each whole frame (its size).
        var pngBytes = 0, zlibBytes = 0
        var deflateSeconds = 0.0, zlibStripSeconds = 0.0
        var previous: RasterImage?
        guard let deflater = cellhost_strip_deflater_create() else { throw BenchError("cannot allocate a strip deflater") }
        defer { cellhost_strip_deflater_destroy(deflater) }
        let clock = ContinuousClock()
        for name in files {
            let path = framesDir + "/" + name
            var status = stat()
            guard stat(path, &status) == 0 else { throw BenchError("cannot stat \(path)") }
            pngBytes += Int(status.st_size)
            let image = try RasterImage.decodePNG(path: path)
            let scanlines = ZlibReference.scanlines(of: image)
            zlibBytes += try ZlibReference.deflatedSize(scanlines)
            if let previous, previous.width == image.width, previous.height == image.height {
                let strips = ZlibReference.changedStrips(previous, image, stripHeight: 32)
                let rowBytes = 1 + 3 * image.width
                var start = clock.now
                for rows in strips {
                    _ = try scanlines.withUnsafeBufferPointer { all in
                        try ZlibReference.deflatedSize(UnsafeBufferPointer(rebasing: all[(rows.lowerBound * rowBytes)..<(rows.upperBound * rowBytes)]))
                    }
                }
                zlibStripSeconds += (clock.now - start).seconds
                let capacity = cellhost_strip_bound(cellhost_strip_scanline_bytes(UInt32(image.width), 32, 3))
                var out = [UInt8](repeating: 0, count: capacity)
                start = clock.now
                for rows in strips {
                    var adler: UInt32 = 1, opaque: Int32 = 0
                    let length = image.pixels.withUnsafeBufferPointer { pixels in
                        cellhost_deflate_strip(deflater, pixels.baseAddress! + rows.lowerBound * image.width, image.width, UInt32(image.width),
                                               UInt32(rows.count), 3, rows.upperBound == image.height ? 1 : 0, &out, capacity, &adler, &opaque)
                    }
                    guard length > 0 else { throw BenchError("the strip deflater failed") }
                }
                deflateSeconds += (clock.now - start).seconds
            }
            previous = image
        }
        let deflatePerFrame = deflateSeconds / Double(files.count - 1)
        let zlibStripsPerFrame = zlibStripSeconds / Double(files.count - 1)
        let timeRatio = cpuPerFrame / deflatePerFrame
        let sizeRatio = Double(pngBytes) / Double(zlibBytes)
        return FigureLine(
            name: "cellhost run --frames as a process (one row repainted per event)",
            measured: "CPU per frame \(Format.time(cpuPerFrame)) over the same run without frames (\(Format.time(cpuPerFrameWhole)) with everything; \(files.count) frames); PNG bytes \(Format.count(Double(pngBytes)))",
            reference: "deflating the frame's changed 32-row strips \(Format.time(deflatePerFrame)) per frame (zlib level 1: \(Format.time(zlibStripsPerFrame)), CPU per frame ÷ that \(Format.fixed(cpuPerFrame / zlibStripsPerFrame, 2))×); zlib level 1 of the same frames' scanlines \(Format.count(Double(zlibBytes))) bytes (PNG ÷ zlib-1 bytes \(Format.fixed(sizeRatio, 2))×)",
            ratio: timeRatio,
            target: "CPU ≤ 2× deflate, bytes ≤ 1.2× zlib-1",
            met: timeRatio <= 2 && sizeRatio <= 1.2)
    }

    /// CPU seconds of every child process waited for so far (the runs and their workers).
    func childCPUSeconds() -> Double {
        var usage = rusage()
        getrusage(RUSAGE_CHILDREN.rawValue, &usage)
        return Double(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec) + Double(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) / 1e6
    }
}

/// zlib at level 1 on PNG scanlines: the reference PNG sizes and deflate times are measured against.
enum ZlibReference {
    /// The image as PNG scanlines: RGB, each row led by filter byte 0 (none).
    static func scanlines(of image: RasterImage) -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: image.height * (1 + 3 * image.width))
        var o = 0
        for y in 0..<image.height {
            bytes[o] = 0
            o += 1
            for x in 0..<image.width {
                let p = image.rgba(x: x, y: y)
                bytes[o] = p.red; bytes[o + 1] = p.green; bytes[o + 2] = p.blue
                o += 3
            }
        }
        return bytes
    }

    static func deflatedSize(_ bytes: [UInt8]) throws -> Int {
        try bytes.withUnsafeBufferPointer { try deflatedSize($0) }
    }

    /// The size of `bytes` compressed by zlib at level 1.
    static func deflatedSize(_ bytes: UnsafeBufferPointer<UInt8>) throws -> Int {
        var capacity = compressBound(uLong(bytes.count))
        var output = [UInt8](repeating: 0, count: Int(capacity))
        let status = compress2(&output, &capacity, bytes.baseAddress, uLong(bytes.count), 1)
        guard status == Z_OK else { throw BenchError("zlib compress2 failed (\(status))") }
        return Int(capacity)
    }

    /// Row ranges of the `stripHeight`-row strips in which `a` and `b` differ.
    static func changedStrips(_ a: RasterImage, _ b: RasterImage, stripHeight: Int) -> [Range<Int>] {
        var strips: [Range<Int>] = []
        var top = 0
        while top < a.height {
            let rows = top..<min(a.height, top + stripHeight)
            let start = rows.lowerBound * a.width, end = rows.upperBound * a.width
            if a.pixels[start..<end] != b.pixels[start..<end] { strips.append(rows) }
            top += stripHeight
        }
        return strips
    }
}
