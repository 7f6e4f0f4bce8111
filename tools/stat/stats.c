/* Uniformity figures for observed slot indexes (see stats.h). */
#include <gsl/gsl_cdf.h>
#include <gsl/gsl_integration.h>
#include <gsl/gsl_rng.h>
#include <gsl/gsl_sf_erf.h>
#include <gsl/gsl_sf_psi.h>
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
void uniformity_min_entropy_reference(size_t n, uint64_t slots, struct uniformity *u)
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

/*
 * The limiting distribution of A^2 is that of sum_j l_j Z_j^2, l_j = 1 / (j (j + 1)) for
 * j >= 1, Z_j independent standard normals (Anderson and Darling, 1952). Its upper tail by
 * Imhof's inversion of the characteristic function (Biometrika 48, 1961):
 *   P(Q > x) = 1/2 + (1/pi) int_0^inf sin(theta(u)) / (u rho(u)) du,
 *   theta(u) = sum_j atan(l_j u) / 2 - x u / 2,  rho(u) = prod_j (1 + l_j^2 u^2)^(1/4).
 * Past AD_TERMS the l_j u are small wherever the integrand still counts, so those terms
 * enter by the first order of their series: u sum l_j / 2 in theta and u^2 sum l_j^2 / 4 in
 * log rho, with sum_{j>J} l_j = 1 / (J + 1) and sum_{j>J} l_j^2 from the trigamma function.
 */
#define AD_TERMS	  20
#define AD_WORKSPACE	  1000
#define AD_TAIL_ABS_ERROR 1e-11
/* Beyond this u, 1 / (u rho(u)) is below 1e-13: the rest of the integral is nothing. */
#define AD_U_MAX 600.0

struct imhof {
	double x;
	double tail_l, tail_l2; /* sums of l_j and l_j^2 over j > AD_TERMS */
};

static double imhof_integrand(double u, void *arg)
{
	const struct imhof *m = arg;
	double theta = (m->tail_l * u - m->x * u) / 2, rho4 = 1;
	for (int j = 1; j <= AD_TERMS; j++) {
		double lu = u / ((double)j * (j + 1));
		theta += atan(lu) / 2;
		rho4 *= 1 + lu * lu;
	}
	if (u == 0) /* the limit of sin(theta) / u */
		return (1 - m->x) / 2;
	return sin(theta) / (u * sqrt(sqrt(rho4)) * exp(m->tail_l2 * u * u / 4));
}

/*
 * Far out the tail is that of its largest term, Z_1^2 / 2, times prod_{j>=2} (1 - 2 l_j)^(-1/2)
 * = sqrt(3): sqrt(3) erfc(sqrt(x)), 2% below the integral at 15 and closer beyond. From
 * AD_FAR on (p below 1e-7, where no verdict's level lies) it stands in for the integral,
 * whose oscillations then take long to follow.
 */
#define AD_FAR 15.0

double stats_ad_upper_tail(double x)
{
	if (x <= 0)
		return 1;
	if (x >= AD_FAR)
		return M_SQRT3 * gsl_sf_erfc(sqrt(x));
	const double J = AD_TERMS;
	/* 1 / (j^2 (j+1)^2) = 1/j^2 + 1/(j+1)^2 - 2 / (j (j+1)) */
	struct imhof m = { x, 1 / (J + 1),
			   gsl_sf_psi_1(J + 1) + gsl_sf_psi_1(J + 2) - 2 / (J + 1) };
	gsl_integration_workspace *w = gsl_integration_workspace_alloc(AD_WORKSPACE);
	if (!w)
		return NAN;
	gsl_function f = { imhof_integrand, &m };
	double integral = NAN, error;
	gsl_error_handler_t *old = gsl_set_error_handler_off();
	if (gsl_integration_qag(&f, 0, AD_U_MAX, AD_TAIL_ABS_ERROR, 0, AD_WORKSPACE,
				GSL_INTEG_GAUSS61, w, &integral, &error))
		integral = NAN;
	gsl_set_error_handler(old);
	gsl_integration_workspace_free(w);
	double p = 0.5 + integral / M_PI;
	return p < 0 ? 0 : p > 1 ? 1 : p;
}

/* A position in (0, 1) and its distance from 1, each computed without cancellation. */
struct position {
	double u, rest;
};

static int cmp_position(const void *a, const void *b)
{
	double x = ((const struct position *)a)->u, y = ((const struct position *)b)->u;
	return x < y ? -1 : x > y;
}

/* FNV-1a over the sorted indexes: the jitter is a function of the data, so a report can be
 * reproduced, and differs between data sets, so simulated runs do not share one jitter. */
#define FNV_OFFSET 0xcbf29ce484222325ull
#define FNV_PRIME  0x100000001b3ull

static uint64_t data_seed(const uint64_t *index, size_t n)
{
	uint64_t h = FNV_OFFSET;
	for (size_t i = 0; i < n; i++)
		for (int b = 0; b < 64; b += 8)
			h = (h ^ ((index[i] >> b) & 0xff)) * FNV_PRIME;
	return h;
}

/* The sorted indexes as sorted positions (index + U) / slots. */
static int jittered_positions(const uint64_t *index, size_t n, uint64_t slots,
			      struct position *pos)
{
	gsl_rng *rng = gsl_rng_alloc(gsl_rng_mt19937);
	if (!rng)
		return -1;
	gsl_rng_set(rng, (unsigned long)data_seed(index, n));
	double s = (double)slots;
	for (size_t i = 0; i < n; i++) {
		double jitter = gsl_rng_uniform_pos(rng); /* in (0, 1): no position is 0 or 1 */
		pos[i].u = ((double)index[i] + jitter) / s;
		pos[i].rest = ((double)(slots - 1 - index[i]) + (1 - jitter)) / s;
	}
	gsl_rng_free(rng);
	qsort(pos, n, sizeof(pos[0]), cmp_position);
	return 0;
}

/* A^2 = -n - (1/n) sum_i (2i - 1) (ln u_(i) + ln(1 - u_(n+1-i))), i from 1. */
static void anderson_darling(const struct position *pos, size_t n, struct uniformity *u)
{
	double sum = 0;
	for (size_t i = 0; i < n; i++)
		sum += (2.0 * (double)i + 1) * (log(pos[i].u) + log(pos[n - 1 - i].rest));
	u->ad = -(double)n - sum / (double)n;
	u->ad_p = stats_ad_upper_tail(u->ad);
}

/* Positions below x among the sorted ones. */
static size_t count_below(const struct position *pos, size_t n, double x)
{
	size_t lo = 0, hi = n;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (pos[mid].u < x)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

static void windows(const struct position *pos, size_t n, struct uniformity *u)
{
	const double width = 1.0 / STATS_WINDOW_DIV, q = width;
	double mean = (double)n * q, sd = sqrt((double)n * q * (1 - q));
	u->window_z = 0;
	u->window_p = 1;
	for (int j = 0; j < STATS_WINDOWS; j++) {
		double start = (double)j / STATS_WINDOW_STEP_DIV;
		size_t c = count_below(pos, n, start + width) - count_below(pos, n, start);
		double lower = gsl_cdf_binomial_P((unsigned)c, q, (unsigned)n);
		double upper = c ? gsl_cdf_binomial_Q((unsigned)c - 1, q, (unsigned)n) : 1;
		double p = 2 * fmin(lower, upper) * STATS_WINDOWS;
		double z = fabs((double)c - mean) / sd;
		if (z > u->window_z)
			u->window_z = z;
		if (p < u->window_p)
			u->window_p = p;
	}
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
	u->min_entropy_uniform = u->min_entropy_uniform_lo = u->min_entropy_uniform_hi = NAN;
	chi_square(index, n, slots, u);

	struct position *pos = malloc(n * sizeof(*pos));
	if (!pos || jittered_positions(index, n, slots, pos)) {
		free(pos);
		return -1;
	}
	anderson_darling(pos, n, u);
	windows(pos, n, u);
	free(pos);
	return 0;
}

/*
 * Three tests share what the few-distinct test leaves, and a fourth share is held back: the
 * chi-square and Anderson-Darling tails are approximations (for expected counts of five, and
 * in the limit of many samples), and the union of the tests is what must stay within the
 * budget. tests/boot/uniformity-selftest.sh measures that union on simulated uniform draws.
 */
#define LEVEL_SHARES 4

double uniformity_test_level(double false_alarm)
{
	return (false_alarm - STATS_FEW_DISTINCT_P) / LEVEL_SHARES;
}

const char *uniformity_verdict(const struct uniformity *u, double false_alarm)
{
	double level = uniformity_test_level(false_alarm);
	if (u->distinct_p < STATS_FEW_DISTINCT_P)
		return "NOT UNIFORM (few distinct)";
	if (u->p < level)
		return "NOT UNIFORM (chi-square)";
	if (!(u->ad_p >= level)) /* NAN too: a tail that cannot be computed is no pass */
		return "NOT UNIFORM (Anderson-Darling)";
	if (u->window_p < level)
		return "NOT UNIFORM (quarter window)";
	return "uniform";
}
