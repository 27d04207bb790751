#include <string.h>

#include "huffman_code.h"

/* A symbol with its count, sorted by count (then by symbol, so the lengths are deterministic). */
typedef struct { uint32_t count; uint16_t symbol; } weighted_symbol;

/* Sorts `n` symbols ascending by count with an LSD radix sort over the count's bytes (stable, so
   equal counts stay in symbol order), skipping the bytes no count uses. */
static void sort_by_count(weighted_symbol *items, weighted_symbol *scratch, unsigned n) {
    uint32_t all = 0;
    for (unsigned i = 0; i < n; i++) all |= items[i].count;
    weighted_symbol *from = items, *to = scratch;
    for (unsigned shift = 0; shift < 32 && (all >> shift) != 0; shift += 8) {
        unsigned offsets[256] = {0};
        for (unsigned i = 0; i < n; i++) offsets[(from[i].count >> shift) & 0xFF]++;
        unsigned total = 0;
        for (unsigned b = 0; b < 256; b++) { unsigned c = offsets[b]; offsets[b] = total; total += c; }
        for (unsigned i = 0; i < n; i++) to[offsets[(from[i].count >> shift) & 0xFF]++] = from[i];
        weighted_symbol *t = from; from = to; to = t;
    }
    if (from != items) memcpy(items, from, n * sizeof *items);
}

/* Replaces the counts a[0…n−1] (ascending, n ≥ 2) by the lengths of an optimal prefix code, in
   place, without a tree: Moffat and Katajainen, "In-place calculation of minimum-redundancy
   codes" (1995). a[i] becomes the length of the symbol with the i-th smallest count. */
static void minimum_redundancy_lengths(uint32_t *a, int n) {
    int root = 0, leaf = 2, next;
    a[0] += a[1];
    /* Phase 1: internal node weights, each replaced by its parent's index once merged. */
    for (next = 1; next < n - 1; next++) {
        if (leaf >= n || a[root] < a[leaf]) { a[next] = a[root]; a[root++] = (uint32_t)next; }
        else a[next] = a[leaf++];
        if (leaf >= n || (root < next && a[root] < a[leaf])) { a[next] += a[root]; a[root++] = (uint32_t)next; }
        else a[next] += a[leaf++];
    }
    /* Phase 2: internal node depths. */
    a[n - 2] = 0;
    for (next = n - 3; next >= 0; next--) a[next] = a[a[next]] + 1;
    /* Phase 3: leaf depths from how many internal nodes sit at each depth. */
    int available = 1, used = 0, depth = 0;
    root = n - 2;
    next = n - 1;
    while (available > 0) {
        while (root >= 0 && (int)a[root] == depth) { used++; root--; }
        while (available > used) { a[next--] = (uint32_t)depth; available--; }
        available = 2 * used;
        depth++;
        used = 0;
    }
}

void cellhost_huffman_lengths(const uint32_t *counts, unsigned symbols, unsigned max_bits, uint8_t *lengths) {
    weighted_symbol items[CELLHOST_HUFFMAN_MAX_SYMBOLS], scratch[CELLHOST_HUFFMAN_MAX_SYMBOLS];
    unsigned n = 0;
    memset(lengths, 0, symbols);
    for (unsigned s = 0; s < symbols; s++) {
        if (counts[s]) { items[n].count = counts[s]; items[n].symbol = (uint16_t)s; n++; }
    }
    if (n < 2) {
        /* One code of length 1 is not a complete code: pair the used symbol (if any) with the
           first unused ones. */
        for (unsigned s = 0; s < symbols && n < 2; s++) {
            if (!counts[s]) { lengths[s] = 1; n++; }
        }
        for (unsigned s = 0; s < symbols; s++) if (counts[s]) lengths[s] = 1;
        return;
    }
    sort_by_count(items, scratch, n);
    uint32_t depth[CELLHOST_HUFFMAN_MAX_SYMBOLS];
    for (unsigned i = 0; i < n; i++) depth[i] = items[i].count;
    minimum_redundancy_lengths(depth, (int)n);

    /* Leaves per length, the overlong ones counted at the limit; then, while the Kraft sum
       exceeds one, a leaf at the limit goes and the deepest shorter leaf splits into two one
       level down (which keeps the count of leaves and lowers the sum by one limit-level unit). */
    unsigned per_length[32] = {0};
    for (unsigned i = 0; i < n; i++) per_length[depth[i] > max_bits ? max_bits : depth[i]]++;
    uint32_t kraft = 0;
    for (unsigned l = 1; l <= max_bits; l++) kraft += (uint32_t)per_length[l] << (max_bits - l);
    while (kraft > (1u << max_bits)) {
        per_length[max_bits]--;
        for (unsigned l = max_bits - 1; l > 0; l--) {
            if (per_length[l]) { per_length[l]--; per_length[l + 1] += 2; break; }
        }
        kraft--;
    }
    /* Shortest lengths to the most frequent symbols (the end of the ascending order). */
    unsigned i = n;
    for (unsigned l = 1; l <= max_bits; l++) {
        for (unsigned k = per_length[l]; k > 0; k--) lengths[items[--i].symbol] = (uint8_t)l;
    }
}

/* The low `count` bits of `code` in reverse order. */
static inline uint16_t reverse_bits(uint16_t code, unsigned count) {
#if defined(__has_builtin) && __has_builtin(__builtin_bitreverse16)
    return (uint16_t)(__builtin_bitreverse16(code) >> (16 - count));
#else
    uint16_t reversed = 0;
    for (unsigned b = 0; b < count; b++) reversed |= (uint16_t)(((code >> b) & 1) << (count - 1 - b));
    return reversed;
#endif
}

void cellhost_huffman_codes(const uint8_t *lengths, unsigned symbols, uint16_t *codes) {
    unsigned per_length[16] = {0};
    for (unsigned s = 0; s < symbols; s++) per_length[lengths[s]]++;
    per_length[0] = 0;
    unsigned next[16];
    unsigned code = 0;
    for (unsigned l = 1; l < 16; l++) {
        code = (code + per_length[l - 1]) << 1;
        next[l] = code;
    }
    for (unsigned s = 0; s < symbols; s++) {
        unsigned l = lengths[s];
        if (!l) { codes[s] = 0; continue; }
        codes[s] = reverse_bits((uint16_t)next[l]++, l);
    }
}
