#pragma once
#include <stddef.h>
#include <stdint.h>

#include "cpu_features.h"

/* A deflate encoder for rendered UI frames: matches only the row above and the pixel to the left.
   Flat UI images are mostly runs of one colour and rows equal to the row above; deflate can say
   "copy from N bytes back", so a run of pixels equal to the pixel before (distance = bytes per
   pixel) or to the pixels above (distance = bytes per scanline) is one match per 258 bytes, found
   by comparing whole source pixels, with no hash table. Everything else is written as literals.
   The source pixels are compared, not the scanline bytes: equal premultiplied pixels give equal
   scanline bytes, so every match is exact; pixels that differ but convert alike are written as
   literals (only a larger file).

   The strip is parsed first (matches and literal bytes, kept in a workspace), then written as
   one block of whichever kind its symbol counts make smallest (deflate_block.h): Huffman codes
   built for the strip (anti-aliased text and shading use few of the 256 byte values, which a
   dynamic code sends in fewer bits), the fixed codes (no table to send: strips of runs), or
   stored. */

/* The parse of a strip and the bytes a stored block is rebuilt into, reused from strip to strip:
   one per thread. */
typedef struct cellhost_run_deflate_workspace cellhost_run_deflate_workspace;

/* A new workspace, or NULL when memory fails. */
cellhost_run_deflate_workspace *cellhost_run_deflate_workspace_create(void);

void cellhost_run_deflate_workspace_destroy(cellhost_run_deflate_workspace *workspace);

/* The most bytes cellhost_run_deflate writes for `scanline_bytes` of scanlines: never more than
   storing them. */
size_t cellhost_run_deflate_bound(size_t scanline_bytes);

/* Deflates `rows` rows of `width` pixels (row stride `stride` pixels) as PNG scanlines (filter
   byte 0, then `channels` bytes per pixel) in one block that references nothing before it.
   Literal bytes come from `scanlines` (the converted rows), or, when it is NULL (RGB only: opaque
   pixels need no conversion), straight from the pixels' R, G and B. `last`: the block ends the
   stream (BFINAL); otherwise the segment ends on a byte boundary like zlib's Z_SYNC_FLUSH.
   `equal_above`, when not NULL (at most 64 rows), has bit y set exactly when row y equals the row
   above, as a pass before found. `out` holds at least cellhost_run_deflate_bound bytes. Returns
   the length, or 0 when the workspace cannot grow (memory). */
size_t cellhost_run_deflate(cellhost_run_deflate_workspace *workspace, const uint32_t *pixels, size_t stride,
                            uint32_t width, uint32_t rows, int channels, const unsigned char *scanlines, int last,
                            const uint64_t *equal_above, unsigned char *out);

#ifdef CELLHOST_CPU_VARIANTS
/* cellhost_run_deflate built for AVX2: call only where cellhost_cpu_has_avx2() says so. Same bytes. */
size_t cellhost_run_deflate_avx2(cellhost_run_deflate_workspace *workspace, const uint32_t *pixels, size_t stride,
                                 uint32_t width, uint32_t rows, int channels, const unsigned char *scanlines, int last,
                                 const uint64_t *equal_above, unsigned char *out);
#endif
