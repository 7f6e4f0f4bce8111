/* SP 800-90B's repetition count and adaptive proportion tests, and their cutoffs recomputed. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "lib/health_tests.h"

/* 4.4.1: C = 1 + ceil(-log2(alpha) / H), in integers since H is a whole number of bits. */
static void rct_cutoff_is_the_standards_formula(void **state)
{
	(void)state;
	unsigned c = 1 + (HEALTH_ALPHA_LOG2 + HEALTH_H_BITS - 1) / HEALTH_H_BITS;

	assert_int_equal(HEALTH_RCT_CUTOFF, c);
}

/*
 * 4.4.2: C = 1 + CRITBINOM(W, p, 1 - alpha) with p = 2^-H, where CRITBINOM(n, p, q) is the
 * smallest k with P(X <= k) >= q for X ~ Binomial(n, p) (the spreadsheet function the
 * standard names). The probabilities by recurrence: P(0) = (1-p)^n, P(k+1) = P(k) (n-k)/(k+1)
 * p/(1-p); (1/2)^512 is still a normal double.
 */
static void apt_cutoff_is_the_standards_formula(void **state)
{
	(void)state;
	const unsigned n = HEALTH_APT_WINDOW;
	double p = 1.0, alpha = 1.0, pk = 1.0, cdf;
	unsigned k = 0;

	for (unsigned i = 0; i < HEALTH_H_BITS; i++)
		p /= 2;
	for (unsigned i = 0; i < HEALTH_ALPHA_LOG2; i++)
		alpha /= 2;
	for (unsigned i = 0; i < n; i++)
		pk *= 1 - p;
	cdf = pk;
	while (cdf < 1 - alpha) {
		pk *= (double)(n - k) / (k + 1) * p / (1 - p);
		k++;
		cdf += pk;
	}
	assert_int_equal(HEALTH_APT_CUTOFF, 1 + k);
}

static void rct_fails_exactly_at_the_cutoff(void **state)
{
	(void)state;
	struct health_tests t;

	health_tests_init(&t);
	assert_int_equal(health_tests_feed(&t, 7), HEALTH_OK);
	for (unsigned i = 2; i < HEALTH_RCT_CUTOFF; i++)
		assert_int_equal(health_tests_feed(&t, 7), HEALTH_OK);
	assert_int_equal(health_tests_feed(&t, 7), HEALTH_RCT_FAILED);
}

static void rct_restarts_when_the_value_changes(void **state)
{
	(void)state;
	struct health_tests t;

	health_tests_init(&t);
	for (unsigned round = 0; round < 10; round++) {
		for (unsigned i = 1; i < HEALTH_RCT_CUTOFF; i++)
			assert_int_equal(health_tests_feed(&t, (uint8_t)round), HEALTH_OK);
	}
}

/*
 * A window whose first value, 0, comes 'count' times among W samples, in pairs between other
 * values (so never a run the repetition count test would catch).
 */
static enum health_failure apt_window(struct health_tests *t, unsigned count)
{
	enum health_failure worst = HEALTH_OK;
	unsigned placed = 0;

	for (unsigned i = 0; i < HEALTH_APT_WINDOW; i++) {
		uint8_t v = (uint8_t)(100 + i % 50);

		if (i % 3 != 2 && placed < count) {
			v = 0;
			placed++;
		}
		enum health_failure f = health_tests_feed(t, v);

		if (f != HEALTH_OK)
			worst = f;
	}
	return worst;
}

static void apt_fails_exactly_at_the_cutoff(void **state)
{
	(void)state;
	struct health_tests t;

	health_tests_init(&t);
	assert_int_equal(apt_window(&t, HEALTH_APT_CUTOFF - 1), HEALTH_OK);
	health_tests_init(&t);
	assert_int_equal(apt_window(&t, HEALTH_APT_CUTOFF), HEALTH_APT_FAILED);
}

static void apt_counts_each_window_afresh(void **state)
{
	(void)state;
	struct health_tests t;

	health_tests_init(&t);
	for (unsigned w = 0; w < 4; w++)
		assert_int_equal(apt_window(&t, HEALTH_APT_CUTOFF - 1), HEALTH_OK);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(rct_cutoff_is_the_standards_formula),
		cmocka_unit_test(apt_cutoff_is_the_standards_formula),
		cmocka_unit_test(rct_fails_exactly_at_the_cutoff),
		cmocka_unit_test(rct_restarts_when_the_value_changes),
		cmocka_unit_test(apt_fails_exactly_at_the_cutoff),
		cmocka_unit_test(apt_counts_each_window_afresh),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
