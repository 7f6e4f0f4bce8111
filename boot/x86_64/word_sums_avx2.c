/* word_sums_copy on AVX2: the loop's rounds, folded into the sums; the rest word by word. */
#include "boot/x86_64/word_sums_avx2.h"

void word_sums_copy_avx2(struct word_sums *s, uint8_t *dst, const uint8_t *src, size_t n)
{
	size_t bulk = n - n % WORD_SUMS_AVX2_ROUND;
	if (bulk) {
		struct word_sums_lanes lanes;
		word_sums_avx2_rounds(&lanes, dst, src, bulk);
		word_sums_add_lanes(s, &lanes, bulk / WORD_SUMS_ROW);
	}
	word_sums_copy(s, dst + bulk, src + bulk, n - bulk);
}
