/*
 * Statistics of observed slot indexes against a uniform choice among 'slots' values: distinct
 * values, collisions, the most frequent value, and three tests of the spread (chi-square over
 * fine bins, Anderson-Darling, quarter-wide windows). Shared by kslide-stat and the make-check
 * uniformity checker (tests/boot/uniformity.c).
 */
#ifndef KSLIDE_TOOLS_STAT_STATS_H
#define KSLIDE_TOOLS_STAT_STATS_H

#include <stddef.h>
#include <stdint.h>

/* Twice the usual validity rule for the chi-square test: with 5 per bin its p-values near
 * 1e-4 come out 1.6 times too small (simulated, 300 draws over 28,000 slots). */
#define STATS_MIN_EXPECTED_PER_BIN 10.0
#define STATS_FALSE_ALARM	   0.001  /* a uniform source is called NOT UNIFORM this rarely */
#define STATS_FEW_DISTINCT_P	   3.2e-5 /* one-sided 4 sigma: a false alarm once in 30,000 runs */
#define STATS_WINDOW_DIV	   4	  /* windows a quarter of the slots wide ... */
#define STATS_WINDOW_STEP_DIV	   16	  /* ... starting every sixteenth of them */
#define STATS_WINDOWS (STATS_WINDOW_STEP_DIV - STATS_WINDOW_STEP_DIV / STATS_WINDOW_DIV + 1)

struct uniformity {
	size_t samples;
	uint64_t slots;
	size_t distinct;
	double distinct_mean, distinct_sd; /* what uniform draws would give */
	double distinct_p;	     /* P(this few distinct values or fewer) under uniform draws */
	uint64_t collision_pairs;    /* pairs of samples with the same value */
	double collision_pairs_mean; /* n(n-1)/2 / slots */
	double collision_entropy;    /* -log2 of the estimated collision probability; NAN if none */
	uint64_t max_count;	     /* occurrences of the most frequent value */
	double min_entropy;	     /* plug-in: -log2(max_count / samples) */
	/* the plug-in min-entropy uniform draws give at this sample size, by simulation: mean and
	 * 5th and 95th percentiles (uniformity_min_entropy_reference). A perfect source scores
	 * far below log2(slots) until samples outnumber slots many times over, so this is what
	 * min_entropy must be compared with. */
	double min_entropy_uniform, min_entropy_uniform_lo, min_entropy_uniform_hi;
	double chi2;
	uint64_t bins; /* equal groups of slots, about STATS_MIN_EXPECTED_PER_BIN samples each */
	double p;      /* P(chi-square with bins-1 degrees of freedom >= chi2) */
	/* Anderson-Darling A^2 of the positions (index + U) / slots, U uniform in (0, 1): a
	 * continuous uniform sample exactly when the indexes are uniform, so the statistic's
	 * distribution does not depend on the slot count. It weighs the ends of the range,
	 * where a shifted distribution (folding instead of rejecting) shows most. */
	double ad;
	double ad_p; /* P(A^2 >= ad), from the limiting distribution */
	/* The window a quarter of the range wide, among STATS_WINDOWS, whose count is farthest
	 * from n/4 (in standard deviations); p is the exact two-sided binomial probability of
	 * that count, times the number of windows (Bonferroni). Sees a bump anywhere in the
	 * range, which Anderson-Darling misses in the middle. */
	double window_z;
	double window_p;
};

/*
 * Measure 'n' indexes, each below 'slots' (n >= 2, slots >= 2). Sorts 'index' in place.
 * Returns 0, or -1 if an index is out of range, the sizes are too small or memory runs out.
 * The min-entropy reference is left NAN (uniformity_min_entropy_reference fills it).
 */
int uniformity_measure(uint64_t *index, size_t n, uint64_t slots, struct uniformity *u);

/* The min_entropy_uniform figures, by simulating n uniform draws from 'slots' many times. */
void uniformity_min_entropy_reference(size_t n, uint64_t slots, struct uniformity *u);

/*
 * "uniform", or "NOT UNIFORM (why)" when one test rejects. 'false_alarm' is the chance, for a
 * uniform source, that any of them does: the few-distinct test takes STATS_FEW_DISTINCT_P of
 * it, chi-square, Anderson-Darling and the windows a quarter of the rest each (the last
 * quarter is a margin for the approximations in their p-values).
 */
const char *uniformity_verdict(const struct uniformity *u, double false_alarm);

/* The level each of the three spread tests is held to (see uniformity_verdict). */
double uniformity_test_level(double false_alarm);

/* P(A^2 >= x) in the limit of many samples (Anderson and Darling, 1952). */
double stats_ad_upper_tail(double x);

/* Expected number of distinct values, and its standard deviation, for n uniform draws from s. */
void distinct_expectation(double s, double n, double *mean, double *sd);

/* Bin of slot index i when s slots are grouped into k equal (within one) bins. */
uint64_t stats_bin_of(uint64_t i, uint64_t k, uint64_t s);

#endif
