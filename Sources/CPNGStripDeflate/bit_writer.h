#pragma once
/* Private to the deflate encoder: deflate's least-significant-bit-first bit stream. */
#include <stdint.h>

typedef struct {
    uint64_t bits;      /* pending bits, least significant first */
    unsigned count;     /* how many of them (below 32 between calls) */
    unsigned char *out;
} cellhost_bit_writer;

/* Appends `count` (≤ 32) bits. */
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

/* Writes the pending bits, the last byte padded with zeros: the stream is then byte-aligned. */
static inline void cellhost_flush_bits(cellhost_bit_writer *w) {
    while (w->count > 0) {
        *w->out++ = (unsigned char)w->bits;
        w->bits >>= 8;
        w->count = w->count > 8 ? w->count - 8 : 0;
    }
    w->bits = 0;
}
