import CHarfBuzz

/// One paragraph shaped by HarfBuzz, glyphs in logical (reading) order whatever the script's
/// direction, positions in font units. Size-independent, so it is cached per (text, face).
struct ShapedRun {
    let face: FontFace
    let glyphs: [UInt32]
    /// Advance and offsets of each glyph, font units.
    let advances: [Double]
    let xOffsets: [Double]
    let yOffsets: [Double]
    /// Whether each glyph starts a new cluster (a legal break between characters).
    let startsCluster: [Bool]
    /// Whether each glyph shows a space (a word-wrap opportunity follows it).
    let isSpace: [Bool]
    /// The script's direction as HarfBuzz guessed it (no bidi: one direction per paragraph).
    let isRightToLeft: Bool

    var count: Int { glyphs.count }

    init(text: Substring, face: FontFace) {
        self.face = face
        let buffer = hb_buffer_create()
        defer { hb_buffer_destroy(buffer) }
        let utf8 = Array(text.utf8)
        utf8.withUnsafeBufferPointer { bytes in
            bytes.withMemoryRebound(to: CChar.self) { chars in
                hb_buffer_add_utf8(buffer, chars.baseAddress, Int32(chars.count), 0, Int32(chars.count))
            }
        }
        hb_buffer_guess_segment_properties(buffer)
        hb_shape(face.hbFont, buffer, nil, 0)
        isRightToLeft = hb_buffer_get_direction(buffer) == HB_DIRECTION_RTL
        var count: UInt32 = 0
        let infos = hb_buffer_get_glyph_infos(buffer, &count)
        let positions = hb_buffer_get_glyph_positions(buffer, &count)
        let n = Int(count)
        var glyphs = [UInt32](), advances = [Double](), xo = [Double](), yo = [Double]()
        var starts = [Bool](), spaces = [Bool]()
        glyphs.reserveCapacity(n); advances.reserveCapacity(n); xo.reserveCapacity(n); yo.reserveCapacity(n)
        starts.reserveCapacity(n); spaces.reserveCapacity(n)
        let order: [Int] = isRightToLeft ? Array((0..<n).reversed()) : Array(0..<n)
        var previousCluster: UInt32 = .max
        for i in order {
            let info = infos![i], pos = positions![i]
            glyphs.append(info.codepoint)
            advances.append(Double(pos.x_advance))
            xo.append(Double(pos.x_offset))
            yo.append(Double(pos.y_offset))
            starts.append(info.cluster != previousCluster)
            previousCluster = info.cluster
            let byte = Int(info.cluster) < utf8.count ? utf8[Int(info.cluster)] : 0
            spaces.append(byte == 0x20 || byte == 0x09)
        }
        self.glyphs = glyphs
        self.advances = advances
        self.xOffsets = xo
        self.yOffsets = yo
        self.startsCluster = starts
        self.isSpace = spaces
    }

    /// Sum of advances of `range`, font units.
    func width(_ range: Range<Int>) -> Double {
        var w = 0.0
        for i in range { w += advances[i] }
        return w
    }

    /// `range` without the spaces at its end (they hang past the line edge, as in UIKit).
    func trimmingTrailingSpaces(_ range: Range<Int>) -> Range<Int> {
        var end = range.upperBound
        while end > range.lowerBound && isSpace[end - 1] { end -= 1 }
        return range.lowerBound..<end
    }

    func trimmingLeadingSpaces(_ range: Range<Int>) -> Range<Int> {
        var start = range.lowerBound
        while start < range.upperBound && isSpace[start] { start += 1 }
        return start..<range.upperBound
    }
}
