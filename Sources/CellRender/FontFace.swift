import CFontconfig
import CFreeType
import CHarfBuzz
import CPixman
import CellKit

/// Fonts that could not be found or opened.
public struct FontError: Error, CustomStringConvertible, Equatable {
    public var description: String
}

/// One font file opened twice: HarfBuzz shapes it (scale = units per em, so shaped runs are
/// independent of size and can be cached once per text), FreeType rasterises it (unhinted, the
/// same outlines HarfBuzz measured, so layout and pixels agree at every scale).
final class FontFace {
    let index: Int
    let path: String
    let face: FT_Face
    let hbFont: OpaquePointer
    /// Kept so the library outlives the face.
    private let library: FreeTypeLibrary
    let unitsPerEm: Double
    /// Font units, positive ascender, positive descender (distance below the baseline), line gap.
    let ascender: Double, descender: Double, lineGap: Double
    private var currentPixelSize26_6 = -1

    init(index: Int, path: String, library: FreeTypeLibrary) throws(FontError) {
        var face: FT_Face?
        guard FT_New_Face(library.handle, path, 0, &face) == 0, let face else {
            throw FontError(description: "FreeType cannot open font file \(path)")
        }
        guard let blob = hb_blob_create_from_file_or_fail(path) else {
            FT_Done_Face(face)
            throw FontError(description: "HarfBuzz cannot read font file \(path)")
        }
        let hbFace = hb_face_create(blob, 0)
        hb_blob_destroy(blob)
        let font = hb_font_create(hbFace)!
        hb_face_destroy(hbFace)
        let upem = Int32(face.pointee.units_per_EM)
        hb_font_set_scale(font, upem, upem)
        self.index = index
        self.path = path
        self.library = library
        self.face = face
        self.hbFont = font
        unitsPerEm = Double(upem)
        ascender = Double(face.pointee.ascender)
        descender = Double(-face.pointee.descender)
        lineGap = max(0, Double(face.pointee.height) - ascender - descender)
    }

    deinit {
        hb_font_destroy(hbFont)
        FT_Done_Face(face)
    }

    func glyph(for scalar: Unicode.Scalar) -> UInt32? {
        var glyph: hb_codepoint_t = 0
        return hb_font_get_nominal_glyph(hbFont, scalar.value, &glyph) != 0 ? glyph : nil
    }

    /// Renders one glyph as an 8-bit coverage mask at `pixelSize` (pixels per em), moved right by
    /// `phase` quarter pixels. Returns nil for glyphs without ink (spaces).
    func renderGlyph(_ glyph: UInt32, pixelSize: Double, phase: Int) -> GlyphMask? {
        let size26_6 = Int((pixelSize * 64).rounded())
        if size26_6 != currentPixelSize26_6 {
            FT_Set_Char_Size(face, 0, FT_F26Dot6(size26_6), 72, 72)
            currentPixelSize26_6 = size26_6
        }
        guard FT_Load_Glyph(face, glyph, cellhost_ft_load_flags()) == 0 else { return nil }
        let slot = face.pointee.glyph!
        if slot.pointee.format == FT_GLYPH_FORMAT_OUTLINE {
            FT_Outline_Translate(&slot.pointee.outline, FT_Pos(phase * 16), 0)
        }
        guard FT_Render_Glyph(slot, FT_RENDER_MODE_NORMAL) == 0 else { return nil }
        let bitmap = slot.pointee.bitmap
        let width = Int(bitmap.width), height = Int(bitmap.rows)
        guard width > 0, height > 0, bitmap.pixel_mode == UInt8(FT_PIXEL_MODE_GRAY.rawValue) else { return nil }
        let mask = CoverageMask(width: width, height: height)
        for y in 0..<height {
            let src = bitmap.buffer! + y * Int(bitmap.pitch)
            let dst = mask.bytes + y * mask.stride
            dst.update(from: src, count: width)
        }
        return GlyphMask(mask: mask, left: Int(slot.pointee.bitmap_left), top: Int(slot.pointee.bitmap_top))
    }
}

/// A rasterised glyph: its coverage and where it sits relative to the pen position.
struct GlyphMask {
    let mask: CoverageMask
    /// Pixels from the pen position to the mask's left edge, and from the baseline up to its top.
    let left: Int, top: Int
}

/// An 8-bit coverage image (`PIXMAN_a8`) owning its memory; rows padded to 4 bytes as pixman needs.
final class CoverageMask {
    let width: Int, height: Int, stride: Int
    let bytes: UnsafeMutablePointer<UInt8>
    let image: OpaquePointer

    init(width: Int, height: Int) {
        self.width = width
        self.height = height
        stride = (width + 3) & ~3
        bytes = .allocate(capacity: stride * max(1, height))
        bytes.initialize(repeating: 0, count: stride * max(1, height))
        image = pixman_image_create_bits(PIXMAN_a8, Int32(width), Int32(height),
                                         UnsafeMutableRawPointer(bytes).assumingMemoryBound(to: UInt32.self),
                                         Int32(stride))!
    }

    deinit {
        pixman_image_unref(image)
        bytes.deallocate()
    }

    @inline(__always) subscript(x: Int, y: Int) -> UInt8 {
        get { bytes[y * stride + x] }
        set { bytes[y * stride + x] = newValue }
    }
}

/// Finds font files through fontconfig. Every match must be the family asked for: a silent
/// substitute would make frames differ between machines.
enum FontLocator {
    static func file(family: String, bold: Bool, italic: Bool) throws(FontError) -> String {
        guard FcInit() != 0, let pattern = FcPatternCreate() else {
            throw FontError(description: "fontconfig failed to initialise")
        }
        defer { FcPatternDestroy(pattern) }
        FcPatternAddString(pattern, FC_FAMILY, family)
        FcPatternAddInteger(pattern, FC_WEIGHT, bold ? Int32(FC_WEIGHT_BOLD) : Int32(FC_WEIGHT_REGULAR))
        FcPatternAddInteger(pattern, FC_SLANT, italic ? Int32(FC_SLANT_OBLIQUE) : Int32(FC_SLANT_ROMAN))
        FcPatternAddInteger(pattern, FC_WIDTH, Int32(FC_WIDTH_NORMAL))
        FcConfigSubstitute(nil, pattern, FcMatchPattern)
        FcDefaultSubstitute(pattern)
        var result = FcResultNoMatch
        guard let match = FcFontMatch(nil, pattern, &result) else {
            throw FontError(description: "fontconfig found no font for family \"\(family)\"")
        }
        defer { FcPatternDestroy(match) }
        var familyValue: UnsafeMutablePointer<FcChar8>?
        var fileValue: UnsafeMutablePointer<FcChar8>?
        guard FcPatternGetString(match, FC_FAMILY, 0, &familyValue) == FcResultMatch, let familyValue,
              FcPatternGetString(match, FC_FILE, 0, &fileValue) == FcResultMatch, let fileValue else {
            throw FontError(description: "fontconfig returned a match without family or file for \"\(family)\"")
        }
        let matchedFamily = String(cString: familyValue)
        guard matchedFamily.lowercased() == family.lowercased() else {
            throw FontError(description: "font family \"\(family)\" is not installed (fontconfig offered \"\(matchedFamily)\"); install fonts-dejavu-core")
        }
        return String(cString: fileValue)
    }
}
