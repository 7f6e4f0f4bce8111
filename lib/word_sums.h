/*
 * Position-sensitive sums over 32-bit little-endian words: 'sum' adds the words and
 * 'sum_of_sums' adds the running sums, both modulo 2^32. The stub checks its own bytes with
 * them (boot/x86/self_check.h, the same arithmetic in assembly) and the packed payload too
 * (include/kslide/image.h, payload_sum): cheap enough to take while the payload is copied.
 *
 * For words w[1..n]: sum = w[1] + ... + w[n], sum_of_sums = n*w[1] + (n-1)*w[2] + ... + w[n].
 * A change confined to one word changes 'sum'; changes confined to two adjacent words change
 * one of the two; what else they see is in docs/format.md.
 */
#ifndef KSLIDE_LIB_WORD_SUMS_H
#define KSLIDE_LIB_WORD_SUMS_H

#include <stddef.h>
#include <stdint.h>

#define WORD_SUMS_WORD 4u /* bytes per summed word */

struct word_sums {
	uint32_t sum;
	uint32_t sum_of_sums;
};

/*
 * Add p[0, n) to s. n is a multiple of WORD_SUMS_WORD except in the last call over a piece of
 * data, whose last few bytes count as one word padded with zeros.
 */
void word_sums_add(struct word_sums *s, const uint8_t *p, size_t n);

/* Copy src[0, n) to dst (the two must not overlap) and add those bytes as word_sums_add does. */
void word_sums_copy(struct word_sums *s, uint8_t *dst, const uint8_t *src, size_t n);

/* word_sums_copy's contract, for a faster routine put in its place (reloc_move_with). */
typedef void word_sums_copy_fn(struct word_sums *s, uint8_t *dst, const uint8_t *src, size_t n);

#endif
