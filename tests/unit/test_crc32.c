/* Unit tests for lib/crc32.c: known vectors, chaining, and the table against the bitwise form. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "lib/crc32.h"

#define CRC32_POLY 0xEDB88320u

/* Reference: the textbook bit-at-a-time reflected CRC-32. */
static uint32_t crc32_bitwise(uint32_t crc, const uint8_t *p, size_t len)
{
	crc = ~crc;
	for (size_t i = 0; i < len; i++) {
		crc ^= p[i];
		for (int b = 0; b < 8; b++)
			crc = (crc & 1) ? (crc >> 1) ^ CRC32_POLY : crc >> 1;
	}
	return ~crc;
}

static uint64_t next_random(uint64_t *s)
{
	*s ^= *s >> 12;
	*s ^= *s << 25;
	*s ^= *s >> 27;
	return *s * 0x2545F4914F6CDD1Dull;
}

static void test_check_value_of_123456789(void **state)
{
	(void)state;
	assert_int_equal(crc32_update(0, "123456789", 9), 0xCBF43926u);
	assert_int_equal(crc32_bitwise(0, (const uint8_t *)"123456789", 9), 0xCBF43926u);
}

static void test_empty_input_leaves_crc_unchanged(void **state)
{
	(void)state;
	assert_int_equal(crc32_update(0, "", 0), 0);
	assert_int_equal(crc32_update(0, NULL, 0), 0);
	assert_int_equal(crc32_update(0xCBF43926u, "", 0), 0xCBF43926u);
}

static void test_other_known_vectors(void **state)
{
	(void)state;
	static const char fox[] = "The quick brown fox jumps over the lazy dog";
	assert_int_equal(crc32_update(0, fox, sizeof(fox) - 1), 0x414FA339u);
	assert_int_equal(crc32_update(0, "a", 1), 0xE8B7BE43u);
	uint8_t zeros[32] = { 0 };
	assert_int_equal(crc32_update(0, zeros, sizeof(zeros)), 0x190A55ADu);
}

/* Every single-byte input exercises exactly one table entry against the bitwise algorithm. */
static void test_each_table_entry_matches_bitwise(void **state)
{
	(void)state;
	for (unsigned n = 0; n < 256; n++) {
		uint8_t byte = (uint8_t)n;
		assert_int_equal(crc32_update(0, &byte, 1), crc32_bitwise(0, &byte, 1));
		assert_int_equal(crc32_update(0x12345678u, &byte, 1),
				 crc32_bitwise(0x12345678u, &byte, 1));
	}
}

/* A word with one byte set reaches one entry of each table the four-byte step reads. */
static void test_each_word_table_entry_matches_bitwise(void **state)
{
	(void)state;
	for (unsigned at = 0; at < 4; at++) {
		for (unsigned n = 0; n < 256; n++) {
			uint8_t word[4] = { 0 };
			word[at] = (uint8_t)n;
			assert_int_equal(crc32_update(0, word, 4), crc32_bitwise(0, word, 4));
		}
	}
}

static void test_incremental_equals_one_shot(void **state)
{
	(void)state;
	uint64_t seed = 42;
	uint8_t buf[4096];
	for (size_t i = 0; i < sizeof(buf); i++)
		buf[i] = (uint8_t)next_random(&seed);
	uint32_t whole = crc32_update(0, buf, sizeof(buf));
	for (int round = 0; round < 200; round++) {
		uint32_t crc = 0;
		size_t pos = 0;
		while (pos < sizeof(buf)) {
			size_t piece = next_random(&seed) % 97; /* includes empty pieces */
			if (piece > sizeof(buf) - pos)
				piece = sizeof(buf) - pos;
			crc = crc32_update(crc, buf + pos, piece);
			pos += piece;
		}
		assert_int_equal(crc, whole);
	}
}

static void test_random_buffers_match_bitwise(void **state)
{
	(void)state;
	uint64_t seed = 0x9e3779b97f4a7c15ull;
	uint8_t buf[1500];
	for (int round = 0; round < 500; round++) {
		size_t len = next_random(&seed) % sizeof(buf);
		size_t start = next_random(&seed) % 8; /* unaligned starts too */
		if (len > sizeof(buf) - start)
			len = sizeof(buf) - start;
		for (size_t i = 0; i < len; i++)
			buf[start + i] = (uint8_t)next_random(&seed);
		uint32_t init = (uint32_t)next_random(&seed);
		assert_int_equal(crc32_update(init, buf + start, len),
				 crc32_bitwise(init, buf + start, len));
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_check_value_of_123456789),
		cmocka_unit_test(test_empty_input_leaves_crc_unchanged),
		cmocka_unit_test(test_other_known_vectors),
		cmocka_unit_test(test_each_table_entry_matches_bitwise),
		cmocka_unit_test(test_each_word_table_entry_matches_bitwise),
		cmocka_unit_test(test_incremental_equals_one_shot),
		cmocka_unit_test(test_random_buffers_match_bitwise),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
