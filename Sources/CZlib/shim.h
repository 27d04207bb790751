#pragma once
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

/* Deflates PNG image data one horizontal strip at a time. Each strip is a raw-deflate segment
   started from a fresh state and ended on a byte boundary (Z_SYNC_FLUSH; the last strip with
   Z_FINISH), so the segments of independently compressed strips concatenate into one valid
   stream, and a strip whose pixels did not change keeps its bytes from the previous frame.
   Level 1, default strategy, filter type 0 ("none"): the fastest of the settings measured
   (BENCHMARKS.md, changes 7 and 8). One deflater per thread. */
typedef struct {
    z_stream stream;
    unsigned char *scanlines;   /* one strip of PNG scanlines: filter byte + pixels, per row */
    size_t capacity;
} cellhost_strip_deflater;

static inline cellhost_strip_deflater *cellhost_strip_deflater_create(void) {
    cellhost_strip_deflater *d = (cellhost_strip_deflater *)calloc(1, sizeof *d);
    if (!d) return NULL;
    if (deflateInit2(&d->stream, 1, Z_DEFLATED, -15, 8, Z_DEFAULT_STRATEGY) != Z_OK) { free(d); return NULL; }
    return d;
}

static inline void cellhost_strip_deflater_destroy(cellhost_strip_deflater *d) {
    if (!d) return;
    deflateEnd(&d->stream);
    free(d->scanlines);
    free(d);
}

/* Bytes of scanlines for `rows` rows of `width` pixels at `channels` bytes each. */
static inline size_t cellhost_strip_scanline_bytes(uint32_t width, uint32_t rows, int channels) {
    return (size_t)rows * (1 + (size_t)width * (size_t)channels);
}

/* The most bytes a strip of `scanline_bytes` can deflate to, sync flush included. */
static inline size_t cellhost_strip_bound(cellhost_strip_deflater *d, size_t scanline_bytes) {
    return (size_t)deflateBound(&d->stream, (uLong)scanline_bytes) + 16;
}

/* 1 when every pixel of the rows is opaque (alpha 255): such strips can be written as RGB. */
static inline int cellhost_rows_are_opaque(const uint32_t *pixels, size_t stride, uint32_t width, uint32_t rows) {
    for (uint32_t y = 0; y < rows; y++) {
        const uint32_t *row = pixels + (size_t)y * stride;
        uint32_t all = 0xFFFFFFFFu;
        for (uint32_t x = 0; x < width; x++) all &= row[x];
        if ((all >> 24) != 0xFF) return 0;
    }
    return 1;
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

/* One row of premultiplied ARGB32 → PNG bytes in R, G, B(, A) order with straight alpha. */
static inline void cellhost_scanline_from_argb(const uint32_t *src, unsigned char *d, uint32_t width, int channels) {
    if (channels == 3) {
        /* Only used when every pixel is opaque, so there is nothing to un-premultiply. */
        for (uint32_t i = 0; i < width; i++, d += 3) {
            uint32_t p = src[i];
            d[0] = (unsigned char)(p >> 16); d[1] = (unsigned char)(p >> 8); d[2] = (unsigned char)p;
        }
        return;
    }
    for (uint32_t i = 0; i < width; i++, d += 4) {
        uint32_t p = src[i], a = p >> 24;
        if (a == 255) {
            d[0] = (unsigned char)(p >> 16); d[1] = (unsigned char)(p >> 8); d[2] = (unsigned char)p; d[3] = 255;
        } else if (a == 0) {
            d[0] = d[1] = d[2] = d[3] = 0;
        } else {
            uint32_t r = (p >> 16) & 0xFF, g = (p >> 8) & 0xFF, b = p & 0xFF;
            uint32_t ur = (r * 255 + a / 2) / a, ug = (g * 255 + a / 2) / a, ub = (b * 255 + a / 2) / a;
            d[0] = (unsigned char)(ur > 255 ? 255 : ur); d[1] = (unsigned char)(ug > 255 ? 255 : ug);
            d[2] = (unsigned char)(ub > 255 ? 255 : ub); d[3] = (unsigned char)a;
        }
    }
}

/* Converts `rows` rows (row stride `stride` pixels) to scanlines and deflates them into `out`
   (at least cellhost_strip_bound bytes). `last`: the strip ends the image (final block).
   Sets *adler to the Adler-32 of the strip's scanlines (combined into the zlib trailer by the
   caller) and returns the compressed length, or -1 when memory or zlib fails. */
static inline long cellhost_deflate_strip(cellhost_strip_deflater *d, const uint32_t *pixels, size_t stride,
                                          uint32_t width, uint32_t rows, int channels, int last,
                                          unsigned char *out, size_t out_capacity, uint32_t *adler) {
    size_t row_bytes = 1 + (size_t)width * (size_t)channels, total = row_bytes * rows;
    if (total > d->capacity) {
        unsigned char *grown = (unsigned char *)realloc(d->scanlines, total);
        if (!grown) return -1;
        d->scanlines = grown;
        d->capacity = total;
    }
    for (uint32_t y = 0; y < rows; y++) {
        unsigned char *line = d->scanlines + (size_t)y * row_bytes;
        line[0] = 0;
        cellhost_scanline_from_argb(pixels + (size_t)y * stride, line + 1, width, channels);
    }
    *adler = (uint32_t)adler32(1L, d->scanlines, (uInt)total);
    if (deflateReset(&d->stream) != Z_OK) return -1;
    d->stream.next_in = d->scanlines;
    d->stream.avail_in = (uInt)total;
    d->stream.next_out = out;
    d->stream.avail_out = (uInt)out_capacity;
    int status = deflate(&d->stream, last ? Z_FINISH : Z_SYNC_FLUSH);
    if (last ? status != Z_STREAM_END : (status != Z_OK || d->stream.avail_in != 0)) return -1;
    return (long)(out_capacity - d->stream.avail_out);
}

/* Adler-32 of two concatenated byte runs from the Adler-32 of each and the second's length. */
static inline uint32_t cellhost_adler32_combine(uint32_t first, uint32_t second, size_t second_length) {
    return (uint32_t)adler32_combine(first, second, (z_off_t)second_length);
}

static inline uint32_t cellhost_crc32(uint32_t crc, const unsigned char *bytes, size_t count) {
    return (uint32_t)crc32(crc, bytes, (uInt)count);
}
