/*
 * Statistics of observed slot indexes against a uniform choice among 'slots' values: distinct
 * values, collisions, the most frequent value, chi-square. Shared by kslide-stat and the
 * make-check uniformity checker (tests/boot/uniformity.c).
 */
#ifndef KSLIDE_TOOLS_STAT_STATS_H
#define KSLIDE_TOOLS_STAT_STATS_H

#include <stddef.h>
#include <stdint.h>

#define STATS_MIN_EXPECTED_PER_BIN 5.0	  /* the usual validity rule for the chi-square test */
#define STATS_MIN_P		   0.001  /* below this p-value the draws are called not uniform */
#define STATS_FEW_DISTINCT_P	   3.2e-5 /* one-sided 4 sigma: a false alarm once in 30,000 runs */

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
	 * 5th and 95th percentiles. A perfect source scores far below log2(slots) until samples
	 * outnumber slots many times over, so this is what min_entropy must be compared with. */
	double min_entropy_uniform, min_entropy_uniform_lo, min_entropy_uniform_hi;
	double chi2;
	uint64_t bins; /* equal groups of slots, about STATS_MIN_EXPECTED_PER_BIN samples each */
	double p;      /* P(chi-square with bins-1 degrees of freedom >= chi2) */
};

/*
 * Measure 'n' indexes, each below 'slots' (n >= 2, slots >= 2). Sorts 'index' in place.
 * Returns 0, or -1 if an index is out of range or the sizes are too small.
 */
int uniformity_measure(uint64_t *index, size_t n, uint64_t slots, struct uniformity *u);

/*
 * "uniform", "NOT UNIFORM (chi-square)" (p < min_p) or "NOT UNIFORM (few distinct)"
 * (distinct_p < STATS_FEW_DISTINCT_P).
 */
const char *uniformity_verdict(const struct uniformity *u, double min_p);

/* Expected number of distinct values, and its standard deviation, for n uniform draws from s. */
void distinct_expectation(double s, double n, double *mean, double *sd);

/* Bin of slot index i when s slots are grouped into k equal (within one) bins. */
uint64_t stats_bin_of(uint64_t i, uint64_t k, uint64_t s);

#endif
