/*
 * The word sums of lib/word_sums.h. The stub runs word_sums_copy over every byte of an
 * uncompressed kernel at every boot, and word_sums_add over every stored byte of a compressed
 * one (docs/results.md, boot cost), so both loops are unrolled: per word one load (and for the
 * copy one store) and two additions, and the loop's own count, compare and branch once per
 * SUM_UNROLL words.
 */
#include "lib/word_sums.h"

#include "lib/unaligned.h"

#define SUM_UNROLL 16
#define SUM_ROUND (SUM_UNROLL * WORD_SUMS_WORD)

/* The last n (< WORD_SUMS_WORD) bytes as a word padded with zeros. */
static uint32_t tail_word(const uint8_t *p, size_t n)
{
	uint32_t w = 0;
	for (size_t i = 0; i < n; i++)
		w |= (uint32_t)p[i] << (8 * i);
	return w;
}

/*
 * One word. The empty asm keeps the compiler from regrouping the additions of a round (it
 * would otherwise keep every running sum of the round alive at once and, on i386, spill
 * them), which leaves the round at four instructions a word; it emits nothing.
 */
#define COPY_WORD(k)                                                      \
	do {                                                              \
		uint32_t w = load_le32(src + i + (k) * WORD_SUMS_WORD);   \
		store_le32(dst + i + (k) * WORD_SUMS_WORD, w);            \
		a += w;                                                   \
		b += a;                                                   \
		__asm__("" : "+r"(a), "+r"(b));                           \
	} while (0)

#define COPY_FOUR(k)            \
	do {                    \
		COPY_WORD(k);     \
		COPY_WORD(k + 1); \
		COPY_WORD(k + 2); \
		COPY_WORD(k + 3); \
	} while (0)

/* The same for one word that is only summed. */
#define ADD_WORD(k)                                                       \
	do {                                                              \
		a += load_le32(p + i + (k) * WORD_SUMS_WORD);             \
		b += a;                                                   \
		__asm__("" : "+r"(a), "+r"(b));                           \
	} while (0)

#define ADD_FOUR(k)            \
	do {                   \
		ADD_WORD(k);     \
		ADD_WORD(k + 1); \
		ADD_WORD(k + 2); \
		ADD_WORD(k + 3); \
	} while (0)

void word_sums_add(struct word_sums *s, const uint8_t *p, size_t n)
{
	uint32_t a = s->sum, b = s->sum_of_sums;
	size_t i = 0;
	for (; n - i >= SUM_ROUND; i += SUM_ROUND) {
		ADD_FOUR(0);
		ADD_FOUR(4);
		ADD_FOUR(8);
		ADD_FOUR(12);
	}
	for (; n - i >= WORD_SUMS_WORD; i += WORD_SUMS_WORD)
		ADD_WORD(0);
	if (i < n) {
		a += tail_word(p + i, n - i);
		b += a;
	}
	s->sum = a;
	s->sum_of_sums = b;
}

void word_sums_copy(struct word_sums *s, uint8_t *dst, const uint8_t *src, size_t n)
{
	uint32_t a = s->sum, b = s->sum_of_sums;
	size_t i = 0;
	for (; n - i >= SUM_ROUND; i += SUM_ROUND) {
		COPY_FOUR(0);
		COPY_FOUR(4);
		COPY_FOUR(8);
		COPY_FOUR(12);
	}
	for (; n - i >= WORD_SUMS_WORD; i += WORD_SUMS_WORD)
		COPY_WORD(0);
	if (i < n) {
		for (size_t k = i; k < n; k++)
			dst[k] = src[k];
		a += tail_word(src + i, n - i);
		b += a;
	}
	s->sum = a;
	s->sum_of_sums = b;
}
