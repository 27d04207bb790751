#pragma once
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include "run_deflate.h"

/* Deflates PNG image data one horizontal strip at a time. Each strip is a raw-deflate segment that
   references nothing before it and ends on a byte boundary (the last one ends the stream), so the
   segments of independently compressed strips concatenate into one valid stream, and a strip whose
   pixels did not change keeps its bytes from the previous frame. Filter type 0 ("none"): the
   encoder (run_deflate.h) matches the row above itself. zlib computes the checksums.
   One deflater per thread. */
typedef struct {
    unsigned char *scanlines;   /* one strip of PNG scanlines: filter byte + pixels, per row */
    size_t capacity;
} cellhost_strip_deflater;

static inline cellhost_strip_deflater *cellhost_strip_deflater_create(void) {
    return (cellhost_strip_deflater *)calloc(1, sizeof(cellhost_strip_deflater));
}

static inline void cellhost_strip_deflater_destroy(cellhost_strip_deflater *d) {
    if (!d) return;
    free(d->scanlines);
    free(d);
}

/* Bytes of scanlines for `rows` rows of `width` pixels at `channels` bytes each. */
static inline size_t cellhost_strip_scanline_bytes(uint32_t width, uint32_t rows, int channels) {
    return (size_t)rows * (1 + (size_t)width * (size_t)channels);
}

/* The most bytes a strip of `scanline_bytes` can deflate to. */
static inline size_t cellhost_strip_bound(size_t scanline_bytes) {
    return cellhost_run_deflate_bound(scanline_bytes);
}

/* 1 when every pixel of the rows equals the first (stored in *color): such a strip deflates to
   the same bytes wherever it sits between the first and the last strip. */
static inline int cellhost_rows_are_uniform(const uint32_t *pixels, size_t stride, uint32_t width, uint32_t rows,
                                            uint32_t *color) {
    uint32_t c = pixels[0];
    *color = c;
    for (uint32_t y = 0; y < rows; y++) {
        const uint32_t *row = pixels + (size_t)y * stride;
        uint32_t differ = 0;
        for (uint32_t x = 0; x < width; x++) differ |= row[x] ^ c;
        if (differ) return 0;
    }
    return 1;
}

/* One row of premultiplied ARGB32 → PNG RGBA bytes with straight alpha; returns the AND of the
   alphas. (RGB rows are never converted: the encoder reads opaque pixels directly.) */
static inline uint32_t cellhost_scanline_rgba_from_argb(const uint32_t *src, unsigned char *d, uint32_t width) {
    uint32_t all = 0xFFFFFFFFu;
    for (uint32_t i = 0; i < width; i++, d += 4) {
        uint32_t p = src[i], a = p >> 24;
        all &= p;
        if (a == 255) {
            uint32_t swapped = __builtin_bswap32(p), rgba = swapped >> 8 | swapped << 24;  /* R, G, B, A */
            memcpy(d, &rgba, 4);
        } else if (a == 0) {
            d[0] = d[1] = d[2] = d[3] = 0;
        } else {
            uint32_t r = (p >> 16) & 0xFF, g = (p >> 8) & 0xFF, b = p & 0xFF;
            uint32_t ur = (r * 255 + a / 2) / a, ug = (g * 255 + a / 2) / a, ub = (b * 255 + a / 2) / a;
            d[0] = (unsigned char)(ur > 255 ? 255 : ur); d[1] = (unsigned char)(ug > 255 ? 255 : ug);
            d[2] = (unsigned char)(ub > 255 ? 255 : ub); d[3] = (unsigned char)a;
        }
    }
    return all >> 24;  /* 255 when every pixel is opaque */
}

/* Adler-32 continued over the RGB scanlines of opaque pixel rows (filter byte 0, then R, G, B per
   pixel) without writing them out; *opaque is set to whether every pixel is opaque (in the same
   pass). Over a scanline of L bytes b_j, s1 grows by Σ b_j and s2 by
   L·s1 + Σ (L − j)·b_j; with v = R+G+B of pixel x (bytes at 1+3x, 2+3x, 3+3x) that weighted sum is
   (L−1)·Σv − 3·Σ x·v − Σ (G + 2B). The sums run in 32 bits over pieces of at most 2,048 pixels.
   Bit y of *equal_above (y < 64) is set when row y equals the row above it: the deflater, which
   reads the same rows next, need not compare them again. `lanes` (8 or 16, a constant where it
   is inlined) is how many pixels the vectorized sums take at a time. */
static inline __attribute__((always_inline)) uint32_t cellhost_adler32_rgb_rows_in_lanes(uint32_t adler, const uint32_t *pixels,
                                                 size_t stride, uint32_t width, uint32_t rows, int *opaque,
                                                 uint64_t *equal_above, const uint32_t lanes) {
    const uint64_t M = 65521;
    uint32_t all = 0xFFFFFFFFu;
    uint64_t s1 = adler & 0xFFFF, s2 = adler >> 16;
    uint64_t L = 1 + 3 * (uint64_t)width;
    uint64_t sum = 0, weighted = 0, tail = 0;  /* Σv, Σ x·v, Σ (G + 2B) of the row, modulo M */
    uint64_t marks = 0;
    for (uint32_t y = 0; y < rows; y++) {
        const uint32_t *row = pixels + (size_t)y * stride;
        /* A row equal to the one above has the same sums (most rows of a flat UI frame). */
        int same = y > 0 && memcmp(row, row - stride, (size_t)width * 4) == 0;
        if (same && y < 64) marks |= (uint64_t)1 << y;
        if (!same) sum = weighted = tail = 0;
        for (uint32_t x0 = 0; !same && x0 < width; x0 += 2048) {
            uint32_t n = width - x0 < 2048 ? width - x0 : 2048;
            /* `lanes` lanes (pixel i in lane i % lanes) the compiler can vectorize: lane sums A, and
               B, the sum of A after each block of `lanes`, so B = Σ_k (K − k)·v over the K blocks
               and Σ x·v = Σ_lanes lanes·(K·A − B) + lane·A, with additions only. */
            const uint32_t *piece = row + x0;
            uint32_t A[16] = {0}, B[16] = {0}, T[16] = {0}, And[16];
            for (uint32_t l = 0; l < lanes; l++) And[l] = 0xFFFFFFFFu;
            uint32_t blocks = n / lanes;
            for (uint32_t k = 0; k < blocks; k++) {
                for (uint32_t l = 0; l < lanes; l++) {
                    uint32_t p = piece[lanes * k + l], g = (p >> 8) & 0xFF, b = p & 0xFF;
                    And[l] &= p;
                    A[l] += ((p >> 16) & 0xFF) + g + b;
                    B[l] += A[l];
                    T[l] += g + 2 * b;
                }
            }
            uint32_t piece_sum = 0, piece_weighted = 0, piece_tail = 0;
            for (uint32_t l = 0; l < lanes; l++) {
                all &= And[l];
                piece_sum += A[l];
                piece_weighted += lanes * (blocks * A[l] - B[l]) + l * A[l];
                piece_tail += T[l];
            }
            for (uint32_t i = lanes * blocks; i < n; i++) {
                uint32_t p = piece[i], g = (p >> 8) & 0xFF, b = p & 0xFF, v = ((p >> 16) & 0xFF) + g + b;
                all &= p;
                piece_sum += v;
                piece_weighted += i * v;
                piece_tail += g + 2 * b;
            }
            sum = (sum + piece_sum) % M;
            weighted = (weighted + piece_weighted + (x0 % M) * piece_sum) % M;
            tail = (tail + piece_tail) % M;
        }
        uint64_t gain = ((L - 1) % M) * sum % M, loss = (3 * weighted + tail) % M;
        s2 = (s2 + (L % M) * s1 + gain + M - loss) % M;
        s1 = (s1 + sum) % M;
    }
    *opaque = (all >> 24) == 0xFF;
    *equal_above = marks;
    return (uint32_t)(s2 << 16 | s1);
}

static inline uint32_t cellhost_adler32_rgb_rows_marking(uint32_t adler, const uint32_t *pixels, size_t stride,
                                                         uint32_t width, uint32_t rows, int *opaque, uint64_t *equal_above) {
    return cellhost_adler32_rgb_rows_in_lanes(adler, pixels, stride, width, rows, opaque, equal_above, 8);
}

static inline uint32_t cellhost_adler32_rgb_rows(uint32_t adler, const uint32_t *pixels, size_t stride, uint32_t width,
                                                 uint32_t rows, int *opaque) {
    uint64_t marks;
    return cellhost_adler32_rgb_rows_marking(adler, pixels, stride, width, rows, opaque, &marks);
}

#if defined(__x86_64__) && defined(__clang__)
#include <cpuid.h>
/* The two passes over every pixel of a strip (Adler-32 with opacity, and the run search) compiled a
   second time for AVX2, which compares and sums twice the pixels per instruction of the baseline
   x86-64 (SSE2) build, and the checksum a third time for AVX-512 (F, BW, VL), whose sums take
   sixteen pixels at a time (3.6 → 2.0 µs for a 780 × 32 strip of distinct rows, measured); each
   chosen at run time when the processor has it and the OS saves its registers. */
enum { CELLHOST_CPU_AVX2 = 1, CELLHOST_CPU_AVX512 = 2 };

/* The CELLHOST_CPU_ bits this processor and OS support, probed once. */
static inline int cellhost_cpu_features(void) {
    static int known = -1;
    int value = __atomic_load_n(&known, __ATOMIC_RELAXED);
    if (value < 0) {
        unsigned a, b, c, d;
        value = 0;
        if (__get_cpuid(1, &a, &b, &c, &d) && (c & bit_OSXSAVE) && (c & bit_AVX)) {
            unsigned lo, hi;
            __asm__("xgetbv" : "=a"(lo), "=d"(hi) : "c"(0));
            if ((lo & 6) == 6 && __get_cpuid_count(7, 0, &a, &b, &c, &d) && (b & bit_AVX2)) {
                value |= CELLHOST_CPU_AVX2;
                /* Opmask and both halves of the ZMM registers saved too. */
                if ((lo & 0xE6) == 0xE6 && (b & bit_AVX512F) && (b & bit_AVX512BW) && (b & bit_AVX512VL)) {
                    value |= CELLHOST_CPU_AVX512;
                }
            }
        }
        __atomic_store_n(&known, value, __ATOMIC_RELAXED);
    }
    return value;
}

static inline int cellhost_cpu_has_avx2(void) { return (cellhost_cpu_features() & CELLHOST_CPU_AVX2) != 0; }
static inline int cellhost_cpu_has_avx512(void) { return (cellhost_cpu_features() & CELLHOST_CPU_AVX512) != 0; }

__attribute__((target("avx2"))) static uint32_t cellhost_adler32_rgb_rows_avx2(uint32_t adler, const uint32_t *pixels,
                                                                                size_t stride, uint32_t width,
                                                                                uint32_t rows, int *opaque,
                                                                                uint64_t *equal_above) {
    return cellhost_adler32_rgb_rows_in_lanes(adler, pixels, stride, width, rows, opaque, equal_above, 8);
}

__attribute__((target("avx512f,avx512bw,avx512vl"))) static uint32_t cellhost_adler32_rgb_rows_avx512(
    uint32_t adler, const uint32_t *pixels, size_t stride, uint32_t width, uint32_t rows, int *opaque,
    uint64_t *equal_above) {
    return cellhost_adler32_rgb_rows_in_lanes(adler, pixels, stride, width, rows, opaque, equal_above, 16);
}

__attribute__((target("avx2"))) static size_t cellhost_run_deflate_avx2(const uint32_t *pixels, size_t stride, uint32_t width,
                                                                         uint32_t rows, int channels,
                                                                         const unsigned char *scanlines, int last,
                                                                         const uint64_t *equal_above, unsigned char *out) {
    return cellhost_run_deflate(pixels, stride, width, rows, channels, scanlines, last, equal_above, out);
}
#define CELLHOST_ADLER32_RGB_ROWS (cellhost_cpu_has_avx512() ? cellhost_adler32_rgb_rows_avx512 \
                                   : cellhost_cpu_has_avx2() ? cellhost_adler32_rgb_rows_avx2 : cellhost_adler32_rgb_rows_marking)
#define CELLHOST_RUN_DEFLATE (cellhost_cpu_has_avx2() ? cellhost_run_deflate_avx2 : cellhost_run_deflate)
#else
#define CELLHOST_ADLER32_RGB_ROWS cellhost_adler32_rgb_rows_marking
#define CELLHOST_RUN_DEFLATE cellhost_run_deflate
#endif

/* Deflates `rows` rows (row stride `stride` pixels) as scanlines into `out` (at least
   cellhost_strip_bound bytes); RGBA rows are converted into the deflater's buffer first.
   `last`: the strip ends the image (final block). Sets *adler to the Adler-32 of the strip's
   scanlines (combined into the zlib trailer by the caller) and *opaque to whether every pixel is
   opaque (if not, RGB output is useless: nothing is deflated and the caller deflates again as
   RGBA). Returns the compressed length, or -1 when memory fails. */
static inline long cellhost_deflate_strip(cellhost_strip_deflater *d, const uint32_t *pixels, size_t stride,
                                          uint32_t width, uint32_t rows, int channels, int last,
                                          unsigned char *out, size_t out_capacity, uint32_t *adler, int *opaque) {
    size_t row_bytes = 1 + (size_t)width * (size_t)channels, total = row_bytes * rows;
    if (out_capacity < cellhost_run_deflate_bound(total)) return -1;
    if (channels == 3) {
        uint64_t equal_above;
        *adler = CELLHOST_ADLER32_RGB_ROWS(1, pixels, stride, width, rows, opaque, &equal_above);
        if (!*opaque) return 0;  /* not writable as RGB: nothing deflated */
        return (long)CELLHOST_RUN_DEFLATE(pixels, stride, width, rows, channels, NULL, last,
                                          rows <= 64 ? &equal_above : NULL, out);
    }
    if (total > d->capacity) {
        unsigned char *grown = (unsigned char *)realloc(d->scanlines, total);
        if (!grown) return -1;
        d->scanlines = grown;
        d->capacity = total;
    }
    uint32_t alpha = 0xFF;
    for (uint32_t y = 0; y < rows; y++) {
        unsigned char *line = d->scanlines + (size_t)y * row_bytes;
        line[0] = 0;
        alpha &= cellhost_scanline_rgba_from_argb(pixels + (size_t)y * stride, line + 1, width);
    }
    *opaque = alpha == 0xFF;
    *adler = (uint32_t)adler32(1L, d->scanlines, (uInt)total);
    return (long)CELLHOST_RUN_DEFLATE(pixels, stride, width, rows, channels, d->scanlines, last, NULL, out);
}

/* Inflates one strip's raw-deflate segment (`in`, without the zlib header) back into premultiplied
   ARGB32 pixels (`rows` rows of `width`, packed) from `channels`-byte scanlines with filter 0, as
   cellhost_deflate_strip wrote them, through the deflater's scanline buffer. Used only for strips
   whose pixels are all opaque (straight and premultiplied then agree), to deflate them again with
   the other colour type without keeping a copy of every strip's pixels. Returns 0, or -1 when the
   segment does not inflate to exactly the expected scanlines or memory fails. */
static inline int cellhost_inflate_strip(cellhost_strip_deflater *d, const unsigned char *in, size_t in_length,
                                         uint32_t width, uint32_t rows, int channels, uint32_t *pixels) {
    size_t row_bytes = 1 + (size_t)width * (size_t)channels, total = row_bytes * rows;
    if (total > d->capacity) {
        unsigned char *grown = (unsigned char *)realloc(d->scanlines, total);
        if (!grown) return -1;
        d->scanlines = grown;
        d->capacity = total;
    }
    z_stream z;
    memset(&z, 0, sizeof z);
    if (inflateInit2(&z, -15) != Z_OK) return -1;
    z.next_in = (Bytef *)in;
    z.avail_in = (uInt)in_length;
    z.next_out = d->scanlines;
    z.avail_out = (uInt)total;
    int status = inflate(&z, Z_SYNC_FLUSH);
    int complete = (status == Z_OK || status == Z_STREAM_END || status == Z_BUF_ERROR) && z.avail_out == 0;
    inflateEnd(&z);
    if (!complete) return -1;
    for (uint32_t y = 0; y < rows; y++) {
        const unsigned char *s = d->scanlines + (size_t)y * row_bytes + 1;
        uint32_t *p = pixels + (size_t)y * width;
        if (channels == 3) {
            for (uint32_t x = 0; x < width; x++, s += 3) p[x] = 0xFF000000u | (uint32_t)s[0] << 16 | (uint32_t)s[1] << 8 | s[2];
        } else {
            for (uint32_t x = 0; x < width; x++, s += 4) p[x] = (uint32_t)s[3] << 24 | (uint32_t)s[0] << 16 | (uint32_t)s[1] << 8 | s[2];
        }
    }
    return 0;
}

/* Adler-32 of two concatenated byte runs from the Adler-32 of each and the second's length. */
static inline uint32_t cellhost_adler32_combine(uint32_t first, uint32_t second, size_t second_length) {
    return (uint32_t)adler32_combine(first, second, (z_off_t)second_length);
}

static inline uint32_t cellhost_crc32(uint32_t crc, const unsigned char *bytes, size_t count) {
    return (uint32_t)crc32(crc, bytes, (uInt)count);
}
