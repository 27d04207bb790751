import CPNGStripDeflate
import CellIO
import Foundation
import Glibc
import Synchronization

/// Lends the pixels of a frame's changed strips to the encoder, strip by strip, possibly to
/// several deflating threads at once.
protocol StripPixelSource: Sendable {
    /// Calls `body` with the first pixel of strip `index` (its rows `width` pixels apart), which
    /// must not change until `body` returns. Called once per changed strip.
    func withPixels(ofStrip index: Int, _ body: (UnsafePointer<UInt32>) -> Void)
}

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
/// The encoder keeps no pixels: each changed strip's pixels are read once, while it is deflated
/// (`StripPixelSource`), so a frame writer can lend the live framebuffer instead of copying it.
/// When the frame's colour type changes, the kept strips (all opaque then) are inflated from their
/// own chunks and deflated again. Not thread-safe: one caller encodes frames in order; other
/// threads may only `help()` deflate a frame's strips while it does.
final class PNGStripEncoder {
    /// Rows per strip: one highlighted row of cells re-deflates little more than itself, while
    /// shorter strips add more flushes, chunk headers (17 bytes each) and checksums to combine
    /// than they save on the default stream.
    static let defaultStripHeight = 32

    let stripHeight: Int
    private let deflaters: [OpaquePointer]
    private var strips: [Strip] = []
    private var width = 0, height = 0
    /// Bytes per pixel of the frame as last written: 3 (RGB) or 4 (RGBA); 0 before the first frame.
    private var channels = 0
    /// Set when a strip could not be deflated: the kept strips are not a whole frame until one
    /// lists every strip.
    private var keptStripsInvalid = false
    private let files = FileReplacer()

    /// Chunks of uniform strips (every pixel one colour) that are neither first nor last: such a
    /// strip deflates to the same bytes wherever it sits, so a list's empty background deflates
    /// once, not once per strip and frame. Read by the deflating threads, written between frames.
    private var uniformChunks: [UniformKey: Strip] = [:]
    private struct UniformKey: Hashable { var color: UInt32, channels: Int }
    /// Uniform keys being deflated in the current frame, by strip: later strips of the same key copy.
    private var claimedUniformKeys: [UniformKey: Int] = [:]
    private let claimLock = NSLock()

    /// What the last encode did, for measurements and tests: strips deflated (not taken from
    /// `uniformChunks` or kept), whether from new pixels or again for a new colour type.
    private(set) var lastStripsDeflated = 0

    /// Called on the encoding thread as a frame's strips start to be deflated, once they may be
    /// shared: a thread waiting for the encoder can then `help()`. The frame writer wakes its
    /// producer with it, which helps only while it waits, so help never takes a core from the
    /// engine.
    var deflationStarted: () -> Void = {}

    /// The strips being deflated that other threads may join, and the helpers' deflaters.
    private let sharing = NSCondition()
    private var shared: SharedDeflation?
    private var idleHelperDeflaters: [OpaquePointer]
    private var helping = 0

    /// `helpers`: how many other threads may `help()` at once (each gets its own deflater).
    init(stripHeight: Int = PNGStripEncoder.defaultStripHeight, helpers: Int = 0) {
        precondition(stripHeight > 0, "strip height must be positive")
        self.stripHeight = stripHeight
        deflaters = (0...max(0, helpers)).map { _ in
            guard let deflater = cellhost_strip_deflater_create() else { fatalError("cannot allocate a strip deflater") }
            return deflater
        }
        idleHelperDeflaters = Array(deflaters.dropFirst())
    }

    deinit { deflaters.forEach { cellhost_strip_deflater_destroy($0) } }

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

    /// Writes `image` as a PNG file at `path`, through a hidden temporary file put in place only
    /// once complete. `changed`: the rectangles whose pixels may differ from the previous frame
    /// encoded; nil when unknown, which re-deflates every strip (as does a size change).
    func write(_ image: RasterImage, changed: [PixelRect]?, to path: String) throws(PNGError) {
        try encode(image, changed: changed, path: path)
        try writeFile(to: path)
    }

    /// Brings the kept frame to `width × height` with new pixels for `changedStrips` (nil: every
    /// strip, required when the size changes), read from `source`, and re-deflates what that
    /// changed. Then `writeFile(to:)` writes the frame. Each changed strip's pixels are read once
    /// (not at all when the size is refused).
    func update(width: Int, height: Int, changedStrips: [Int]?, path: String, pixels source: some StripPixelSource) throws(PNGError) {
        guard width > 0, height > 0, width <= Int(Int32.max) / 4, height <= Int(Int32.max) else {
            throw PNGError(path: path, reason: "cannot encode a \(width)×\(height) image")
        }
        let dirty: [Int]
        if let changedStrips, width == self.width, height == self.height {
            guard !keptStripsInvalid else {
                throw PNGError(path: path, reason: "an earlier frame's image data could not be deflated, and this frame hands over only its changed rows")
            }
            dirty = changedStrips
        } else {
            precondition(changedStrips == nil, "a frame of a new size must update every strip")
            self.width = width
            self.height = height
            strips = (0..<(height + stripHeight - 1) / stripHeight).map { _ in Strip() }
            uniformChunks.removeAll()
            channels = 0
            keptStripsInvalid = false
            dirty = Array(strips.indices)
        }
        guard !dirty.isEmpty else { lastStripsDeflated = 0; return }
        for index in dirty { strips[index].opaque = nil; strips[index].uniformColor = nil }
        // The colour type the frame is likely to have: RGBA if a kept strip is translucent, else
        // the last frame's; strips deflated with the wrong one are deflated again below.
        let likely = strips.contains { $0.opaque == false } ? 4 : (channels == 0 ? 3 : channels)
        var deflated = Set<Int>()
        var failed = deflateInParallel(dirty, channels: likely, from: source, deflated: &deflated)
        let frameChannels = strips.allSatisfy { $0.opaque == true } ? 3 : 4
        if !failed {
            failed = recode(toChannels: frameChannels, deflated: &deflated)
        }
        lastStripsDeflated = deflated.count
        if failed {
            keptStripsInvalid = true
            throw PNGError(path: path, reason: "could not deflate the image data (out of memory)")
        }
        channels = frameChannels
        for index in dirty {
            guard let key = uniformKey(of: index), uniformChunks[key] == nil else { continue }
            if uniformChunks.count >= 32 { uniformChunks.removeAll() }
            let chunk = Strip()
            chunk.copy(strips[index])
            uniformChunks[key] = chunk
        }
    }

    /// Writes the frame as last updated to `path`, through its partial file, put in place only
    /// once complete (`FileReplacer`, which writes into the file the previous frame replaced).
    func writeFile(to path: String) throws(PNGError) {
        try withPieces { pieces throws(PNGError) in
            do throws(FileWriteError) { try files.write(&pieces, to: path) } catch {
                throw PNGError(path: error.path, reason: error.reason)
            }
        }
    }

    /// Removes the file the last `writeFile` replaced, which is kept to be written over next.
    func discardReplacedFile() { files.discardSpare() }

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
        try image.pixels.withUnsafeBufferPointer { pixels throws(PNGError) in
            try update(width: image.width, height: image.height, changedStrips: strips, path: path,
                       pixels: PackedStrips(first: pixels.baseAddress!, stripPixels: stripHeight * image.width))
        }
    }

    /// Deflates the listed strips from `source`, shared with helpers (`help()`), as
    /// `channels` (RGBA for translucent ones), except uniform middle strips whose chunk is known or
    /// deflated by another listed strip (copied after); adds the strips deflated to `deflated`;
    /// true when one failed.
    private func deflateInParallel(_ dirty: [Int], channels: Int, from source: some StripPixelSource, deflated: inout Set<Int>) -> Bool {
        let outcomes = UnsafeMutableBufferPointer<StripOutcome>.allocate(capacity: dirty.count)
        outcomes.initialize(repeating: .deflated)
        defer { outcomes.deallocate() }
        claimedUniformKeys.removeAll(keepingCapacity: true)
        let job = StripJob(dirty: dirty, channels: channels, outcomes: outcomes, encoder: self, source: source)
        let shares = dirty.count > 1 && deflaters.count > 1
        if shares {
            sharing.lock()
            shared = SharedDeflation(run: job.run(with:), hasStripsLeft: { job.hasStripsLeft })
            sharing.unlock()
            deflationStarted()
        }
        job.run(with: deflaters[0])
        if shares {
            // No helper joins from now on; the ones still deflating a strip finish it.
            sharing.lock()
            shared = nil
            while helping > 0 { sharing.wait() }
            sharing.unlock()
        }
        var failed = false
        for (position, index) in dirty.enumerated() {
            switch outcomes[position] {
            case .deflated: deflated.insert(index)
            case .failed: failed = true
            case .copyKept(let key): strips[index].copy(uniformChunks[key]!)
            case .copyStrip: break
            }
        }
        for (position, index) in dirty.enumerated() {
            if case .copyStrip(let other) = outcomes[position] { strips[index].copy(strips[other]) }
        }
        return failed
    }

    /// What a deflating thread did with one listed strip.
    private enum StripOutcome {
        case deflated, failed
        /// Uniform: its chunk is `uniformChunks[key]`, or that of another strip of this frame.
        case copyKept(UniformKey), copyStrip(Int)
    }

    /// Whether `help()` would find strips to deflate now.
    var canBeHelped: Bool {
        sharing.lock()
        defer { sharing.unlock() }
        return shared?.hasStripsLeft() == true && !idleHelperDeflaters.isEmpty
    }

    /// Deflates strips of the frame being encoded on the calling thread, as they come, until
    /// none is left to take; returns at once when no strips are being shared or `helpers`
    /// threads already help. For a thread that would otherwise wait for the encoder: it is
    /// already running, where a pooled thread would first have to be woken.
    func help() {
        sharing.lock()
        guard let job = shared, let deflater = idleHelperDeflaters.popLast() else {
            sharing.unlock()
            return
        }
        helping += 1
        sharing.unlock()
        job.run(deflater)
        sharing.lock()
        idleHelperDeflaters.append(deflater)
        helping -= 1
        sharing.broadcast()
        sharing.unlock()
    }

    /// A deflation other threads may join: runs the job with a deflater of their own.
    private struct SharedDeflation {
        let run: (OpaquePointer) -> Void
        let hasStripsLeft: () -> Bool
    }

    /// One frame's strip deflation, shared by the encoding thread and its helpers: each takes the
    /// next dirty strip not taken yet and deflates it into its own strip, so no two threads write
    /// the same memory. Taking strips as they come, not a fixed share each, keeps a helper that
    /// joins late from making the frame wait.
    private struct StripJob<Source: StripPixelSource>: @unchecked Sendable {
        let dirty: [Int]
        let channels: Int
        let outcomes: UnsafeMutableBufferPointer<StripOutcome>
        let encoder: PNGStripEncoder
        let source: Source
        let taken = StripCursor()

        var hasStripsLeft: Bool { taken.next.load(ordering: .relaxed) < dirty.count }

        func run(with deflater: OpaquePointer) {
            while true {
                let position = taken.next.add(1, ordering: .relaxed).oldValue
                guard position < dirty.count else { return }
                let index = dirty[position]
                source.withPixels(ofStrip: index) { pixels in
                    outcomes[position] = encoder.deflate(strip: index, from: pixels, channels: channels, with: deflater)
                }
            }
        }
    }

    /// The position of the next strip a `StripJob` worker takes.
    private final class StripCursor: Sendable {
        let next = Atomic<Int>(0)
    }

    /// Reads one changed strip's pixels: notes whether it is uniform, takes a known uniform chunk
    /// or deflates it (again as RGBA when it proves translucent under an RGB guess).
    private func deflate(strip index: Int, from pixels: UnsafePointer<UInt32>, channels guess: Int,
                         with deflater: OpaquePointer) -> StripOutcome {
        let strip = strips[index]
        let rows = PNGStripEncoder.rows(of: index, height: height, stripHeight: stripHeight).count
        var color: UInt32 = 0
        var channels = guess
        if cellhost_rows_are_uniform(pixels, width, UInt32(width), UInt32(rows), &color) != 0 {
            strip.uniformColor = color
            strip.opaque = color >> 24 == 0xFF
            if strip.opaque == false { channels = 4 }
            if let key = uniformKey(of: index, channels: channels) {
                if uniformChunks[key] != nil { return .copyKept(key) }
                claimLock.lock()
                let claimant = claimedUniformKeys[key]
                if claimant == nil { claimedUniformKeys[key] = index }
                claimLock.unlock()
                if let claimant { return .copyStrip(claimant) }
            }
        }
        guard deflate(strip: index, from: pixels, channels: channels, with: deflater) else { return .failed }
        if strip.opaque == false && channels == 3 {
            guard deflate(strip: index, from: pixels, channels: 4, with: deflater) else { return .failed }
        }
        return .deflated
    }

    /// Deflates again, as `channels`, every strip kept with the other colour type (all opaque
    /// then), from the pixels inflated out of its own chunk; true when one failed.
    private func recode(toChannels channels: Int, deflated: inout Set<Int>) -> Bool {
        let stale = strips.indices.filter { strips[$0].channels != channels }
        guard !stale.isEmpty else { return false }
        let deflater = deflaters[0]
        let pixels = UnsafeMutablePointer<UInt32>.allocate(capacity: stripHeight * width)
        defer { pixels.deallocate() }
        for index in stale {
            let strip = strips[index]
            let rows = PNGStripEncoder.rows(of: index, height: height, stripHeight: stripHeight).count
            let prefix = index == 0 ? PNGStripEncoder.zlibHeader.count : 0
            guard strip.opaque == true, strip.count >= 12 + prefix,
                  cellhost_inflate_strip(deflater, strip.storage! + 8 + prefix, strip.count - 12 - prefix, UInt32(width),
                                         UInt32(rows), Int32(strip.channels), pixels) == 0,
                  deflate(strip: index, from: pixels, channels: channels, with: deflater) else { return true }
            deflated.insert(index)
        }
        return false
    }

    /// The key of a uniform strip that is neither first (which carries the zlib header) nor last
    /// (which ends the stream); nil for any other strip.
    private func uniformKey(of index: Int, channels: Int? = nil) -> UniformKey? {
        guard index > 0, index < strips.count - 1, let color = strips[index].uniformColor else { return nil }
        return UniformKey(color: color, channels: channels ?? strips[index].channels)
    }

    /// Converts and deflates one strip into its IDAT chunk: length, type, (the zlib header in the
    /// first strip), the deflated scanlines, CRC. Sets the strip's opacity; a translucent strip
    /// asked for as RGB deflates nothing and keeps no chunk. False when memory fails.
    private func deflate(strip index: Int, from pixels: UnsafePointer<UInt32>, channels: Int,
                         with deflater: OpaquePointer) -> Bool {
        let strip = strips[index]
        let rows = PNGStripEncoder.rows(of: index, height: height, stripHeight: stripHeight).count
        let scanlineBytes = cellhost_strip_scanline_bytes(UInt32(width), UInt32(rows), Int32(channels))
        let prefix = index == 0 ? PNGStripEncoder.zlibHeader.count : 0
        let capacity = 12 + prefix + cellhost_strip_bound(scanlineBytes)
        strip.reserve(capacity)
        let chunk = strip.storage!
        if prefix > 0 { (chunk + 8).initialize(from: PNGStripEncoder.zlibHeader, count: prefix) }
        var adler: UInt32 = 0, opaque: Int32 = 0
        let deflated = cellhost_deflate_strip(deflater, pixels, width, UInt32(width), UInt32(rows),
                                              Int32(channels), index == strips.count - 1 ? 1 : 0,
                                              chunk + 8 + prefix, capacity - 12 - prefix, &adler, &opaque)
        strip.channels = 0
        strip.count = 0
        guard deflated >= 0 else { return false }
        strip.opaque = opaque != 0
        guard opaque != 0 || channels == 4 else { return true }
        let dataLength = prefix + deflated
        storeBigEndian(UInt32(dataLength), at: chunk)
        (chunk + 4).initialize(from: PNGStripEncoder.idat, count: 4)
        storeBigEndian(cellhost_crc32(0, chunk + 4, 4 + dataLength), at: chunk + 8 + dataLength)
        strip.count = 12 + dataLength
        strip.adler = adler
        strip.scanlineBytes = scanlineBytes
        strip.channels = channels
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
    private func withPieces<Result, Failure: Error>(_ body: (inout [iovec]) throws(Failure) -> Result) throws(Failure) -> Result {
        let head = header(), tail = trailer()
        return try head.withUnsafeBufferPointer { head throws(Failure) in
            try tail.withUnsafeBufferPointer { tail throws(Failure) in
                var pieces: [iovec] = [iovec(iov_base: UnsafeMutableRawPointer(mutating: head.baseAddress), iov_len: head.count)]
                pieces.reserveCapacity(strips.count + 2)
                for strip in strips { pieces.append(iovec(iov_base: UnsafeMutableRawPointer(strip.storage), iov_len: strip.count)) }
                pieces.append(iovec(iov_base: UnsafeMutableRawPointer(mutating: tail.baseAddress), iov_len: tail.count))
                return try body(&pieces)
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
    /// Bytes per pixel the chunk was deflated with; 0 while it holds no valid chunk.
    var channels = 0
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
        channels = other.channels
        opaque = other.opaque
    }

    func reserve(_ bytes: Int) {
        guard bytes > capacity else { return }
        storage?.deallocate()
        storage = .allocate(capacity: bytes)
        capacity = bytes
    }
}

/// Strips of a frame packed in one buffer, `stripPixels` pixels apart.
private struct PackedStrips: StripPixelSource, @unchecked Sendable {
    let first: UnsafePointer<UInt32>
    let stripPixels: Int
    func withPixels(ofStrip index: Int, _ body: (UnsafePointer<UInt32>) -> Void) { body(first + index * stripPixels) }
}

private func storeBigEndian(_ value: UInt32, at p: UnsafeMutablePointer<UInt8>) {
    p[0] = UInt8(truncatingIfNeeded: value >> 24); p[1] = UInt8(truncatingIfNeeded: value >> 16)
    p[2] = UInt8(truncatingIfNeeded: value >> 8); p[3] = UInt8(truncatingIfNeeded: value)
}
