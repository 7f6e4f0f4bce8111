/*
 * Unit tests for boot/x86_64/crc32_pclmul.c and its loop: the stub's image checksum on
 * PCLMULQDQ gives crc32_update's value bit for bit, at every length around the loop's steps,
 * every alignment and any starting CRC, and on the standard check value. The host runs the
 * loop itself, so it must have AVX and PCLMULQDQ (x86-64 only).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "boot/x86_64/crc32_pclmul.h"
#include "lib/crc32.h"

#define MAX_BYTES (8 * CRC32_PCLMUL_MIN + CRC32_PCLMUL_STEP)
#define SLACK 16u

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
	if (!__builtin_cpu_supports("avx") || !__builtin_cpu_supports("pclmul")) {
		fprintf(stderr, "test_crc32_pclmul: this host has no AVX or PCLMULQDQ, which the "
				"test runs natively: run it on one that has\n");
		return -1;
	}
	return 0;
}

static void test_pclmul_crc_is_the_table_crc_bit_for_bit(void **state)
{
	(void)state;
	static uint8_t buf[MAX_BYTES + SLACK];
	fill(buf, sizeof(buf), 7);
	size_t cases = 0;
	for (size_t n = 0; n <= MAX_BYTES; n++) {
		for (size_t at = 0; at < SLACK; at += 5) {
			uint32_t start = (uint32_t)(n * 2654435761u);
			assert_int_equal(crc32_pclmul(start, buf + at, n),
					 crc32_update(start, buf + at, n));
			assert_int_equal(crc32_pclmul(0, buf + at, n), crc32_update(0, buf + at, n));
			cases++;
		}
	}
	assert_true(cases > 1000);
}

/* Pieces chain as one buffer, as image_checksum feeds them; and the standard check value. */
static void test_pclmul_crc_chains_and_checks(void **state)
{
	(void)state;
	static uint8_t big[64 * 1024 + 7];
	fill(big, sizeof(big), 8);
	uint32_t whole = crc32_update(0, big, sizeof(big));
	uint32_t pieces = crc32_pclmul(0, big, 100);
	pieces = crc32_pclmul(pieces, big + 100, 5000);
	pieces = crc32_pclmul(pieces, big + 5100, sizeof(big) - 5100);
	assert_int_equal(pieces, whole);
	static const char check[] = "123456789123456789123456789123456789123456789123456789123456789"
				    "123456789";
	assert_int_equal(crc32_pclmul(0, check, 9), 0xCBF43926u);
	assert_int_equal(crc32_pclmul(0, check, sizeof(check) - 1),
			 crc32_update(0, check, sizeof(check) - 1));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_pclmul_crc_is_the_table_crc_bit_for_bit),
		cmocka_unit_test(test_pclmul_crc_chains_and_checks),
	};
	return cmocka_run_group_tests(tests, setup, NULL);
}
