/* Uniformity figures for observed slot indexes (see stats.h). */
#include <gsl/gsl_cdf.h>
#include <math.h>
#include <stdlib.h>

#include "tools/stat/stats.h"

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
	return x < y ? -1 : x > y;
}

/*
 * The occupancy problem: E[distinct] = s(1 - q1) and
 * Var = s^2 (q2 - q1^2) + s (q1 - q2), with q1 = (1 - 1/s)^n, q2 = (1 - 2/s)^n.
 * Both differences are written as expm1 of small logarithms: the direct formula loses every
 * digit to cancellation once s is in the millions (x86-64 virtual windows at 4 KiB).
 */
void distinct_expectation(double s, double n, double *mean, double *sd)
{
	double q1 = exp(n * log1p(-1 / s));
	*mean = -s * expm1(n * log1p(-1 / s));
	double q2_minus_q1sq = q1 * q1 * expm1(n * log1p(-1 / ((s - 1) * (s - 1))));
	double q1_minus_q2 = -q1 * expm1(n * log1p(-1 / (s - 1)));
	double var = s * s * q2_minus_q1sq + s * q1_minus_q2;
	*sd = sqrt(var > 0 ? var : 0);
}

uint64_t stats_bin_of(uint64_t i, uint64_t k, uint64_t s)
{
	return (uint64_t)((unsigned __int128)i * k / s);
}

/* Number of slot indexes in bin j: from ceil(j s / k) to ceil((j + 1) s / k). */
static double bin_size(uint64_t j, uint64_t k, uint64_t s)
{
	unsigned __int128 a = ((unsigned __int128)j * s + k - 1) / k;
	unsigned __int128 b = ((unsigned __int128)(j + 1) * s + k - 1) / k;
	return (double)(b - a);
}

static void chi_square(const uint64_t *index, size_t n, uint64_t slots, struct uniformity *u)
{
	uint64_t k = (uint64_t)((double)n / STATS_MIN_EXPECTED_PER_BIN);
	k = k > slots ? slots : k < 2 ? 2 : k;
	double chi2 = 0;
	size_t i = 0;
	for (uint64_t j = 0; j < k; j++) {
		double observed = 0;
		while (i < n && stats_bin_of(index[i], k, slots) == j)
			observed++, i++;
		double expected = (double)n * bin_size(j, k, slots) / (double)slots;
		chi2 += (observed - expected) * (observed - expected) / expected;
	}
	u->chi2 = chi2;
	u->bins = k;
	u->p = gsl_cdf_chisq_Q(chi2, (double)(k - 1));
}

int uniformity_measure(uint64_t *index, size_t n, uint64_t slots, struct uniformity *u)
{
	if (n < 2 || slots < 2)
		return -1;
	for (size_t i = 0; i < n; i++)
		if (index[i] >= slots)
			return -1;
	qsort(index, n, sizeof(index[0]), cmp_u64);

	u->samples = n;
	u->slots = slots;
	u->distinct = 0;
	u->collision_pairs = 0;
	u->max_count = 0;
	for (size_t i = 0; i < n;) {
		size_t j = i;
		while (j < n && index[j] == index[i])
			j++;
		uint64_t c = j - i;
		u->distinct++;
		u->collision_pairs += c * (c - 1) / 2;
		if (c > u->max_count)
			u->max_count = c;
		i = j;
	}
	distinct_expectation((double)slots, (double)n, &u->distinct_mean, &u->distinct_sd);
	double pairs = (double)n * (double)(n - 1) / 2;
	u->collision_pairs_mean = pairs / (double)slots;
	/* sum c(c-1) / n(n-1) is an unbiased estimate of the collision probability sum p^2 */
	/* log2(1/x) rather than -log2(x): a certain value then reads 0, not -0 */
	u->collision_entropy = u->collision_pairs ? log2(pairs / (double)u->collision_pairs) : NAN;
	u->min_entropy = log2((double)n / (double)u->max_count);
	chi_square(index, n, slots, u);
	return 0;
}

const char *uniformity_verdict(const struct uniformity *u, double min_p)
{
	if ((double)u->distinct < u->distinct_mean - STATS_DISTINCT_SIGMAS * u->distinct_sd)
		return "NOT UNIFORM (few distinct)";
	if (u->p < min_p)
		return "NOT UNIFORM (chi-square)";
	return "uniform";
}
