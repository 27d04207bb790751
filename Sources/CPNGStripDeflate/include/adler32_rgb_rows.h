#pragma once
#include <stddef.h>
#include <stdint.h>

#include "cpu_features.h"

/* The Adler-32 of the PNG RGB scanlines of opaque pixel rows (filter byte 0, then R, G, B per
   pixel) computed from the premultiplied ARGB32 pixels, without writing the scanlines out: for
   opaque pixels the two agree byte for byte. In the same pass it finds whether every pixel is
   opaque (if not, the checksum is of no use: the strip is written as RGBA) and which rows equal
   the row above (the deflater reads the same rows next and need not compare them again).

   `adler` is the checksum so far (1 to start); rows are `stride` pixels apart. Sets *opaque to
   whether every pixel is opaque, and bit y of *equal_above (y < 64) exactly when row y equals
   row y − 1. */
uint32_t cellhost_adler32_rgb_rows_marking(uint32_t adler, const uint32_t *pixels, size_t stride, uint32_t width,
                                           uint32_t rows, int *opaque, uint64_t *equal_above);

/* The same without the row marks. */
uint32_t cellhost_adler32_rgb_rows(uint32_t adler, const uint32_t *pixels, size_t stride, uint32_t width,
                                   uint32_t rows, int *opaque);

#ifdef CELLHOST_CPU_VARIANTS
/* cellhost_adler32_rgb_rows_marking built for AVX2 (eight pixels a sum) and for AVX-512 (sixteen):
   call only where cellhost_cpu_has_avx2() / cellhost_cpu_has_avx512() says so. Same results. */
uint32_t cellhost_adler32_rgb_rows_avx2(uint32_t adler, const uint32_t *pixels, size_t stride, uint32_t width,
                                        uint32_t rows, int *opaque, uint64_t *equal_above);
uint32_t cellhost_adler32_rgb_rows_avx512(uint32_t adler, const uint32_t *pixels, size_t stride, uint32_t width,
                                          uint32_t rows, int *opaque, uint64_t *equal_above);
#endif
