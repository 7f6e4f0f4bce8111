/* word_sums_copy on AVX2: whole rounds in the vector loop, the few bytes after them word by
 * word. */
#include "boot/x86_64/word_sums_avx2.h"

void word_sums_copy_avx2(struct word_sums *s, uint8_t *dst, const uint8_t *src, size_t n)
{
	size_t bulk = n - n % WORD_SUMS_AVX2_ROUND;
	word_sums_avx2_rounds(s, dst, src, bulk);
	if (bulk < n)
		word_sums_copy(s, dst + bulk, src + bulk, n - bulk);
}
