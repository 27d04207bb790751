#pragma once
#include <stddef.h>
#include <stdint.h>

/* Deflates PNG image data one horizontal strip at a time. Each strip is a raw-deflate segment that
   references nothing before it and ends on a byte boundary (the last one ends the stream), so the
   segments of independently compressed strips concatenate into one valid stream, and a strip whose
   pixels did not change keeps its bytes from the previous frame. Filter type 0 ("none"): the
   encoder (run_deflate.h) matches the row above itself. Pixels are premultiplied ARGB32; RGB
   output is for opaque pixels only, RGBA output has straight alpha.

   A deflater holds the scanline buffer RGBA strips are converted into: one deflater per thread. */
typedef struct cellhost_strip_deflater cellhost_strip_deflater;

/* A new deflater, or NULL when memory fails. */
cellhost_strip_deflater *cellhost_strip_deflater_create(void);

void cellhost_strip_deflater_destroy(cellhost_strip_deflater *d);

/* Bytes of scanlines for `rows` rows of `width` pixels at `channels` bytes each. */
size_t cellhost_strip_scanline_bytes(uint32_t width, uint32_t rows, int channels);

/* The most bytes a strip of `scanline_bytes` can deflate to. */
size_t cellhost_strip_bound(size_t scanline_bytes);

/* 1 when every pixel of the rows equals the first (stored in *color): such a strip deflates to
   the same bytes wherever it sits between the first and the last strip. */
int cellhost_rows_are_uniform(const uint32_t *pixels, size_t stride, uint32_t width, uint32_t rows, uint32_t *color);

/* Deflates `rows` rows (row stride `stride` pixels) as scanlines into `out` (at least
   cellhost_strip_bound bytes); RGBA rows are converted into the deflater's buffer first.
   `last`: the strip ends the image (final block). Sets *adler to the Adler-32 of the strip's
   scanlines (combined into the zlib trailer by the caller) and *opaque to whether every pixel is
   opaque (if not, RGB output is useless: nothing is deflated and the caller deflates again as
   RGBA). Returns the compressed length, or -1 when memory fails or `out_capacity` is too small. */
long cellhost_deflate_strip(cellhost_strip_deflater *d, const uint32_t *pixels, size_t stride, uint32_t width,
                            uint32_t rows, int channels, int last, unsigned char *out, size_t out_capacity,
                            uint32_t *adler, int *opaque);

/* Inflates one strip's raw-deflate segment (`in`, without the zlib header) back into premultiplied
   ARGB32 pixels (`rows` rows of `width`, packed) from `channels`-byte scanlines with filter 0, as
   cellhost_deflate_strip wrote them, through the deflater's scanline buffer. Used only for strips
   whose pixels are all opaque (straight and premultiplied then agree), to deflate them again with
   the other colour type without keeping a copy of every strip's pixels. Returns 0, or -1 when the
   segment does not inflate to exactly the expected scanlines or memory fails. */
int cellhost_inflate_strip(cellhost_strip_deflater *d, const unsigned char *in, size_t in_length, uint32_t width,
                           uint32_t rows, int channels, uint32_t *pixels);

/* Adler-32 of two concatenated byte runs from the Adler-32 of each and the second's length. */
uint32_t cellhost_adler32_combine(uint32_t first, uint32_t second, size_t second_length);

/* CRC-32 (PNG's chunk checksum) continued over `count` bytes. */
uint32_t cellhost_crc32(uint32_t crc, const unsigned char *bytes, size_t count);
