#pragma once
#include <png.h>
#include <stddef.h>
#include <stdint.h>

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
