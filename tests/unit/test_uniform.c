/* uniform_below: scripted sources pin down the rejection rule; a seeded PRNG checks for bias. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "lib/uniform.h"

#define TOP_BIT ((uint64_t)1 << 63)

/* A source that replays fixed words and fails the test if asked for one more. */
struct script {
	const uint64_t *words;
	size_t count;
	size_t used;
};

static uint64_t script_next(void *ctx)
{
	struct script *s = ctx;

	assert_true(s->used < s->count);
	return s->words[s->used++];
}

#define SCRIPT(...)                                                                               \
	(struct script)                                                                           \
	{                                                                                         \
		.words = (const uint64_t[]){ __VA_ARGS__ },                                       \
		.count = sizeof((const uint64_t[]){ __VA_ARGS__ }) / sizeof(uint64_t), .used = 0  \
	}

/* xorshift64* (Vigna): fixed seeds keep the statistical tests reproducible. */
static uint64_t xorshift_next(void *ctx)
{
	uint64_t *state = ctx;
	uint64_t x = *state;

	x ^= x >> 12;
	x ^= x << 25;
	x ^= x >> 27;
	*state = x;
	return x * 0x2545f4914f6cdd1dull;
}

static void zero_and_one_return_zero_without_drawing(void **state)
{
	(void)state;
	struct script s = { .words = NULL, .count = 0, .used = 0 };

	assert_int_equal(uniform_below(0, script_next, &s), 0);
	assert_int_equal(uniform_below(1, script_next, &s), 0);
	assert_int_equal(s.used, 0);
}

/* n = 5 uses mask 7: 7, 6 and 5 are rejected in turn, 3 is the answer. */
static void out_of_range_draws_are_rejected_in_order(void **state)
{
	(void)state;
	struct script s = SCRIPT(7, 6, 5, 3, 0);

	assert_int_equal(uniform_below(5, script_next, &s), 3);
	assert_int_equal(s.used, 4);
}

/* Bits above the mask are discarded before the comparison, not used to reject. */
static void high_bits_are_masked_off(void **state)
{
	(void)state;
	struct script s = SCRIPT(0xabcdef0000000002ull);

	assert_int_equal(uniform_below(5, script_next, &s), 2);
	assert_int_equal(s.used, 1);
}

/* n = 2^64 - 1: the mask is all ones and only UINT64_MAX itself is out of range. */
static void largest_n_rejects_only_all_ones(void **state)
{
	(void)state;
	struct script s = SCRIPT(UINT64_MAX, UINT64_MAX, 42);

	assert_int_equal(uniform_below(UINT64_MAX, script_next, &s), 42);
	assert_int_equal(s.used, 3);

	s = SCRIPT(UINT64_MAX - 1);
	assert_int_equal(uniform_below(UINT64_MAX, script_next, &s), UINT64_MAX - 1);
	assert_int_equal(s.used, 1);
}

/* n = 2^63 + 1: n - 1 needs all 64 bits, so almost half the draws are rejected. */
static void n_just_above_half_keeps_all_bits(void **state)
{
	(void)state;
	struct script s = SCRIPT(TOP_BIT + 1, UINT64_MAX, TOP_BIT);

	assert_int_equal(uniform_below(TOP_BIT + 1, script_next, &s), TOP_BIT);
	assert_int_equal(s.used, 3);
}

/* n = 2^k: the mask is exactly n - 1, so every draw is accepted. */
#define ALTERNATE 0xaaaaaaaaaaaaaaaaull
static void power_of_two_draws_exactly_once(void **state)
{
	(void)state;

	for (unsigned int k = 1; k < 64; k++) {
		uint64_t n = (uint64_t)1 << k;
		struct script s = SCRIPT(UINT64_MAX, ALTERNATE);

		assert_int_equal(uniform_below(n, script_next, &s), n - 1);
		assert_int_equal(s.used, 1);
		assert_int_equal(uniform_below(n, script_next, &s), ALTERNATE & (n - 1));
		assert_int_equal(s.used, 2);
	}
}

static void result_is_always_below_n(void **state)
{
	(void)state;
	uint64_t rng = 0x9e3779b97f4a7c15ull;

	for (int i = 0; i < 100000; i++) {
		/* Spread n over every bit width, not just over large values. */
		uint64_t n = xorshift_next(&rng) >> (xorshift_next(&rng) & 63);
		if (n == 0)
			continue;
		assert_true(uniform_below(n, xorshift_next, &rng) < n);
	}
}

/* Three outcomes, 300000 draws: each within 1% of a third (about 12 standard deviations). */
static void three_outcomes_are_equally_likely(void **state)
{
	(void)state;
	enum { DRAWS = 300000 };
	uint64_t rng = 0x0123456789abcdefull;
	unsigned long hits[3] = { 0, 0, 0 };

	for (int i = 0; i < DRAWS; i++)
		hits[uniform_below(3, xorshift_next, &rng)]++;
	for (int v = 0; v < 3; v++) {
		assert_true(hits[v] > DRAWS / 3 - DRAWS / 100);
		assert_true(hits[v] < DRAWS / 3 + DRAWS / 100);
	}
}

/*
 * n = 3 * 2^62. Reducing a 64-bit word modulo n would hit [0, 2^62) twice as often as the
 * rest, putting 62.5% of results in the lower half of [0, n). Unbiased: 50% within 1%.
 */
static void large_n_lower_half_is_not_favoured(void **state)
{
	(void)state;
	enum { DRAWS = 200000 };
	const uint64_t n = TOP_BIT + (TOP_BIT >> 1);
	uint64_t rng = 0xfeedfacecafebeefull;
	unsigned long low = 0;

	for (int i = 0; i < DRAWS; i++) {
		uint64_t x = uniform_below(n, xorshift_next, &rng);
		assert_true(x < n);
		if (x < n / 2)
			low++;
	}
	assert_true(low > DRAWS / 2 - DRAWS / 100);
	assert_true(low < DRAWS / 2 + DRAWS / 100);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(zero_and_one_return_zero_without_drawing),
		cmocka_unit_test(out_of_range_draws_are_rejected_in_order),
		cmocka_unit_test(high_bits_are_masked_off),
		cmocka_unit_test(largest_n_rejects_only_all_ones),
		cmocka_unit_test(n_just_above_half_keeps_all_bits),
		cmocka_unit_test(power_of_two_draws_exactly_once),
		cmocka_unit_test(result_is_always_below_n),
		cmocka_unit_test(three_outcomes_are_equally_likely),
		cmocka_unit_test(large_n_lower_half_is_not_favoured),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
