#include <string.h>

#include "adler32_rgb_rows.h"

/* Over a scanline of L bytes b_j, s1 grows by Σ b_j and s2 by L·s1 + Σ (L − j)·b_j; with
   v = R+G+B of pixel x (bytes at 1+3x, 2+3x, 3+3x) that weighted sum is
   (L−1)·Σv − 3·Σ x·v − Σ (G + 2B). The per-pixel sums run in 32 bits over pieces of at most
   2,048 pixels, which cannot overflow (2,048 · 2,048 · 765 < 2³²), and are reduced modulo 65521
   after each piece. `lanes` (8 or 16, a constant in each build below, which is why this is
   always inlined) is how many pixels the vectorized sums take at a time. */
static inline __attribute__((always_inline)) uint32_t adler32_rgb_rows_in_lanes(
    uint32_t adler, const uint32_t *pixels, size_t stride, uint32_t width, uint32_t rows, int *opaque,
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

uint32_t cellhost_adler32_rgb_rows_marking(uint32_t adler, const uint32_t *pixels, size_t stride, uint32_t width,
                                           uint32_t rows, int *opaque, uint64_t *equal_above) {
    return adler32_rgb_rows_in_lanes(adler, pixels, stride, width, rows, opaque, equal_above, 8);
}

uint32_t cellhost_adler32_rgb_rows(uint32_t adler, const uint32_t *pixels, size_t stride, uint32_t width,
                                   uint32_t rows, int *opaque) {
    uint64_t marks;
    return cellhost_adler32_rgb_rows_marking(adler, pixels, stride, width, rows, opaque, &marks);
}

#ifdef CELLHOST_CPU_VARIANTS
__attribute__((target("avx2"))) uint32_t cellhost_adler32_rgb_rows_avx2(
    uint32_t adler, const uint32_t *pixels, size_t stride, uint32_t width, uint32_t rows, int *opaque,
    uint64_t *equal_above) {
    return adler32_rgb_rows_in_lanes(adler, pixels, stride, width, rows, opaque, equal_above, 8);
}

__attribute__((target("avx512f,avx512bw,avx512vl"))) uint32_t cellhost_adler32_rgb_rows_avx512(
    uint32_t adler, const uint32_t *pixels, size_t stride, uint32_t width, uint32_t rows, int *opaque,
    uint64_t *equal_above) {
    return adler32_rgb_rows_in_lanes(adler, pixels, stride, width, rows, opaque, equal_above, 16);
}
#endif
