/* Uniformity figures for observed slot indexes (see stats.h). */
#include <gsl/gsl_cdf.h>
#include <gsl/gsl_rng.h>
#include <math.h>
#include <stdlib.h>

#include "tools/stat/stats.h"

#define SIM_REPLICATES 200
#define SIM_DRAWS_MAX  20000000.0 /* replicates x samples: about a second at most */
#define SIM_SEED       20110524	  /* fixed, so that a run's report is reproducible */

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

/*
 * How unlikely so few distinct values are. At both ends the normal approximation has far too
 * thin a tail, so the counts there are judged as Poisson, as in the birthday and coupon
 * collector problems:
 *  - few repeats expected (n - distinct, samples equal to an earlier one): one repeat among
 *    200 draws over 520,186 slots happens in 3.8% of runs, not once in 30,000;
 *  - few empty slots expected (slots - distinct, when samples outnumber slots): 14 empty slots
 *    after 2,000 draws over 440 happen once in 5,600 runs (simulated), not once in 250,000.
 * In between, with many of both, the normal approximation is good.
 */
#define POISSON_COUNT_MAX 30.0

static double poisson_at_least(size_t observed, double mean)
{
	return observed == 0 ? 1 : gsl_cdf_poisson_Q((unsigned)(observed - 1), mean);
}

static double few_distinct_p(size_t n, uint64_t slots, size_t distinct, double mean, double sd)
{
	double repeats_mean = (double)n - mean, empty_mean = (double)slots - mean;
	if (repeats_mean < POISSON_COUNT_MAX)
		return poisson_at_least(n - distinct, repeats_mean);
	if (empty_mean < POISSON_COUNT_MAX)
		return poisson_at_least((size_t)(slots - distinct), empty_mean);
	return sd > 0 ? gsl_cdf_ugaussian_P(((double)distinct - mean) / sd) : 0;
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

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return x < y ? -1 : x > y;
}

/* Most frequent count among n sorted values. */
static uint64_t max_run(const uint64_t *v, size_t n)
{
	uint64_t best = 0;
	for (size_t i = 0; i < n;) {
		size_t j = i;
		while (j < n && v[j] == v[i])
			j++;
		if (j - i > best)
			best = j - i;
		i = j;
	}
	return best;
}

/* n uniform draws from 'slots', many times over: the plug-in min-entropy they score. */
static void simulate_min_entropy(size_t n, uint64_t slots, struct uniformity *u)
{
	size_t reps = (size_t)fmin(SIM_REPLICATES, fmax(20, SIM_DRAWS_MAX / (double)n));
	uint64_t *v = malloc(n * sizeof(*v));
	double *h = malloc(reps * sizeof(*h));
	gsl_rng *rng = gsl_rng_alloc(gsl_rng_mt19937);
	u->min_entropy_uniform = u->min_entropy_uniform_lo = u->min_entropy_uniform_hi = NAN;
	if (v && h && rng) {
		gsl_rng_set(rng, SIM_SEED);
		double sum = 0;
		for (size_t r = 0; r < reps; r++) {
			for (size_t i = 0; i < n; i++) /* two 32-bit halves: slots may pass 2^32 */
				v[i] = (uint64_t)((gsl_rng_uniform(rng) +
						   gsl_rng_uniform(rng) / 4294967296.0) *
						  (double)slots) %
				       slots;
			qsort(v, n, sizeof(v[0]), cmp_u64);
			h[r] = log2((double)n / (double)max_run(v, n));
			sum += h[r];
		}
		qsort(h, reps, sizeof(h[0]), cmp_double);
		u->min_entropy_uniform = sum / (double)reps;
		u->min_entropy_uniform_lo = h[reps / 20];
		u->min_entropy_uniform_hi = h[reps - 1 - reps / 20];
	}
	gsl_rng_free(rng);
	free(h);
	free(v);
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
	u->distinct_p = few_distinct_p(n, slots, u->distinct, u->distinct_mean, u->distinct_sd);
	double pairs = (double)n * (double)(n - 1) / 2;
	u->collision_pairs_mean = pairs / (double)slots;
	/* sum c(c-1) / n(n-1) is an unbiased estimate of the collision probability sum p^2 */
	/* log2(1/x) rather than -log2(x): a certain value then reads 0, not -0 */
	u->collision_entropy = u->collision_pairs ? log2(pairs / (double)u->collision_pairs) : NAN;
	u->min_entropy = log2((double)n / (double)u->max_count);
	simulate_min_entropy(n, slots, u);
	chi_square(index, n, slots, u);
	return 0;
}

const char *uniformity_verdict(const struct uniformity *u, double min_p)
{
	if (u->distinct_p < STATS_FEW_DISTINCT_P)
		return "NOT UNIFORM (few distinct)";
	if (u->p < min_p)
		return "NOT UNIFORM (chi-square)";
	return "uniform";
}
