#pragma once
#include <stdint.h>

/* Length-limited canonical Huffman codes for deflate's dynamic blocks (RFC 1951 §3.2.2, §3.2.7).

   Lengths come from an optimal (minimum-redundancy) code over the symbols' counts, built in place
   over the counts sorted ascending (Moffat and Katajainen); codes longer than the limit are then
   brought within it by the Kraft-sum repair zlib-derived encoders use (miniz, libdeflate's
   fallback): the overlong leaves move up to the limit and the deepest shorter leaves split until
   the code is complete again. The most frequent symbols keep the shortest codes. */

/* The most symbols an alphabet passed here may have (deflate's literal/length alphabet, 286). */
#define CELLHOST_HUFFMAN_MAX_SYMBOLS 288

/* Sets lengths[i] (0 for an unused symbol) for the `symbols` counts, none longer than `max_bits`
   (at most 15), so that the code is complete: at least two symbols get a code, even when fewer
   are used (the first unused ones get a length-1 code), as every inflater accepts such a code —
   zlib's, for one, refuses an incomplete one unless it is a single one-bit code. `symbols` ≤
   CELLHOST_HUFFMAN_MAX_SYMBOLS and ≥ 2, and 2^max_bits ≥ symbols. */
void cellhost_huffman_lengths(const uint32_t *counts, unsigned symbols, unsigned max_bits, uint8_t *lengths);

/* The canonical codes for `lengths` (RFC 1951 §3.2.2), bit-reversed for deflate's
   least-significant-bit-first stream; 0 for unused symbols. */
void cellhost_huffman_codes(const uint8_t *lengths, unsigned symbols, uint16_t *codes);
