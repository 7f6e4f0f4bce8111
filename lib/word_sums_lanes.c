/*
 * From lane-wise sums (lib/word_sums.h, struct word_sums_lanes) back to the word sums, so a
 * vector loop that keeps a sum per lane gives exactly what the scalar loop gives.
 *
 * Row r, lane l is word i = r*L + l of the data (L lanes, m rows, n = m*L words). Taken one
 * word at a time from (a, b), the sums end at
 *
 *   a' = a + sum_i w[i]
 *   b' = b + n*a + sum_i (n - i)*w[i]
 *
 * and n - i = L*(m-1-r) + (L-l), so sum_i (n - i)*w[i] = L*sum_l sum_of_sums[l] +
 * sum_l (L-l)*sum[l]. All of it modulo 2^32, where the order of the additions does not matter.
 */
#include "lib/word_sums.h"

void word_sums_add_lanes(struct word_sums *s, const struct word_sums_lanes *lanes, size_t rows)
{
	uint32_t words = (uint32_t)rows * WORD_SUMS_LANES;
	uint32_t sum = 0, weighted = 0;
	for (uint32_t l = 0; l < WORD_SUMS_LANES; l++) {
		sum += lanes->sum[l];
		weighted += WORD_SUMS_LANES * lanes->sum_of_sums[l] + (WORD_SUMS_LANES - l) * lanes->sum[l];
	}
	s->sum_of_sums += words * s->sum + weighted;
	s->sum += sum;
}
