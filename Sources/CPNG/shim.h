#pragma once
#include <png.h>

/* The simplified-API constants are macros the Swift importer cannot see; expose them as functions. */
static inline png_uint_32 cellhost_png_image_version(void) { return PNG_IMAGE_VERSION; }
static inline png_uint_32 cellhost_png_format_bgra(void) { return PNG_FORMAT_BGRA; }
static inline png_uint_32 cellhost_png_flag_fast(void) { return PNG_IMAGE_FLAG_FAST; }
static inline int cellhost_png_image_failed(const png_image *image) { return PNG_IMAGE_FAILED(*image); }
