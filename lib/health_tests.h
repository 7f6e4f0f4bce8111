/*
 * The continuous health tests of NIST SP 800-90B (January 2018), section 4.4, run on every raw
 * sample of a noise source before it is credited: the repetition count test (4.4.1) catches a
 * source stuck on one value, the adaptive proportion test (4.4.2) one value coming up far more
 * often than the claimed min-entropy allows. Both are tuned by that claim, H bits per sample,
 * and the false-alarm probability alpha = 2^-20 the standard recommends.
 */
#ifndef KSLIDE_LIB_HEALTH_TESTS_H
#define KSLIDE_LIB_HEALTH_TESTS_H

#include <stdbool.h>
#include <stdint.h>

/*
 * The claim the cutoffs are computed for: H = 1 bit of min-entropy per 8-bit sample, with
 * alpha = 2^-20. tests/unit/test_health_tests.c recomputes both cutoffs by the standard's
 * formulas:
 *   RCT (4.4.1): C = 1 + ceil(-log2(alpha) / H) = 1 + 20 = 21
 *   APT (4.4.2): C = 1 + CRITBINOM(W, 2^-H, 1 - alpha), W = 512 (non-binary samples) = 311
 *                (the standard's own table lists 311 for H = 1, W = 512)
 */
#define HEALTH_H_BITS 1u
#define HEALTH_ALPHA_LOG2 20u
#define HEALTH_RCT_CUTOFF 21u
#define HEALTH_APT_WINDOW 512u
#define HEALTH_APT_CUTOFF 311u

enum health_failure {
	HEALTH_OK,
	HEALTH_RCT_FAILED, /* the same value HEALTH_RCT_CUTOFF times in a row */
	HEALTH_APT_FAILED, /* a window's first value HEALTH_APT_CUTOFF times in its window */
};

struct health_tests {
	uint8_t rct_value;
	uint32_t rct_count;
	uint8_t apt_value;
	uint32_t apt_count;
	uint32_t apt_seen; /* samples of the current window, 0 before the first */
	bool started;
};

void health_tests_init(struct health_tests *t);

/* Feeds one raw sample to both tests; HEALTH_OK or the test it failed. */
enum health_failure health_tests_feed(struct health_tests *t, uint8_t sample);

#endif
