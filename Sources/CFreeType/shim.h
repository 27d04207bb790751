#pragma once
#include <ft2build.h>
#include FT_FREETYPE_H
#include FT_OUTLINE_H
#include FT_BITMAP_H

/* Load flags are macros of mixed types; one definition keeps shaping and rasterising in step. */
static inline FT_Int32 cellhost_ft_load_flags(void) { return FT_LOAD_NO_HINTING | FT_LOAD_NO_BITMAP; }
