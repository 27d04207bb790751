#include <stdlib.h>
#include <string.h>

#include "deflate_block.h"
#include "run_deflate.h"

struct cellhost_run_deflate_workspace {
    uint32_t *tokens;
    unsigned char *literals, *raw;
    size_t capacity;   /* scanline bytes each buffer is sized for */
};

cellhost_run_deflate_workspace *cellhost_run_deflate_workspace_create(void) {
    return (cellhost_run_deflate_workspace *)calloc(1, sizeof(cellhost_run_deflate_workspace));
}

void cellhost_run_deflate_workspace_destroy(cellhost_run_deflate_workspace *workspace) {
    if (!workspace) return;
    free(workspace->tokens);
    free(workspace->literals);
    free(workspace->raw);
    free(workspace);
}

/* Sizes the buffers for `bytes` of scanlines: every match covers at least three bytes and every
   literal run but a row's last is followed by a match, so a parse has fewer tokens than bytes.
   0, or -1 when memory fails (the workspace is then empty). */
static int reserve_workspace(cellhost_run_deflate_workspace *workspace, size_t bytes) {
    if (bytes <= workspace->capacity) return 0;
    free(workspace->tokens);
    free(workspace->literals);
    free(workspace->raw);
    workspace->tokens = (uint32_t *)malloc(bytes * sizeof(uint32_t));
    workspace->literals = (unsigned char *)malloc(bytes);
    workspace->raw = (unsigned char *)malloc(bytes);
    if (!workspace->tokens || !workspace->literals || !workspace->raw) {
        free(workspace->tokens); free(workspace->literals); free(workspace->raw);
        workspace->tokens = NULL; workspace->literals = workspace->raw = NULL;
        workspace->capacity = 0;
        return -1;
    }
    workspace->capacity = bytes;
    return 0;
}

/* The parse being built: tokens (deflate_block.h) and the literal bytes. */
typedef struct {
    uint32_t *token;          /* the next token */
    uint32_t *literal_run;    /* the literal run the next literal bytes extend, or NULL */
    unsigned char *literal;   /* the next literal byte */
} parse_cursor;

static inline __attribute__((always_inline)) void add_literals(parse_cursor *c, unsigned count) {
    if (c->literal_run) *c->literal_run += count;
    else { c->literal_run = c->token++; *c->literal_run = count; }
}

/* Copies of `length` (≥ 3) bytes from distance `which` (0 or CELLHOST_TOKEN_SECOND_DISTANCE), as
   matches of at most 258 bytes, none shorter than 3. */
static inline __attribute__((always_inline)) void add_match(parse_cursor *c, uint32_t length, uint32_t which) {
    c->literal_run = NULL;
    while (length > 258) {
        uint32_t take = length - 258 >= 3 ? 258 : length - 3;
        *c->token++ = CELLHOST_TOKEN_MATCH | which | take;
        length -= take;
    }
    *c->token++ = CELLHOST_TOKEN_MATCH | which | length;
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
    return cellhost_deflate_block_bound(scanline_bytes);
}

/* The parse, always inlined into each build below so each is compiled for its processor. */
static inline __attribute__((always_inline)) size_t run_deflate(cellhost_run_deflate_workspace *workspace,
                                                                const uint32_t *pixels, size_t stride, uint32_t width,
                                                                uint32_t rows, int channels,
                                                                const unsigned char *scanlines, int last,
                                                                const uint64_t *equal_above, unsigned char *out) {
    size_t row_bytes = 1 + (size_t)width * (size_t)channels;
    if (reserve_workspace(workspace, row_bytes * rows) != 0) return 0;
    parse_cursor c = { workspace->tokens, NULL, workspace->literals };
    const uint32_t left = 0, up = CELLHOST_TOKEN_SECOND_DISTANCE;
    /* Deflate reaches 32,768 bytes back: wider rows match only to the left. */
    int up_allowed = row_bytes <= 32768;
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
            add_match(&c, 1 + start * (uint32_t)channels, up);
            x = start;
        } else {
            *c.literal++ = 0;
            add_literals(&c, 1);
        }
        while (x < width) {
            uint32_t up_run = has_above && row[x] == above[x] ? cellhost_equal_run(row + x, above + x, width - x) : 0;
            uint32_t left_run = x > 0 && row[x] == row[x - 1] ? cellhost_color_run(row + x, row[x - 1], width - x) : 0;
            if (up_run == 0 && left_run == 0) {
                if (line) {
                    memcpy(c.literal, line + (size_t)x * (size_t)channels, (size_t)channels);
                } else {
                    uint32_t p = row[x];
                    c.literal[0] = (unsigned char)(p >> 16); c.literal[1] = (unsigned char)(p >> 8); c.literal[2] = (unsigned char)p;
                }
                c.literal += channels;
                add_literals(&c, (unsigned)channels);
                x++;
            } else if (left_run >= up_run) {  /* on a tie the nearer copy: its distance needs no extra bits */
                add_match(&c, left_run * (uint32_t)channels, left);
                x += left_run;
            } else {
                add_match(&c, up_run * (uint32_t)channels, up);
                x += up_run;
            }
        }
    }
    cellhost_parsed_strip strip = {
        workspace->tokens, (size_t)(c.token - workspace->tokens),
        workspace->literals, (size_t)(c.literal - workspace->literals),
        { (uint32_t)channels, up_allowed ? (uint32_t)row_bytes : 1 }, row_bytes * rows,
    };
    return cellhost_write_deflate_block(&strip, last, workspace->raw, out);
}

size_t cellhost_run_deflate(cellhost_run_deflate_workspace *workspace, const uint32_t *pixels, size_t stride,
                            uint32_t width, uint32_t rows, int channels, const unsigned char *scanlines, int last,
                            const uint64_t *equal_above, unsigned char *out) {
    return run_deflate(workspace, pixels, stride, width, rows, channels, scanlines, last, equal_above, out);
}

#ifdef CELLHOST_CPU_VARIANTS
__attribute__((target("avx2"))) size_t cellhost_run_deflate_avx2(
    cellhost_run_deflate_workspace *workspace, const uint32_t *pixels, size_t stride, uint32_t width, uint32_t rows,
    int channels, const unsigned char *scanlines, int last, const uint64_t *equal_above, unsigned char *out) {
    return run_deflate(workspace, pixels, stride, width, rows, channels, scanlines, last, equal_above, out);
}
#endif
