/* Unit tests for lib/log2.c: exact at powers of two, within 1/256 bit of libm elsewhere. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "lib/log2.h"

static void test_powers_of_two_are_exact(void **state)
{
	(void)state;
	for (unsigned k = 0; k < 64; k++)
		assert_int_equal(log2_fixed(1ull << k), k * LOG2_ONE);
	assert_int_equal(log2_fixed(0), 0);
}

/* Rounded down, so the true value lies in [result, result + 1/256). libm is the oracle. */
static void expect_close(uint64_t n)
{
	double want = log2((double)n) * LOG2_ONE;
	double got = log2_fixed(n);
	if (!(got <= want + 1e-6 && want < got + 1.0 + 1e-6))
		fail_msg("log2(%llu): got %.0f/256, libm says %.3f/256", (unsigned long long)n, got,
			 want);
}

static void test_agrees_with_libm(void **state)
{
	(void)state;
	static const uint64_t samples[] = { 3, 5, 7, 440, 504, 1016, 512064, 62652416,
					    225048, 3064ull * 62652416, UINT64_MAX, UINT64_MAX / 3 };
	for (size_t i = 0; i < sizeof(samples) / sizeof(samples[0]); i++)
		expect_close(samples[i]);
	uint64_t x = 0x9e3779b97f4a7c15ull;
	for (int i = 0; i < 10000; i++) {
		x ^= x << 13, x ^= x >> 7, x ^= x << 17;
		expect_close((x >> (i % 63)) | 2);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_powers_of_two_are_exact),
		cmocka_unit_test(test_agrees_with_libm),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
