#pragma once
/* Private to the deflate encoder: writing a parsed strip as the cheapest deflate block. */
#include <stddef.h>
#include <stdint.h>

/* A strip parsed into tokens, in order: a literal run (bit 31 clear) of that many bytes, taken in
   order from the parse's literal bytes; or a match (bit 31 set) of length 3–258 (bits 0–8) at one
   of the parse's two distances (bit 16 chooses). */
#define CELLHOST_TOKEN_MATCH 0x80000000u
#define CELLHOST_TOKEN_SECOND_DISTANCE 0x10000u

typedef struct {
    const uint32_t *tokens;
    size_t token_count;
    const unsigned char *literals;
    size_t literal_count;
    uint32_t distances[2];   /* each 1–32,768; unused ones may be anything in that range */
    size_t length;           /* bytes the tokens stand for */
} cellhost_parsed_strip;

/* Writes the strip as one deflate block of whichever kind is smallest for it, by exact bit cost:
   Huffman codes built for its own symbol counts (dynamic), deflate's fixed codes, or stored
   (the bytes as they are, when nothing saves a bit). `last`: the block ends the stream (BFINAL);
   otherwise the segment ends on a byte boundary (a Huffman block is followed by an empty stored
   block, like zlib's Z_SYNC_FLUSH; a stored one ends aligned). `raw` (`length` bytes) is used
   only to rebuild the bytes for a stored block. `out` holds at least
   cellhost_deflate_block_bound(length) bytes. Returns the bytes written. */
size_t cellhost_write_deflate_block(const cellhost_parsed_strip *strip, int last, unsigned char *raw, unsigned char *out);

/* The most bytes cellhost_write_deflate_block writes for `length` bytes: never more than storing
   them (five bytes of header per 65,535), plus a spare. */
size_t cellhost_deflate_block_bound(size_t length);
