#pragma once
#include <png.h>
#include <stddef.h>
#include <stdint.h>

/* The simplified-API constants are macros the Swift importer cannot see; expose them as functions. */
static inline png_uint_32 cellhost_png_image_version(void) { return PNG_IMAGE_VERSION; }
static inline png_uint_32 cellhost_png_format_bgra(void) { return PNG_FORMAT_BGRA; }
static inline int cellhost_png_image_failed(const png_image *image) { return PNG_IMAGE_FAILED(*image); }

/* Straight-alpha BGRA bytes → premultiplied ARGB32, for decoded PNG images. */
static inline void cellhost_premultiply_bgra(const unsigned char *src, uint32_t *dst, size_t count) {
    for (size_t i = 0; i < count; i++) {
        const unsigned char *s = src + 4 * i;
        uint32_t a = s[3];
        uint32_t r = (s[2] * a + 127) / 255, g = (s[1] * a + 127) / 255, b = (s[0] * a + 127) / 255;
        dst[i] = a << 24 | r << 16 | g << 8 | b;
    }
}
