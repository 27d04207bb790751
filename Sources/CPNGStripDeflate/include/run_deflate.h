#pragma once
#include <stddef.h>
#include <stdint.h>

#include "cpu_features.h"

/* A deflate encoder for rendered UI frames: matches only the row above and the pixel to the left.
   Flat UI images are mostly runs of one colour and rows equal to the row above; deflate can say
   "copy from N bytes back", so a run of pixels equal to the pixel before (distance = bytes per
   pixel) or to the pixels above (distance = bytes per scanline) is one match per 258 bytes, found
   by comparing whole source pixels, with no hash table. Everything else is written as literals.
   Fixed Huffman codes (RFC 1951 §3.2.6): no code tables to build or send. The source pixels are
   compared, not the scanline bytes: equal premultiplied pixels give equal scanline bytes, so every
   match is exact; pixels that differ but convert alike are written as literals (only a larger
   file). */

/* The most bytes cellhost_run_deflate writes for `scanline_bytes` of scanlines: a literal costs at
   most 9 bits, a match at most 31 bits for at least 3 bytes, plus the block header, end and flush. */
size_t cellhost_run_deflate_bound(size_t scanline_bytes);

/* Deflates `rows` rows of `width` pixels (row stride `stride` pixels) as PNG scanlines (filter
   byte 0, then `channels` bytes per pixel) in one fixed-Huffman block that references nothing
   before it. Literal bytes come from `scanlines` (the converted rows), or, when it is NULL (RGB
   only: opaque pixels need no conversion), straight from the pixels' R, G and B. `last`: the block
   ends the stream (BFINAL); otherwise it is followed by an empty stored block, so the segment ends
   on a byte boundary like zlib's Z_SYNC_FLUSH. `equal_above`, when not NULL (at most 64 rows), has
   bit y set exactly when row y equals the row above, as a pass before found. `out` holds at least
   cellhost_run_deflate_bound bytes. Returns the length. */
size_t cellhost_run_deflate(const uint32_t *pixels, size_t stride, uint32_t width, uint32_t rows, int channels,
                            const unsigned char *scanlines, int last, const uint64_t *equal_above, unsigned char *out);

#ifdef CELLHOST_CPU_VARIANTS
/* cellhost_run_deflate built for AVX2: call only where cellhost_cpu_has_avx2() says so. Same bytes. */
size_t cellhost_run_deflate_avx2(const uint32_t *pixels, size_t stride, uint32_t width, uint32_t rows, int channels,
                                 const unsigned char *scanlines, int last, const uint64_t *equal_above,
                                 unsigned char *out);
#endif
