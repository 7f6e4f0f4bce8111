/*
 * Unit tests for boot/x86_64/word_sums_avx2.c and its loop: the stub's AVX2 copy-and-sum gives
 * word_sums_copy's bytes and sums bit for bit, at every length, alignment and starting sum;
 * and boot/x86_64/zero_avx2.S clears exactly the bytes memset would.
 * The host runs the loops themselves, so it must have AVX2 (x86-64 only).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "boot/x86_64/word_sums_avx2.h"
#include "boot/x86_64/zero_avx2.h"
#include "lib/word_sums.h"

/* Three rounds of the loop and a tail of every size, plus room to misalign both ends. */
#define MAX_BYTES (3 * WORD_SUMS_AVX2_ROUND + WORD_SUMS_AVX2_ROUND - 1)
#define SLACK 40u

static void fill(uint8_t *p, size_t n, uint32_t seed)
{
	for (size_t i = 0; i < n; i++) {
		seed = seed * 1103515245u + 12345u;
		p[i] = (uint8_t)(seed >> 16);
	}
}

static int setup(void **state)
{
	(void)state;
	__builtin_cpu_init();
	if (!__builtin_cpu_supports("avx2")) {
		fprintf(stderr, "test_word_sums_avx2: this host has no AVX2, which the test runs "
				"natively: run it on one that has\n");
		return -1;
	}
	return 0;
}

static void test_avx2_copy_is_the_scalar_copy_bit_for_bit(void **state)
{
	(void)state;
	static uint8_t src[MAX_BYTES + SLACK], want[MAX_BYTES + SLACK], got[MAX_BYTES + SLACK];
	fill(src, sizeof(src), 11);
	size_t cases = 0;
	for (size_t n = 0; n <= MAX_BYTES; n += n < 2 * WORD_SUMS_AVX2_ROUND + 40 ? 1 : 7) {
		for (size_t from = 0; from < 8; from += 3) {
			for (size_t to = 0; to < 8; to += 5) {
				struct word_sums s_want = { (uint32_t)n * 2654435761u, 0xdeadbeefu };
				struct word_sums s_got = s_want;
				memset(want, 0xa5, sizeof(want));
				memset(got, 0xa5, sizeof(got));
				word_sums_copy(&s_want, want + to, src + from, n);
				word_sums_copy_avx2(&s_got, got + to, src + from, n);
				assert_memory_equal(got, want, sizeof(got)); /* nothing outside dst */
				assert_int_equal(s_got.sum, s_want.sum);
				assert_int_equal(s_got.sum_of_sums, s_want.sum_of_sums);
				cases++;
			}
		}
	}
	assert_true(cases > 1000);
}

/* As reloc_move calls it: block after block, the sums carried from one call to the next. */
static void test_avx2_copy_in_blocks_sums_the_whole(void **state)
{
	(void)state;
	static uint8_t src[64 * 1024 + 12], dst[sizeof(src)];
	fill(src, sizeof(src), 12);
	struct word_sums whole = { 0, 0 }, pieces = { 0, 0 };
	word_sums_add(&whole, src, sizeof(src));
	for (size_t done = 0; done < sizeof(src);) {
		size_t n = sizeof(src) - done < 4096 ? sizeof(src) - done : 4096;
		word_sums_copy_avx2(&pieces, dst + done, src + done, n);
		done += n;
	}
	assert_memory_equal(dst, src, sizeof(src));
	assert_int_equal(pieces.sum, whole.sum);
	assert_int_equal(pieces.sum_of_sums, whole.sum_of_sums);
}

/* Every length up to three rounds and a tail, at each alignment: zeros there, nothing else
 * touched. */
static void test_avx2_zero_clears_exactly_its_bytes(void **state)
{
	(void)state;
	static uint8_t want[3 * ZERO_AVX2_ROUND + ZERO_AVX2_ROUND + SLACK], got[sizeof(want)];
	size_t cases = 0;
	for (size_t n = 0; n + SLACK <= sizeof(want); n++) {
		for (size_t at = 0; at < 33; at += 4) {
			fill(want, sizeof(want), (uint32_t)n);
			memcpy(got, want, sizeof(got));
			memset(want + at, 0, n);
			zero_avx2(got + at, n);
			assert_memory_equal(got, want, sizeof(got));
			cases++;
		}
	}
	assert_true(cases > 1000);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_avx2_copy_is_the_scalar_copy_bit_for_bit),
		cmocka_unit_test(test_avx2_copy_in_blocks_sums_the_whole),
		cmocka_unit_test(test_avx2_zero_clears_exactly_its_bytes),
	};
	return cmocka_run_group_tests(tests, setup, NULL);
}
