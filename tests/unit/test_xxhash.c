/* Unit tests for lib/xxhash.c: the published empty-input values, and libxxhash as the oracle. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <xxhash.h>

#include "lib/xxhash.h"

#define MAX_LEN 1000 /* past several stripes of both variants, and every tail length */

static void fill_random(uint8_t *p, size_t n, uint64_t seed)
{
	for (size_t i = 0; i < n; i++) {
		seed = seed * 6364136223846793005ull + 1442695040888963407ull;
		p[i] = (uint8_t)(seed >> 56);
	}
}

static void test_empty_input_gives_the_published_values(void **state)
{
	(void)state;
	assert_int_equal(xxh32("", 0, 0), 0x02CC5D05u);
	assert_true(xxh64("", 0, 0) == 0xEF46DB3751D8E999ull);
}

static void test_every_length_matches_libxxhash(void **state)
{
	(void)state;
	uint8_t buf[MAX_LEN];
	fill_random(buf, sizeof(buf), 1);
	for (size_t n = 0; n <= sizeof(buf); n++) {
		assert_int_equal(xxh32(buf, n, 0), XXH32(buf, n, 0));
		assert_int_equal(xxh32(buf, n, 0x9E3779B1u), XXH32(buf, n, 0x9E3779B1u));
		assert_true(xxh64(buf, n, 0) == XXH64(buf, n, 0));
		assert_true(xxh64(buf, n, ~0ull) == XXH64(buf, n, ~0ull));
	}
}

static void test_pieces_of_any_size_give_the_one_shot_value(void **state)
{
	(void)state;
	uint8_t buf[MAX_LEN];
	fill_random(buf, sizeof(buf), 2);
	uint64_t r = 3;
	for (size_t n = 0; n <= sizeof(buf); n += 7) {
		struct xxh32_state s32;
		struct xxh64_state s64;
		xxh32_init(&s32, 0);
		xxh64_init(&s64, 0);
		for (size_t at = 0; at < n;) {
			r = r * 6364136223846793005ull + 1;
			size_t piece = (size_t)(r >> 58); /* 0..63: inside and across stripes */
			if (piece > n - at)
				piece = n - at;
			xxh32_update(&s32, buf + at, piece);
			xxh64_update(&s64, buf + at, piece);
			at += piece;
		}
		assert_int_equal(xxh32_digest(&s32), XXH32(buf, n, 0));
		assert_true(xxh64_digest(&s64) == XXH64(buf, n, 0));
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_empty_input_gives_the_published_values),
		cmocka_unit_test(test_every_length_matches_libxxhash),
		cmocka_unit_test(test_pieces_of_any_size_give_the_one_shot_value),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
