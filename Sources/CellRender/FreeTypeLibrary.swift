import CFreeType

/// One FreeType library instance. Every face opened in it holds it, so FreeType is shut down
/// only after the last face is gone, whatever order an engine, its caches and any shaped runs
/// still held elsewhere are released in (`FT_Done_Face` after `FT_Done_FreeType` crashes).
final class FreeTypeLibrary {
    let handle: FT_Library

    init() throws(FontError) {
        var library: FT_Library?
        guard FT_Init_FreeType(&library) == 0, let library else { throw FontError(description: "FreeType failed to initialise") }
        handle = library
    }

    deinit { FT_Done_FreeType(handle) }
}
