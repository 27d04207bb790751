#include <string.h>

#include "bit_writer.h"
#include "deflate_block.h"
#include "huffman_code.h"

enum {
    LITLEN_SYMBOLS = 286,   /* literals 0–255, end of block 256, lengths 257–285 */
    FIXED_LITLEN_SYMBOLS = 288,
    DISTANCE_SYMBOLS = 30,
    CODE_LENGTH_SYMBOLS = 19,
    END_OF_BLOCK = 256,
    STORED_MAX = 65535,
};

/* The order the code-length code's lengths are sent in (RFC 1951 §3.2.7). */
static const uint8_t code_length_order[CODE_LENGTH_SYMBOLS] = { 16, 17, 18, 0, 8, 7, 9, 6, 10, 5, 11, 4, 12, 3, 13, 2, 14, 1, 15 };

/* A match length's symbol (0–28, for 257–285) and extra bits. Lengths 3–10 are symbols 0–7;
   above, each power of two of (length − 3) spans four symbols with one more extra bit each. */
typedef struct { unsigned symbol, extra_bits, extra; } length_code;

static inline __attribute__((always_inline)) length_code length_code_of(uint32_t length) {
    uint32_t v = length - 3;
    length_code c;
    if (v < 8) { c.symbol = v; c.extra_bits = 0; c.extra = 0; return c; }
    if (length == 258) { c.symbol = 28; c.extra_bits = 0; c.extra = 0; return c; }
    unsigned top = 31 - (unsigned)__builtin_clz(v);  /* ≥ 3 */
    c.extra_bits = top - 2;
    c.symbol = 4 * c.extra_bits + 4 + ((v >> c.extra_bits) & 3);
    c.extra = v & ((1u << c.extra_bits) - 1);
    return c;
}

/* A distance's symbol (0–29) and extra bits: distances 1–4 are symbols 0–3; above, each power of
   two of (distance − 1) spans two symbols. */
typedef struct { unsigned symbol, extra_bits, extra; } distance_code;

static distance_code distance_code_of(uint32_t distance) {
    distance_code c;
    if (distance <= 4) { c.symbol = distance - 1; c.extra_bits = 0; c.extra = 0; return c; }
    uint32_t d = distance - 1;
    unsigned top = 31 - (unsigned)__builtin_clz(d);  /* ≥ 2 */
    c.extra_bits = top - 1;
    c.symbol = 2 * top + ((d >> c.extra_bits) & 1);
    c.extra = d & ((1u << c.extra_bits) - 1);
    return c;
}

/* The fixed code's lengths (RFC 1951 §3.2.6). */
static inline unsigned fixed_litlen_length(unsigned symbol) {
    return symbol < 144 ? 8 : symbol < 256 ? 9 : symbol < 280 ? 7 : 8;
}

/* A code-length sequence run-length coded with symbols 16 (repeat the previous 3–6 times), 17
   (3–10 zeros) and 18 (11–138 zeros). */
typedef struct {
    uint8_t symbols[LITLEN_SYMBOLS + DISTANCE_SYMBOLS];
    uint8_t extras[LITLEN_SYMBOLS + DISTANCE_SYMBOLS];
    unsigned count;
    uint32_t counts[CODE_LENGTH_SYMBOLS];
} code_length_runs;

static void run_length_code(const uint8_t *lengths, unsigned n, code_length_runs *runs) {
    runs->count = 0;
    memset(runs->counts, 0, sizeof runs->counts);
    unsigned i = 0;
    while (i < n) {
        uint8_t value = lengths[i];
        unsigned run = 1;
        while (i + run < n && lengths[i + run] == value) run++;
        i += run;
        if (value == 0) {
            while (run >= 11) {
                unsigned take = run > 138 ? 138 : run;
                runs->symbols[runs->count] = 18; runs->extras[runs->count++] = (uint8_t)(take - 11);
                runs->counts[18]++;
                run -= take;
            }
            if (run >= 3) {
                runs->symbols[runs->count] = 17; runs->extras[runs->count++] = (uint8_t)(run - 3);
                runs->counts[17]++;
                run = 0;
            }
        } else {
            runs->symbols[runs->count] = value; runs->extras[runs->count++] = 0;
            runs->counts[value]++;
            run--;
            while (run >= 3) {
                unsigned take = run > 6 ? 6 : run;
                runs->symbols[runs->count] = 16; runs->extras[runs->count++] = (uint8_t)(take - 3);
                runs->counts[16]++;
                run -= take;
            }
        }
        while (run > 0) {
            runs->symbols[runs->count] = value; runs->extras[runs->count++] = 0;
            runs->counts[value]++;
            run--;
        }
    }
}

static const uint8_t code_length_extra_bits[CODE_LENGTH_SYMBOLS] = { [16] = 2, [17] = 3, [18] = 7 };

/* Everything a Huffman block needs: the codes and, for a dynamic one, their description. */
typedef struct {
    /* The fixed code has two literal/length symbols more, which no data uses but whose codes
       come before the 9-bit ones. */
    uint8_t litlen_lengths[FIXED_LITLEN_SYMBOLS], distance_lengths[DISTANCE_SYMBOLS];
    uint16_t litlen_codes[FIXED_LITLEN_SYMBOLS], distance_codes[DISTANCE_SYMBOLS];
    unsigned litlen_used, distance_used;   /* HLIT + 257, HDIST + 1 */
    code_length_runs runs;
    uint8_t code_length_lengths[CODE_LENGTH_SYMBOLS];
    uint16_t code_length_codes[CODE_LENGTH_SYMBOLS];
    unsigned code_lengths_sent;            /* HCLEN + 4 */
} huffman_block;

size_t cellhost_deflate_block_bound(size_t length) {
    return length + 5 * (length / STORED_MAX + 1) + 8;
}

/* Rebuilds the strip's bytes from its tokens. */
static void replay(const cellhost_parsed_strip *strip, unsigned char *raw) {
    const unsigned char *literal = strip->literals;
    unsigned char *o = raw;
    for (size_t t = 0; t < strip->token_count; t++) {
        uint32_t token = strip->tokens[t];
        if (!(token & CELLHOST_TOKEN_MATCH)) {
            memcpy(o, literal, token);
            literal += token;
            o += token;
        } else {
            uint32_t length = token & 0x1FF, distance = strip->distances[(token & CELLHOST_TOKEN_SECOND_DISTANCE) != 0];
            for (uint32_t i = 0; i < length; i++) o[i] = o[i - distance];  /* overlapping copies repeat */
            o += length;
        }
    }
}

static size_t write_stored(const cellhost_parsed_strip *strip, int last, unsigned char *raw, unsigned char *out) {
    replay(strip, raw);
    unsigned char *o = out;
    size_t left = strip->length, offset = 0;
    do {
        size_t n = left > STORED_MAX ? STORED_MAX : left;
        int final = last && n == left;
        o[0] = (unsigned char)final;  /* BFINAL, BTYPE 00, then padding to the byte */
        o[1] = (unsigned char)n; o[2] = (unsigned char)(n >> 8);
        o[3] = (unsigned char)~n; o[4] = (unsigned char)(~n >> 8);
        memcpy(o + 5, raw + offset, n);
        o += 5 + n;
        offset += n;
        left -= n;
    } while (left > 0);
    return (size_t)(o - out);
}

static void write_tokens(const cellhost_parsed_strip *strip, const huffman_block *h, cellhost_bit_writer *w) {
    const uint16_t *code = h->litlen_codes;
    const uint8_t *bits = h->litlen_lengths;
    uint32_t distance_bits[2];
    unsigned distance_count[2];
    for (int k = 0; k < 2; k++) {
        distance_code d = distance_code_of(strip->distances[k]);
        distance_bits[k] = h->distance_codes[d.symbol] | d.extra << h->distance_lengths[d.symbol];
        distance_count[k] = h->distance_lengths[d.symbol] + d.extra_bits;
    }
    const unsigned char *literal = strip->literals;
    for (size_t t = 0; t < strip->token_count; t++) {
        uint32_t token = strip->tokens[t];
        if (!(token & CELLHOST_TOKEN_MATCH)) {
            const unsigned char *end = literal + token;
            /* Two literals (at most 30 bits) per write. */
            for (; literal + 2 <= end; literal += 2) {
                unsigned a = literal[0], b = literal[1];
                cellhost_put_bits(w, code[a] | (uint32_t)code[b] << bits[a], bits[a] + bits[b]);
            }
            if (literal < end) { cellhost_put_bits(w, code[*literal], bits[*literal]); literal++; }
        } else {
            length_code l = length_code_of(token & 0x1FF);
            unsigned s = 257 + l.symbol, k = (token & CELLHOST_TOKEN_SECOND_DISTANCE) != 0;
            cellhost_put_bits(w, code[s] | l.extra << bits[s], bits[s] + l.extra_bits);
            cellhost_put_bits(w, distance_bits[k], distance_count[k]);
        }
    }
    cellhost_put_bits(w, code[END_OF_BLOCK], bits[END_OF_BLOCK]);
}

/* The dynamic block's header after BFINAL and BTYPE: HLIT, HDIST, HCLEN, the code-length code's
   lengths, the run-length-coded code lengths. */
static void write_dynamic_header(const huffman_block *h, cellhost_bit_writer *w) {
    cellhost_put_bits(w, (h->litlen_used - 257) | (h->distance_used - 1) << 5 | (h->code_lengths_sent - 4) << 10, 14);
    for (unsigned i = 0; i < h->code_lengths_sent; i++) cellhost_put_bits(w, h->code_length_lengths[code_length_order[i]], 3);
    for (unsigned i = 0; i < h->runs.count; i++) {
        unsigned s = h->runs.symbols[i];
        cellhost_put_bits(w, h->code_length_codes[s] | (uint32_t)h->runs.extras[i] << h->code_length_lengths[s],
                          h->code_length_lengths[s] + code_length_extra_bits[s]);
    }
}

size_t cellhost_write_deflate_block(const cellhost_parsed_strip *strip, int last, unsigned char *raw, unsigned char *out) {
    uint32_t litlen[LITLEN_SYMBOLS] = {0}, distance[DISTANCE_SYMBOLS] = {0};
    /* Literal counts in four tables, so consecutive equal bytes do not wait on one counter. */
    uint32_t partial[4][256];
    memset(partial, 0, sizeof partial);
    const unsigned char *lit = strip->literals;
    size_t n = strip->literal_count, i = 0;
    for (; i + 4 <= n; i += 4) { partial[0][lit[i]]++; partial[1][lit[i + 1]]++; partial[2][lit[i + 2]]++; partial[3][lit[i + 3]]++; }
    for (; i < n; i++) partial[0][lit[i]]++;
    for (unsigned b = 0; b < 256; b++) litlen[b] = partial[0][b] + partial[1][b] + partial[2][b] + partial[3][b];
    litlen[END_OF_BLOCK] = 1;
    uint64_t extra_bits = 0;
    uint32_t matches[2] = {0, 0};
    for (size_t t = 0; t < strip->token_count; t++) {
        uint32_t token = strip->tokens[t];
        if (!(token & CELLHOST_TOKEN_MATCH)) continue;
        length_code l = length_code_of(token & 0x1FF);
        litlen[257 + l.symbol]++;
        extra_bits += l.extra_bits;
        matches[(token & CELLHOST_TOKEN_SECOND_DISTANCE) != 0]++;
    }
    for (int k = 0; k < 2; k++) {
        if (!matches[k]) continue;
        distance_code d = distance_code_of(strip->distances[k]);
        distance[d.symbol] += matches[k];
        extra_bits += (uint64_t)d.extra_bits * matches[k];
    }

    /* Dynamic codes and the exact size of the block they make. */
    huffman_block h;
    cellhost_huffman_lengths(litlen, LITLEN_SYMBOLS, 15, h.litlen_lengths);
    cellhost_huffman_lengths(distance, DISTANCE_SYMBOLS, 15, h.distance_lengths);
    h.litlen_used = LITLEN_SYMBOLS;
    while (h.litlen_used > 257 && h.litlen_lengths[h.litlen_used - 1] == 0) h.litlen_used--;
    h.distance_used = DISTANCE_SYMBOLS;
    while (h.distance_used > 1 && h.distance_lengths[h.distance_used - 1] == 0) h.distance_used--;
    /* The lengths are sent as one sequence: literal/length then distance, with nothing between. */
    uint8_t sent[LITLEN_SYMBOLS + DISTANCE_SYMBOLS];
    memcpy(sent, h.litlen_lengths, h.litlen_used);
    memcpy(sent + h.litlen_used, h.distance_lengths, h.distance_used);
    run_length_code(sent, h.litlen_used + h.distance_used, &h.runs);
    cellhost_huffman_lengths(h.runs.counts, CODE_LENGTH_SYMBOLS, 7, h.code_length_lengths);
    h.code_lengths_sent = CODE_LENGTH_SYMBOLS;
    while (h.code_lengths_sent > 4 && h.code_length_lengths[code_length_order[h.code_lengths_sent - 1]] == 0) h.code_lengths_sent--;

    uint64_t dynamic_bits = 3 + 14 + 3 * (uint64_t)h.code_lengths_sent + extra_bits, fixed_bits = 3 + extra_bits;
    for (unsigned s = 0; s < CODE_LENGTH_SYMBOLS; s++) {
        dynamic_bits += (uint64_t)h.runs.counts[s] * (h.code_length_lengths[s] + code_length_extra_bits[s]);
    }
    for (unsigned s = 0; s < LITLEN_SYMBOLS; s++) {
        dynamic_bits += (uint64_t)litlen[s] * h.litlen_lengths[s];
        fixed_bits += (uint64_t)litlen[s] * fixed_litlen_length(s);
    }
    for (unsigned s = 0; s < DISTANCE_SYMBOLS; s++) {
        dynamic_bits += (uint64_t)distance[s] * h.distance_lengths[s];
        fixed_bits += (uint64_t)distance[s] * 5;
    }
    /* Bytes each kind takes, the flush to a byte boundary included. */
    uint64_t huffman_bits = dynamic_bits < fixed_bits ? dynamic_bits : fixed_bits;
    size_t huffman_bytes = last ? (size_t)((huffman_bits + 7) / 8) : (size_t)((huffman_bits + 3 + 7) / 8 + 4);
    size_t stored_bytes = strip->length + 5 * ((strip->length + STORED_MAX - 1) / STORED_MAX);
    if (stored_bytes < huffman_bytes) return write_stored(strip, last, raw, out);

    int dynamic = dynamic_bits < fixed_bits;
    if (dynamic) {
        cellhost_huffman_codes(h.litlen_lengths, LITLEN_SYMBOLS, h.litlen_codes);
        cellhost_huffman_codes(h.distance_lengths, DISTANCE_SYMBOLS, h.distance_codes);
        cellhost_huffman_codes(h.code_length_lengths, CODE_LENGTH_SYMBOLS, h.code_length_codes);
    } else {
        for (unsigned s = 0; s < FIXED_LITLEN_SYMBOLS; s++) h.litlen_lengths[s] = (uint8_t)fixed_litlen_length(s);
        for (unsigned s = 0; s < DISTANCE_SYMBOLS; s++) h.distance_lengths[s] = 5;
        cellhost_huffman_codes(h.litlen_lengths, FIXED_LITLEN_SYMBOLS, h.litlen_codes);
        cellhost_huffman_codes(h.distance_lengths, DISTANCE_SYMBOLS, h.distance_codes);
    }
    cellhost_bit_writer w = { 0, 0, out };
    cellhost_put_bits(&w, (last ? 1u : 0u) | (dynamic ? 2u : 1u) << 1, 3);
    if (dynamic) write_dynamic_header(&h, &w);
    write_tokens(strip, &h, &w);
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
