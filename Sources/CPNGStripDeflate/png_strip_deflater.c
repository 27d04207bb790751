#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include "adler32_rgb_rows.h"
#include "png_strip_deflater.h"
#include "run_deflate.h"

struct cellhost_strip_deflater {
    unsigned char *scanlines;   /* one strip of PNG scanlines: filter byte + pixels, per row */
    size_t capacity;
    cellhost_run_deflate_workspace *workspace;
};

cellhost_strip_deflater *cellhost_strip_deflater_create(void) {
    cellhost_strip_deflater *d = (cellhost_strip_deflater *)calloc(1, sizeof(cellhost_strip_deflater));
    if (!d) return NULL;
    d->workspace = cellhost_run_deflate_workspace_create();
    if (!d->workspace) { free(d); return NULL; }
    return d;
}

void cellhost_strip_deflater_destroy(cellhost_strip_deflater *d) {
    if (!d) return;
    cellhost_run_deflate_workspace_destroy(d->workspace);
    free(d->scanlines);
    free(d);
}

size_t cellhost_strip_scanline_bytes(uint32_t width, uint32_t rows, int channels) {
    return (size_t)rows * (1 + (size_t)width * (size_t)channels);
}

size_t cellhost_strip_bound(size_t scanline_bytes) {
    return cellhost_run_deflate_bound(scanline_bytes);
}

int cellhost_rows_are_uniform(const uint32_t *pixels, size_t stride, uint32_t width, uint32_t rows, uint32_t *color) {
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

/* Grows the deflater's scanline buffer to `total` bytes; 0, or -1 when memory fails. */
static int reserve_scanlines(cellhost_strip_deflater *d, size_t total) {
    if (total <= d->capacity) return 0;
    unsigned char *grown = (unsigned char *)realloc(d->scanlines, total);
    if (!grown) return -1;
    d->scanlines = grown;
    d->capacity = total;
    return 0;
}

/* One row of premultiplied ARGB32 → PNG RGBA bytes with straight alpha; returns the AND of the
   alphas. (RGB rows are never converted: the encoder reads opaque pixels directly.) */
static uint32_t scanline_rgba_from_argb(const uint32_t *src, unsigned char *d, uint32_t width) {
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

/* The build of each per-pixel pass for this processor (cpu_features.h); every build gives the
   same result. */
static uint32_t adler32_rgb_rows_here(uint32_t adler, const uint32_t *pixels, size_t stride, uint32_t width,
                                      uint32_t rows, int *opaque, uint64_t *equal_above) {
#ifdef CELLHOST_CPU_VARIANTS
    if (cellhost_cpu_has_avx512()) return cellhost_adler32_rgb_rows_avx512(adler, pixels, stride, width, rows, opaque, equal_above);
    if (cellhost_cpu_has_avx2()) return cellhost_adler32_rgb_rows_avx2(adler, pixels, stride, width, rows, opaque, equal_above);
#endif
    return cellhost_adler32_rgb_rows_marking(adler, pixels, stride, width, rows, opaque, equal_above);
}

/* The strip's deflated length, or -1 when memory fails. */
static long run_deflate_here(cellhost_strip_deflater *d, const uint32_t *pixels, size_t stride, uint32_t width,
                             uint32_t rows, int channels, const unsigned char *scanlines, int last,
                             const uint64_t *equal_above, unsigned char *out) {
    size_t length;
#ifdef CELLHOST_CPU_VARIANTS
    if (cellhost_cpu_has_avx2()) {
        length = cellhost_run_deflate_avx2(d->workspace, pixels, stride, width, rows, channels, scanlines, last, equal_above, out);
    } else
#endif
    length = cellhost_run_deflate(d->workspace, pixels, stride, width, rows, channels, scanlines, last, equal_above, out);
    return length > 0 ? (long)length : -1;
}

long cellhost_deflate_strip(cellhost_strip_deflater *d, const uint32_t *pixels, size_t stride, uint32_t width,
                            uint32_t rows, int channels, int last, unsigned char *out, size_t out_capacity,
                            uint32_t *adler, int *opaque) {
    size_t row_bytes = 1 + (size_t)width * (size_t)channels, total = row_bytes * rows;
    if (out_capacity < cellhost_run_deflate_bound(total)) return -1;
    if (channels == 3) {
        /* Opaque pixels are their own RGB bytes: checksum and deflate read them directly. */
        uint64_t equal_above;
        *adler = adler32_rgb_rows_here(1, pixels, stride, width, rows, opaque, &equal_above);
        if (!*opaque) return 0;  /* not writable as RGB: nothing deflated */
        return run_deflate_here(d, pixels, stride, width, rows, channels, NULL, last, rows <= 64 ? &equal_above : NULL, out);
    }
    if (reserve_scanlines(d, total) != 0) return -1;
    uint32_t alpha = 0xFF;
    for (uint32_t y = 0; y < rows; y++) {
        unsigned char *line = d->scanlines + (size_t)y * row_bytes;
        line[0] = 0;
        alpha &= scanline_rgba_from_argb(pixels + (size_t)y * stride, line + 1, width);
    }
    *opaque = alpha == 0xFF;
    *adler = (uint32_t)adler32(1L, d->scanlines, (uInt)total);
    return run_deflate_here(d, pixels, stride, width, rows, channels, d->scanlines, last, NULL, out);
}

int cellhost_inflate_strip(cellhost_strip_deflater *d, const unsigned char *in, size_t in_length, uint32_t width,
                           uint32_t rows, int channels, uint32_t *pixels) {
    size_t row_bytes = 1 + (size_t)width * (size_t)channels, total = row_bytes * rows;
    if (reserve_scanlines(d, total) != 0) return -1;
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

uint32_t cellhost_adler32_combine(uint32_t first, uint32_t second, size_t second_length) {
    return (uint32_t)adler32_combine(first, second, (z_off_t)second_length);
}

uint32_t cellhost_crc32(uint32_t crc, const unsigned char *bytes, size_t count) {
    return (uint32_t)crc32(crc, bytes, (uInt)count);
}
