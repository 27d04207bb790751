#pragma once
#include <png.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <stddef.h>
#include <stdint.h>
#include <zlib.h>

/* The simplified-API constants are macros the Swift importer cannot see; expose them as functions. */
static inline png_uint_32 cellhost_png_image_version(void) { return PNG_IMAGE_VERSION; }
static inline png_uint_32 cellhost_png_format_bgra(void) { return PNG_FORMAT_BGRA; }
static inline png_uint_32 cellhost_png_flag_fast(void) { return PNG_IMAGE_FLAG_FAST; }
static inline int cellhost_png_image_failed(const png_image *image) { return PNG_IMAGE_FAILED(*image); }

/* Premultiplied ARGB32 → straight-alpha BGRA bytes, the layout PNG wants. A plain C loop here:
   it runs over every pixel of every frame written, on the writer thread. */
static inline void cellhost_unpremultiply_bgra(const uint32_t *src, unsigned char *dst, size_t count) {
    for (size_t i = 0; i < count; i++) {
        uint32_t p = src[i], a = p >> 24;
        unsigned char *d = dst + 4 * i;
        if (a == 255) {
            d[0] = (unsigned char)p; d[1] = (unsigned char)(p >> 8); d[2] = (unsigned char)(p >> 16); d[3] = 255;
        } else if (a == 0) {
            d[0] = d[1] = d[2] = d[3] = 0;
        } else {
            uint32_t r = (p >> 16) & 0xFF, g = (p >> 8) & 0xFF, b = p & 0xFF;
            uint32_t ur = (r * 255 + a / 2) / a, ug = (g * 255 + a / 2) / a, ub = (b * 255 + a / 2) / a;
            d[0] = (unsigned char)(ub > 255 ? 255 : ub); d[1] = (unsigned char)(ug > 255 ? 255 : ug);
            d[2] = (unsigned char)(ur > 255 ? 255 : ur); d[3] = (unsigned char)a;
        }
    }
}

/* Straight-alpha BGRA bytes → premultiplied ARGB32, for decoded PNG images. */
static inline void cellhost_premultiply_bgra(const unsigned char *src, uint32_t *dst, size_t count) {
    for (size_t i = 0; i < count; i++) {
        const unsigned char *s = src + 4 * i;
        uint32_t a = s[3];
        uint32_t r = (s[2] * a + 127) / 255, g = (s[1] * a + 127) / 255, b = (s[0] * a + 127) / 255;
        dst[i] = a << 24 | r << 16 | g << 8 | b;
    }
}

/* Encoder settings, chosen by measurement (BENCHMARKS.md, "PNG frames"): zlib level 1 with the
   default strategy and no row filter was the fastest of the options tried at a size within 5 % of
   level 3. Z_RLE and Z_HUFFMAN_ONLY are slower and 3–10× larger on BGRA rows (4-byte pixels give
   no distance-1 runs), and the sub/up filters only pay for Z_RLE. */
typedef struct {
    int level;       /* zlib level 0–9 */
    int strategy;    /* Z_DEFAULT_STRATEGY, Z_RLE, Z_HUFFMAN_ONLY, Z_FILTERED */
    int filters;     /* PNG_FILTER_NONE / _SUB / _UP / PNG_ALL_FILTERS… */
    size_t buffer;   /* zlib output buffer size (png_set_compression_buffer_size), 0 = libpng's */
} cellhost_png_settings;

static inline cellhost_png_settings cellhost_png_frame_settings(void) {
    cellhost_png_settings s = { 1, Z_DEFAULT_STRATEGY, PNG_FILTER_NONE, 256 * 1024 };
    return s;
}

typedef struct { char message[200]; } cellhost_png_failure;

static void cellhost_png_error_handler(png_structp png, png_const_charp message) {
    cellhost_png_failure *failure = (cellhost_png_failure *)png_get_error_ptr(png);
    if (failure) snprintf(failure->message, sizeof failure->message, "%s", message);
    png_longjmp(png, 1);
}
static void cellhost_png_warning_handler(png_structp png, png_const_charp message) { (void)png; (void)message; }

/* Writes premultiplied ARGB32 pixels as an 8-bit RGBA PNG (straight alpha, no tIME chunk) to an
   open file, un-premultiplying one row at a time into a single row buffer: no frame-sized copy.
   libpng reports errors by longjmp, which must not cross Swift frames, so the whole libpng
   conversation stays in this C function. Returns 1, or 0 with `failure` filled in. */
static inline int cellhost_png_write_argb(FILE *file, const uint32_t *pixels, uint32_t width, uint32_t height,
                                          cellhost_png_settings settings, cellhost_png_failure *failure) {
    unsigned char *volatile row = NULL;
    png_structp png = png_create_write_struct(PNG_LIBPNG_VER_STRING, failure, cellhost_png_error_handler,
                                              cellhost_png_warning_handler);
    if (!png) { snprintf(failure->message, sizeof failure->message, "out of memory"); return 0; }
    png_infop info = png_create_info_struct(png);
    if (!info) {
        png_destroy_write_struct(&png, NULL);
        snprintf(failure->message, sizeof failure->message, "out of memory");
        return 0;
    }
    if (setjmp(png_jmpbuf(png))) {
        free(row);
        png_destroy_write_struct(&png, &info);
        return 0;
    }
    row = (unsigned char *)malloc((size_t)width * 4);
    if (!row) png_error(png, "out of memory");
    png_init_io(png, file);
    png_set_IHDR(png, info, width, height, 8, PNG_COLOR_TYPE_RGB_ALPHA, PNG_INTERLACE_NONE,
                 PNG_COMPRESSION_TYPE_DEFAULT, PNG_FILTER_TYPE_DEFAULT);
    png_set_filter(png, PNG_FILTER_TYPE_BASE, settings.filters);
    png_set_compression_level(png, settings.level);
    png_set_compression_strategy(png, settings.strategy);
    if (settings.buffer > 0) png_set_compression_buffer_size(png, settings.buffer);
    png_write_info(png, info);
    png_set_bgr(png);
    for (uint32_t y = 0; y < height; y++) {
        cellhost_unpremultiply_bgra(pixels + (size_t)y * width, row, width);
        png_write_row(png, row);
    }
    png_write_end(png, info);
    free(row);
    row = NULL;
    png_destroy_write_struct(&png, &info);
    return 1;
}
