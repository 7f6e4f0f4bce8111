/*
 * The payload's copy-and-sum on AVX2 (boot/wide_copy.h picks it when the CPU has AVX2 and the
 * stub has turned it on): word_sums_copy's result, bit for bit, at about an eighth of its
 * instructions. The loop (word_sums_avx2_loop.S) keeps a sum per 32-bit lane and folds the
 * lanes into the word sums; word_sums_copy_avx2 leaves the last bytes to the scalar loop.
 */
#ifndef KSLIDE_BOOT_X86_64_WORD_SUMS_AVX2_H
#define KSLIDE_BOOT_X86_64_WORD_SUMS_AVX2_H

#include <stddef.h>
#include <stdint.h>

#include "lib/word_sums.h"

/* Bytes the loop takes a round: eight rows of eight 32-bit words (eight registers). */
#define WORD_SUMS_AVX2_ROUND 256u

/*
 * The loop: copy src[0, n) to dst, n a multiple of WORD_SUMS_AVX2_ROUND, and add those bytes
 * to s as word_sums_add would. Uses ymm0-ymm9 and clears their upper halves (VZEROUPPER)
 * before it returns.
 */
void word_sums_avx2_rounds(struct word_sums *s, uint8_t *dst, const uint8_t *src, size_t n);

/* word_sums_copy on AVX2 (a word_sums_copy_fn). Only with AVX2 on (boot/wide_copy.h). */
void word_sums_copy_avx2(struct word_sums *s, uint8_t *dst, const uint8_t *src, size_t n);

#endif
