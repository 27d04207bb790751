#include <string.h>

#include "fixed_huffman_tables.h"
#include "run_deflate.h"

typedef struct {
    uint64_t bits;      /* pending bits, least significant first */
    unsigned count;     /* how many of them */
    unsigned char *out;
} cellhost_bit_writer;

static inline __attribute__((always_inline)) void cellhost_put_bits(cellhost_bit_writer *w, uint32_t bits, unsigned count) {
    w->bits |= (uint64_t)bits << w->count;
    w->count += count;
    if (w->count >= 32) {
        uint32_t low = (uint32_t)w->bits;
        w->out[0] = (unsigned char)low; w->out[1] = (unsigned char)(low >> 8);
        w->out[2] = (unsigned char)(low >> 16); w->out[3] = (unsigned char)(low >> 24);
        w->out += 4;
        w->bits >>= 32;
        w->count -= 32;
    }
}

/* Writes the pending bits, the last byte padded with zeros. */
static inline void cellhost_flush_bits(cellhost_bit_writer *w) {
    while (w->count > 0) {
        *w->out++ = (unsigned char)w->bits;
        w->bits >>= 8;
        w->count = w->count > 8 ? w->count - 8 : 0;
    }
    w->bits = 0;
}

static inline __attribute__((always_inline)) void cellhost_put_literal(cellhost_bit_writer *w, unsigned char byte) {
    cellhost_put_bits(w, cellhost_fixed_literal_code[byte], byte < 144 ? 8 : 9);
}

/* A distance's fixed code (5 bits, reversed) followed by its extra bits. */
typedef struct { uint32_t bits; unsigned count; } cellhost_distance_code;

static inline cellhost_distance_code cellhost_fixed_distance(uint32_t distance) {
    /* Codes 0–3 are distances 1–4; code 2k+2 / 2k+3 (k ≥ 1) starts at 2^(k+1)+1 / 3·2^k+1 with k extra bits. */
    uint32_t code, extra_bits, extra;
    if (distance <= 4) {
        code = distance - 1; extra_bits = 0; extra = 0;
    } else {
        uint32_t d = distance - 1, top = 31 - (uint32_t)__builtin_clz(d);  /* d ≥ 4, top ≥ 2 */
        extra_bits = top - 1;
        code = 2 * top + ((d >> extra_bits) & 1);
        extra = d & ((1u << extra_bits) - 1);
    }
    uint32_t reversed = 0;
    for (int i = 0; i < 5; i++) reversed |= ((code >> i) & 1) << (4 - i);
    cellhost_distance_code result = { reversed | (extra << 5), 5 + extra_bits };
    return result;
}

/* Copies of `length` (≥ 3) bytes from `distance` back, as matches of at most 258 bytes. A length
   code with its extra bits (≤ 13) and a distance code with its extra bits (≤ 18) fit one 32-bit
   write. */
static inline __attribute__((always_inline)) void cellhost_put_match(cellhost_bit_writer *w, uint32_t length, cellhost_distance_code distance) {
    if (length > 258) {
        /* Every full 258-byte match is the same bits. */
        unsigned full_count = cellhost_fixed_length_bits[255] + distance.count;
        uint32_t full = cellhost_fixed_length_code[255] | distance.bits << cellhost_fixed_length_bits[255];
        while (length > 258) {
            if (length - 258 >= 3) {
                cellhost_put_bits(w, full, full_count);
                length -= 258;
            } else {
                uint32_t take = length - 3;
                unsigned n = cellhost_fixed_length_bits[take - 3];
                cellhost_put_bits(w, cellhost_fixed_length_code[take - 3] | distance.bits << n, n + distance.count);
                length -= take;
            }
        }
    }
    unsigned n = cellhost_fixed_length_bits[length - 3];
    cellhost_put_bits(w, cellhost_fixed_length_code[length - 3] | distance.bits << n, n + distance.count);
}

/* Three literal bytes (at most 27 bits) in one write. */
static inline __attribute__((always_inline)) void cellhost_put_literals3(cellhost_bit_writer *w, unsigned char a, unsigned char b, unsigned char c) {
    unsigned na = a < 144 ? 8 : 9, nb = b < 144 ? 8 : 9, nc = c < 144 ? 8 : 9;
    uint32_t bits = (uint32_t)cellhost_fixed_literal_code[a] | (uint32_t)cellhost_fixed_literal_code[b] << na
                  | (uint32_t)cellhost_fixed_literal_code[c] << (na + nb);
    cellhost_put_bits(w, bits, na + nb + nc);
}

/* How many pixels from `a` on equal those from `b`, at most `limit`. */
static inline __attribute__((always_inline)) uint32_t cellhost_equal_run(const uint32_t *a, const uint32_t *b, uint32_t limit) {
    uint32_t n = 0;
    while (n + 16 <= limit) {
        uint32_t differ = 0;
        for (int i = 0; i < 16; i++) differ |= a[n + i] ^ b[n + i];
        if (differ) break;
        n += 16;
    }
    while (n + 4 <= limit && ((a[n] ^ b[n]) | (a[n + 1] ^ b[n + 1]) | (a[n + 2] ^ b[n + 2]) | (a[n + 3] ^ b[n + 3])) == 0) n += 4;
    while (n < limit && a[n] == b[n]) n++;
    return n;
}

/* How many pixels from `a` on equal `color`, at most `limit`. */
static inline __attribute__((always_inline)) uint32_t cellhost_color_run(const uint32_t *a, uint32_t color, uint32_t limit) {
    uint32_t n = 0;
    while (n + 16 <= limit) {
        uint32_t differ = 0;
        for (int i = 0; i < 16; i++) differ |= a[n + i] ^ color;
        if (differ) break;
        n += 16;
    }
    while (n + 4 <= limit && ((a[n] ^ color) | (a[n + 1] ^ color) | (a[n + 2] ^ color) | (a[n + 3] ^ color)) == 0) n += 4;
    while (n < limit && a[n] == color) n++;
    return n;
}

size_t cellhost_run_deflate_bound(size_t scanline_bytes) {
    return scanline_bytes + scanline_bytes / 2 + 16;
}

/* The encoder, always inlined into each build below so each is compiled for its processor. */
static inline __attribute__((always_inline)) size_t run_deflate(const uint32_t *pixels, size_t stride, uint32_t width,
                                                                uint32_t rows, int channels,
                                                                const unsigned char *scanlines, int last,
                                                                const uint64_t *equal_above, unsigned char *out) {
    size_t row_bytes = 1 + (size_t)width * (size_t)channels;
    cellhost_bit_writer w = { 0, 0, out };
    cellhost_put_bits(&w, last ? 1u : 0u, 1);
    cellhost_put_bits(&w, 1, 2);  /* fixed Huffman codes */
    cellhost_distance_code left = cellhost_fixed_distance((uint32_t)channels);
    /* Deflate reaches 32,768 bytes back: wider rows match only to the left. */
    int up_allowed = row_bytes <= 32768;
    cellhost_distance_code up = cellhost_fixed_distance(up_allowed ? (uint32_t)row_bytes : 1);
    for (uint32_t y = 0; y < rows; y++) {
        const uint32_t *row = pixels + (size_t)y * stride;
        int has_above = y > 0 && up_allowed;
        const uint32_t *above = has_above ? row - stride : row;
        const unsigned char *line = scanlines ? scanlines + (size_t)y * row_bytes + 1 : NULL;
        uint32_t x = 0;
        /* The filter byte (0) matches the one above, so a run from the row's start includes it. */
        uint32_t start = 0;
        if (has_above) {
            int equal = equal_above ? (int)((*equal_above >> y) & 1) : memcmp(row, above, (size_t)width * 4) == 0;
            start = equal ? width : cellhost_equal_run(row, above, width);
        }
        if (start > 0) {
            cellhost_put_match(&w, 1 + start * (uint32_t)channels, up);
            x = start;
        } else {
            cellhost_put_literal(&w, 0);
        }
        while (x < width) {
            uint32_t up_run = has_above && row[x] == above[x] ? cellhost_equal_run(row + x, above + x, width - x) : 0;
            uint32_t left_run = x > 0 && row[x] == row[x - 1] ? cellhost_color_run(row + x, row[x - 1], width - x) : 0;
            if (up_run == 0 && left_run == 0) {
                if (line) {
                    const unsigned char *p = line + (size_t)x * (size_t)channels;
                    cellhost_put_literals3(&w, p[0], p[1], p[2]);
                    if (channels == 4) cellhost_put_literal(&w, p[3]);
                } else {
                    uint32_t p = row[x];
                    cellhost_put_literals3(&w, (unsigned char)(p >> 16), (unsigned char)(p >> 8), (unsigned char)p);
                }
                x++;
            } else if (left_run >= up_run) {  /* on a tie the nearer copy: its distance needs no extra bits */
                cellhost_put_match(&w, left_run * (uint32_t)channels, left);
                x += left_run;
            } else {
                cellhost_put_match(&w, up_run * (uint32_t)channels, up);
                x += up_run;
            }
        }
    }
    cellhost_put_bits(&w, 0, 7);  /* end of block: code 256 is seven zero bits */
    if (!last) {
        cellhost_put_bits(&w, 0, 3);  /* an empty stored block: BFINAL 0, BTYPE 00 … */
        cellhost_flush_bits(&w);
        w.out[0] = 0; w.out[1] = 0; w.out[2] = 0xFF; w.out[3] = 0xFF;  /* … LEN 0, NLEN ~0 */
        w.out += 4;
    } else {
        cellhost_flush_bits(&w);
    }
    return (size_t)(w.out - out);
}

size_t cellhost_run_deflate(const uint32_t *pixels, size_t stride, uint32_t width, uint32_t rows, int channels,
                            const unsigned char *scanlines, int last, const uint64_t *equal_above, unsigned char *out) {
    return run_deflate(pixels, stride, width, rows, channels, scanlines, last, equal_above, out);
}

#ifdef CELLHOST_CPU_VARIANTS
__attribute__((target("avx2"))) size_t cellhost_run_deflate_avx2(
    const uint32_t *pixels, size_t stride, uint32_t width, uint32_t rows, int channels, const unsigned char *scanlines,
    int last, const uint64_t *equal_above, unsigned char *out) {
    return run_deflate(pixels, stride, width, rows, channels, scanlines, last, equal_above, out);
}
#endif
