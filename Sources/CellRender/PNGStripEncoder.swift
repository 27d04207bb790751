import CZlib
import Dispatch
import Glibc

/// Encodes a sequence of frames as standalone PNG files, re-deflating only what changed.
///
/// The image data is deflated in independent horizontal strips of `stripHeight` rows, each a
/// raw-deflate segment from a fresh state ending on a byte boundary, so the segments concatenate
/// into one zlib stream (whose Adler-32 is combined from the strips'). Each strip is written as its
/// own IDAT chunk and kept, CRC included, until rows it covers change: a frame that differs from
/// the previous one in a few rows deflates a few strips and writes the others' bytes as they are.
/// Fully opaque frames are written as RGB (a quarter less data to deflate), others as RGBA with
/// straight alpha; both decode to the same pixels as the premultiplied source.
///
/// The encoder keeps its own copy of the frame as one buffer per strip, replaced strip by strip by
/// what each frame changed, so the caller hands over only changed strips and a change of colour
/// type (which re-deflates everything) still finds every row. Not thread-safe: one caller encodes
/// frames in order (their strips are deflated on `workers` threads at once).
final class PNGStripEncoder {
    /// Rows per strip: one highlighted row of cells re-deflates little more than itself, and the
    /// per-strip flush and chunk cost 17 bytes. 16-row strips measured slower on the default
    /// stream (BENCHMARKS.md, change 11).
    static let defaultStripHeight = 32

    let stripHeight: Int
    private let deflaters: [UnsafeMutablePointer<cellhost_strip_deflater>]
    private var strips: [Strip] = []
    private var width = 0, height = 0
    /// The frame as last updated, premultiplied ARGB: strip `i`'s rows, `width` pixels apart, in a
    /// buffer of `stripCapacity` pixels from `pool`.
    private var stripPixels: [UnsafeMutablePointer<UInt32>?] = []
    /// Where strip buffers come from and go back to.
    let pool: StripPixelPool
    /// Pixels per strip buffer: `stripHeight × width`.
    var stripCapacity: Int { stripHeight * width }
    /// Bytes per pixel of the kept strips: 3 (RGB) or 4 (RGBA); 0 before the first frame.
    private var channels = 0

    /// Chunks of uniform strips (every pixel one colour) that are neither first nor last: such a
    /// strip deflates to the same bytes wherever it sits, so a list's empty background deflates
    /// once, not once per strip and frame.
    private var uniformChunks: [UniformKey: Strip] = [:]
    private struct UniformKey: Hashable { var color: UInt32, channels: Int }

    /// What the last encode did, for measurements and tests: strips deflated (not taken from
    /// `uniformChunks` or kept).
    private(set) var lastStripsDeflated = 0

    /// Whether a frame's strips may be deflated on all `workers` threads; asked just before each
    /// frame's strips are deflated (otherwise they are deflated on the calling thread alone). The
    /// frame writer allows it only while the thread that queues frames waits for it, so the
    /// extra thread never takes a core from the engine.
    var mayUseAllWorkers: () -> Bool = { true }

    init(stripHeight: Int = PNGStripEncoder.defaultStripHeight, workers: Int = 1, pool: StripPixelPool = StripPixelPool()) {
        precondition(stripHeight > 0, "strip height must be positive")
        self.stripHeight = stripHeight
        self.pool = pool
        deflaters = (0..<max(1, workers)).map { _ in
            guard let deflater = cellhost_strip_deflater_create() else { fatalError("cannot allocate a strip deflater") }
            return deflater
        }
    }

    deinit {
        deflaters.forEach { cellhost_strip_deflater_destroy($0) }
        stripPixels.forEach { $0.map { pool.give($0, capacity: stripCapacity) } }
    }

    /// The strips of a `height`-row frame that rectangles `changed` touch (clipped to the frame), ascending.
    static func strips(touching changed: [PixelRect], width: Int, height: Int, stripHeight: Int) -> [Int] {
        var marked = [Bool](repeating: false, count: (height + stripHeight - 1) / stripHeight)
        for rect in changed where !rect.isEmpty && rect.maxX > 0 && rect.x < width {
            let top = max(0, rect.y), bottom = min(height, rect.maxY)
            guard bottom > top else { continue }
            for index in (top / stripHeight)...((bottom - 1) / stripHeight) { marked[index] = true }
        }
        return marked.indices.filter { marked[$0] }
    }

    /// Rows `strip` covers in a `height`-row frame.
    static func rows(of strip: Int, height: Int, stripHeight: Int) -> Range<Int> {
        strip * stripHeight..<min(height, (strip + 1) * stripHeight)
    }

    /// Writes `image` as a PNG file at `path`, through a temporary file renamed over `path` only
    /// once complete. `changed`: the rectangles whose pixels may differ from the previous frame
    /// encoded; nil when unknown, which re-deflates every strip (as does a size change).
    func write(_ image: RasterImage, changed: [PixelRect]?, to path: String) throws(PNGError) {
        try encode(image, changed: changed, path: path)
        try writeFile(to: path)
    }

    /// Brings the kept frame to `width × height` with new pixels for `changedStrips` (nil: every
    /// strip, required when the size changes), whose rows start at `rows(strip)`, and re-deflates
    /// what that changed. Then `writeFile(to:)` writes the frame.
    func update(width: Int, height: Int, changedStrips: [Int]?, path: String,
                rows: (Int) -> UnsafePointer<UInt32>) throws(PNGError) {
        let capacity = stripHeight * width
        try update(width: width, height: height, changedStrips: changedStrips, path: path) { index in
            let buffer = pool.take(capacity: capacity)
            buffer.update(from: rows(index), count: PNGStripEncoder.rows(of: index, height: height, stripHeight: stripHeight).count * width)
            return buffer
        }
    }

    /// As above, but the new pixels come in buffers from `pool` of `stripHeight × width` pixels,
    /// one per changed strip, which the encoder keeps (`adopt` is called once per changed strip,
    /// in order, and not at all when the size is refused).
    func update(width: Int, height: Int, changedStrips: [Int]?, path: String,
                adopting adopt: (Int) -> UnsafeMutablePointer<UInt32>) throws(PNGError) {
        guard width > 0, height > 0, width <= Int(Int32.max) / 4, height <= Int(Int32.max) else {
            throw PNGError(path: path, reason: "cannot encode a \(width)×\(height) image")
        }
        var dirty: [Int]
        if let changedStrips, width == self.width, height == self.height {
            dirty = changedStrips
        } else {
            precondition(changedStrips == nil, "a frame of a new size must update every strip")
            stripPixels.forEach { $0.map { pool.give($0, capacity: stripCapacity) } }
            self.width = width
            self.height = height
            strips = (0..<(height + stripHeight - 1) / stripHeight).map { _ in Strip() }
            stripPixels = Array(repeating: nil, count: strips.count)
            uniformChunks.removeAll()
            channels = 0
            dirty = Array(strips.indices)
        }
        for index in dirty {
            let rows = PNGStripEncoder.rows(of: index, height: height, stripHeight: stripHeight).count
            let start = adopt(index)
            if let replaced = stripPixels[index] { pool.give(replaced, capacity: stripCapacity) }
            stripPixels[index] = start
            let strip = strips[index]
            var color: UInt32 = 0
            if cellhost_rows_are_uniform(start, width, UInt32(width), UInt32(rows), &color) != 0 {
                strip.uniformColor = color
                strip.opaque = color >> 24 == 0xFF
            } else {
                strip.uniformColor = nil
                strip.opaque = nil  // found while deflating: one pass over the new pixels, not two
            }
        }
        // The colour type the frame is likely to have: RGBA if a strip is known to be translucent,
        // else the last frame's; a guess proved wrong while deflating re-deflates every strip.
        let likely = strips.contains { $0.opaque == false } ? 4 : (channels == 0 ? 3 : channels)
        if likely != channels {
            channels = likely
            dirty = Array(strips.indices)
        }
        guard !dirty.isEmpty else { lastStripsDeflated = 0; return }
        var failed = deflate(dirty)
        let frameChannels = strips.allSatisfy { $0.opaque == true } ? 3 : 4
        if !failed && frameChannels != channels {
            channels = frameChannels
            failed = deflate(Array(strips.indices))
        }
        if failed {
            channels = 0  // the kept strips are not all valid: the next frame re-deflates them all
            throw PNGError(path: path, reason: "could not deflate the image data (out of memory)")
        }
    }

    /// Writes the frame as last updated to `path`, through a temporary file renamed over `path`
    /// only once complete.
    func writeFile(to path: String) throws(PNGError) {
        let temporary = path + ".partial-\(getpid())"
        let fd = open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard fd >= 0 else {
            throw PNGError(path: path, reason: "cannot create \(temporary): \(String(cString: strerror(errno)))")
        }
        let failure = withPieces { writeAll(fd, &$0) }
        let closed = close(fd) == 0
        guard failure == nil, closed else {
            let reason = failure ?? "cannot finish writing: \(String(cString: strerror(errno)))"
            unlink(temporary)
            throw PNGError(path: path, reason: reason)
        }
        guard rename(temporary, path) == 0 else {
            let reason = String(cString: strerror(errno))
            unlink(temporary)
            throw PNGError(path: path, reason: "cannot rename finished PNG into place: \(reason)")
        }
    }

    /// The PNG file's bytes for `image` (same rules as `write`), for tests.
    func encodedBytes(_ image: RasterImage, changed: [PixelRect]?) throws(PNGError) -> [UInt8] {
        try encode(image, changed: changed, path: "<memory>")
        return withPieces { pieces in
            var bytes: [UInt8] = []
            for piece in pieces { bytes.append(contentsOf: UnsafeRawBufferPointer(start: piece.iov_base, count: piece.iov_len)) }
            return bytes
        }
    }

    // MARK: Encoding

    private func encode(_ image: RasterImage, changed: [PixelRect]?, path: String) throws(PNGError) {
        var strips: [Int]?
        if let changed, image.width == width, image.height == height {
            strips = PNGStripEncoder.strips(touching: changed, width: width, height: height, stripHeight: stripHeight)
        }
        let width = image.width
        try image.pixels.withUnsafeBufferPointer { pixels throws(PNGError) in
            try update(width: image.width, height: image.height, changedStrips: strips, path: path) {
                pixels.baseAddress! + $0 * stripHeight * width
            }
        }
    }


    /// Deflates the listed strips, spread over the deflaters' threads, except uniform middle
    /// strips whose chunk is known (copied after); true when one failed.
    private func deflate(_ listed: [Int]) -> Bool {
        var dirty: [Int] = [], copies: [(strip: Int, key: UniformKey)] = []
        var deflating = Set<UniformKey>()
        for index in listed {
            if let key = uniformKey(of: index) {
                if uniformChunks[key] != nil || deflating.contains(key) { copies.append((index, key)); continue }
                deflating.insert(key)
            }
            dirty.append(index)
        }
        lastStripsDeflated = dirty.count
        if !dirty.isEmpty, deflateInParallel(dirty) { return true }
        for index in dirty {
            guard let key = uniformKey(of: index), uniformChunks[key] == nil else { continue }
            if uniformChunks.count >= 32 { uniformChunks.removeAll() }
            let chunk = Strip()
            chunk.copy(strips[index])
            uniformChunks[key] = chunk
        }
        for (index, key) in copies { strips[index].copy(uniformChunks[key]!) }
        return false
    }

    /// The key of a uniform strip that is neither first (which carries the zlib header) nor last
    /// (which ends the stream); nil for any other strip.
    private func uniformKey(of index: Int) -> UniformKey? {
        guard index > 0, index < strips.count - 1, let color = strips[index].uniformColor else { return nil }
        return UniformKey(color: color, channels: channels)
    }

    private func deflateInParallel(_ dirty: [Int]) -> Bool {
        let workers = mayUseAllWorkers() ? min(deflaters.count, dirty.count) : 1
        let failures = UnsafeMutableBufferPointer<Bool>.allocate(capacity: workers)
        failures.initialize(repeating: false)
        defer { failures.deallocate() }
        let job = StripJob(dirty: dirty, failures: failures, encoder: self)
        if workers == 1 {
            job.run(worker: 0, of: 1)
        } else {
            DispatchQueue.concurrentPerform(iterations: workers) { job.run(worker: $0, of: workers) }
        }
        return failures.contains(true)
    }

    /// One frame's strip deflation, shared by the worker threads: worker `k` of `n` deflates the
    /// dirty strips at positions k, k + n, …, each into its own strip, so no two threads write
    /// the same memory.
    private struct StripJob: @unchecked Sendable {
        let dirty: [Int]
        let failures: UnsafeMutableBufferPointer<Bool>
        let encoder: PNGStripEncoder

        func run(worker: Int, of count: Int) {
            let deflater = encoder.deflaters[worker]
            for position in stride(from: worker, to: dirty.count, by: count) {
                let index = dirty[position]
                if !encoder.deflate(strip: index, with: deflater) {
                    failures[worker] = true
                }
            }
        }
    }

    /// Converts and deflates one strip into its IDAT chunk: length, type, (the zlib header in the
    /// first strip), the deflated scanlines, CRC.
    private func deflate(strip index: Int, with deflater: UnsafeMutablePointer<cellhost_strip_deflater>) -> Bool {
        let strip = strips[index]
        let range = PNGStripEncoder.rows(of: index, height: height, stripHeight: stripHeight)
        let rows = range.count
        let scanlineBytes = cellhost_strip_scanline_bytes(UInt32(width), UInt32(rows), Int32(channels))
        let prefix = index == 0 ? PNGStripEncoder.zlibHeader.count : 0
        let capacity = 12 + prefix + cellhost_strip_bound(scanlineBytes)
        strip.reserve(capacity)
        let chunk = strip.storage!
        if prefix > 0 { (chunk + 8).initialize(from: PNGStripEncoder.zlibHeader, count: prefix) }
        var adler: UInt32 = 0, opaque: Int32 = 0
        let deflated = cellhost_deflate_strip(deflater, stripPixels[index]!, width, UInt32(width), UInt32(rows),
                                              Int32(channels), index == strips.count - 1 ? 1 : 0,
                                              chunk + 8 + prefix, capacity - 12 - prefix, &adler, &opaque)
        guard deflated >= 0 else { strip.count = 0; return false }
        strip.opaque = opaque != 0
        let dataLength = prefix + deflated
        storeBigEndian(UInt32(dataLength), at: chunk)
        (chunk + 4).initialize(from: PNGStripEncoder.idat, count: 4)
        storeBigEndian(cellhost_crc32(0, chunk + 4, 4 + dataLength), at: chunk + 8 + dataLength)
        strip.count = 12 + dataLength
        strip.adler = adler
        strip.scanlineBytes = scanlineBytes
        return true
    }

    // MARK: File layout

    private static let signature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
    private static let idat: [UInt8] = Array("IDAT".utf8)
    /// Deflate, 32 KiB window, no preset dictionary, "fastest" level hint: 0x7801 is a multiple of 31.
    private static let zlibHeader: [UInt8] = [0x78, 0x01]
    private static let end: [UInt8] = [0, 0, 0, 0, 0x49, 0x45, 0x4E, 0x44, 0xAE, 0x42, 0x60, 0x82]

    /// Signature and IHDR: 8-bit RGB or RGBA, no interlace.
    private func header() -> [UInt8] {
        var ihdr = [UInt8](repeating: 0, count: 25)
        ihdr.withUnsafeMutableBufferPointer { b in
            let p = b.baseAddress!
            storeBigEndian(13, at: p)
            p[4] = 0x49; p[5] = 0x48; p[6] = 0x44; p[7] = 0x52
            storeBigEndian(UInt32(width), at: p + 8)
            storeBigEndian(UInt32(height), at: p + 12)
            p[16] = 8
            p[17] = channels == 3 ? 2 : 6
            storeBigEndian(cellhost_crc32(0, p + 4, 17), at: p + 21)
        }
        return PNGStripEncoder.signature + ihdr
    }

    /// The last IDAT chunk (the zlib stream's Adler-32) and IEND.
    private func trailer() -> [UInt8] {
        var adler: UInt32 = 1
        for strip in strips { adler = cellhost_adler32_combine(adler, strip.adler, strip.scanlineBytes) }
        var chunk = [UInt8](repeating: 0, count: 16)
        chunk.withUnsafeMutableBufferPointer { b in
            let p = b.baseAddress!
            storeBigEndian(4, at: p)
            p[4] = 0x49; p[5] = 0x44; p[6] = 0x41; p[7] = 0x54
            storeBigEndian(adler, at: p + 8)
            storeBigEndian(cellhost_crc32(0, p + 4, 8), at: p + 12)
        }
        return chunk + PNGStripEncoder.end
    }

    /// The file as pieces in order: header, every strip's kept chunk, trailer (no copies).
    private func withPieces<Result>(_ body: (inout [iovec]) -> Result) -> Result {
        let head = header(), tail = trailer()
        return head.withUnsafeBufferPointer { head in
            tail.withUnsafeBufferPointer { tail in
                var pieces: [iovec] = [iovec(iov_base: UnsafeMutableRawPointer(mutating: head.baseAddress), iov_len: head.count)]
                pieces.reserveCapacity(strips.count + 2)
                for strip in strips { pieces.append(iovec(iov_base: UnsafeMutableRawPointer(strip.storage), iov_len: strip.count)) }
                pieces.append(iovec(iov_base: UnsafeMutableRawPointer(mutating: tail.baseAddress), iov_len: tail.count))
                return body(&pieces)
            }
        }
    }

}

/// One strip's IDAT chunk, kept between frames, and what the zlib trailer needs from it.
/// Each strip is written by one deflating thread at a time.
private final class Strip {
    var storage: UnsafeMutablePointer<UInt8>?
    var capacity = 0
    var count = 0
    var adler: UInt32 = 1
    var scanlineBytes = 0
    /// Whether every pixel is opaque; nil for changed rows not yet deflated.
    var opaque: Bool?
    /// The colour of every pixel when the strip is uniform.
    var uniformColor: UInt32?

    deinit { storage?.deallocate() }

    /// Takes `other`'s chunk bytes and checksum (same rows, same pixels).
    func copy(_ other: Strip) {
        reserve(other.count)
        if other.count > 0 { storage!.update(from: other.storage!, count: other.count) }
        count = other.count
        adler = other.adler
        scanlineBytes = other.scanlineBytes
    }

    func reserve(_ bytes: Int) {
        guard bytes > capacity else { return }
        storage?.deallocate()
        storage = .allocate(capacity: bytes)
        capacity = bytes
    }
}

private func storeBigEndian(_ value: UInt32, at p: UnsafeMutablePointer<UInt8>) {
    p[0] = UInt8(truncatingIfNeeded: value >> 24); p[1] = UInt8(truncatingIfNeeded: value >> 16)
    p[2] = UInt8(truncatingIfNeeded: value >> 8); p[3] = UInt8(truncatingIfNeeded: value)
}

/// `writev` until every piece is written (short writes resumed); a failure reason or nil.
private func writeAll(_ fd: Int32, _ pieces: inout [iovec]) -> String? {
    var first = 0
    while first < pieces.count {
        let batch = min(pieces.count - first, 1024)
        let written = pieces.withUnsafeMutableBufferPointer { writev(fd, $0.baseAddress! + first, Int32(batch)) }
        if written < 0 {
            if errno == EINTR { continue }
            return "cannot write: \(String(cString: strerror(errno)))"
        }
        var remaining = written
        while first < pieces.count && remaining >= pieces[first].iov_len {
            remaining -= pieces[first].iov_len
            first += 1
        }
        if remaining > 0 {
            pieces[first].iov_base = pieces[first].iov_base! + remaining
            pieces[first].iov_len -= remaining
        }
    }
    return nil
}
