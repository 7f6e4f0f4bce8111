/*
 * Unit tests for lib/word_sums.c: the sums by their definition, in pieces and while copying,
 * and what they detect (docs/format.md): every change inside one word or two adjacent words,
 * every swap of two different adjacent words; and one of the changes they miss, by design.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "lib/word_sums.h"

#define DATA_BYTES 1000u /* not a multiple of the unrolled round, nor of a word */

static void fill(uint8_t *p, size_t n, uint32_t seed)
{
	for (size_t i = 0; i < n; i++) {
		seed = seed * 1103515245u + 12345u;
		p[i] = (uint8_t)(seed >> 16);
	}
}

static struct word_sums sums_of(const uint8_t *p, size_t n)
{
	struct word_sums s = { 0, 0 };
	word_sums_add(&s, p, n);
	return s;
}

static int same(struct word_sums a, struct word_sums b)
{
	return a.sum == b.sum && a.sum_of_sums == b.sum_of_sums;
}

/* sum = w1 + ... + wn, sum_of_sums = n*w1 + (n-1)*w2 + ... + wn, the last word zero-padded. */
static void test_sums_follow_their_definition(void **state)
{
	(void)state;
	uint8_t data[DATA_BYTES];
	fill(data, sizeof(data), 1);
	for (size_t n = 0; n <= 37; n++) {
		size_t words = (n + 3) / 4;
		uint32_t sum = 0, sum_of_sums = 0;
		for (size_t i = 0; i < words; i++) {
			uint32_t w = 0;
			for (size_t b = 0; b < 4 && 4 * i + b < n; b++)
				w |= (uint32_t)data[4 * i + b] << (8 * b);
			sum += w;
			sum_of_sums += w * (uint32_t)(words - i);
		}
		struct word_sums got = sums_of(data, n);
		assert_int_equal(got.sum, sum);
		assert_int_equal(got.sum_of_sums, sum_of_sums);
	}
}

static void test_pieces_of_whole_words_add_up_to_the_whole(void **state)
{
	(void)state;
	uint8_t data[DATA_BYTES];
	fill(data, sizeof(data), 2);
	struct word_sums whole = sums_of(data, sizeof(data));
	for (size_t cut = 0; cut <= sizeof(data); cut += 4) {
		struct word_sums s = { 0, 0 };
		word_sums_add(&s, data, cut);
		word_sums_add(&s, data + cut, sizeof(data) - cut);
		assert_true(same(s, whole));
	}
}

/* The stub's copy: the same bytes at the destination, the same sums, every length. */
static void test_copy_sums_what_it_copies(void **state)
{
	(void)state;
	uint8_t src[DATA_BYTES + 8], dst[DATA_BYTES + 8];
	fill(src, sizeof(src), 3);
	for (size_t n = 0; n <= DATA_BYTES; n += n < 80 ? 1 : 61) {
		for (size_t misalign = 0; misalign < 4; misalign += 3) {
			memset(dst, 0xee, sizeof(dst));
			struct word_sums s = { 0, 0 };
			word_sums_copy(&s, dst + misalign, src + misalign, n);
			assert_memory_equal(dst + misalign, src + misalign, n);
			assert_int_equal(dst[misalign + n], 0xee); /* nothing past the end */
			assert_true(same(s, sums_of(src + misalign, n)));
		}
	}
	/* In pieces of whole words too, as the stub copies block by block. */
	struct word_sums s = { 0, 0 };
	word_sums_copy(&s, dst, src, 512);
	word_sums_copy(&s, dst + 512, src + 512, DATA_BYTES - 512);
	assert_true(same(s, sums_of(src, DATA_BYTES)));
}

/* Every value of every byte, and every change confined to one 32-bit word. */
static void test_every_changed_byte_changes_the_sums(void **state)
{
	(void)state;
	uint8_t data[64];
	fill(data, sizeof(data), 4);
	struct word_sums before = sums_of(data, sizeof(data));
	for (size_t i = 0; i < sizeof(data); i++) {
		uint8_t keep = data[i];
		for (unsigned v = 0; v < 256; v++) {
			if (v == keep)
				continue;
			data[i] = (uint8_t)v;
			assert_false(same(sums_of(data, sizeof(data)), before));
		}
		data[i] = keep;
	}
}

/* Changes in two adjacent words (every burst within 5 bytes, any alignment): d1 + d2 = 0 mod
 * 2^32 leaves the sum, and then the sum of sums moves by d1, which is not 0. Random trials. */
static void test_every_change_within_two_adjacent_words_changes_the_sums(void **state)
{
	(void)state;
	uint8_t data[256], changed[256];
	fill(data, sizeof(data), 5);
	struct word_sums before = sums_of(data, sizeof(data));
	uint32_t seed = 6;
	for (unsigned trial = 0; trial < 200000; trial++) {
		memcpy(changed, data, sizeof(data));
		seed = seed * 1103515245u + 12345u;
		size_t word = (seed >> 8) % (sizeof(data) / 4 - 1);
		uint8_t mask[8];
		fill(mask, sizeof(mask), seed);
		if (trial % 2) { /* half the trials: d2 = -d1, the case the plain sum cannot see */
			uint32_t w1, w2, d = (uint32_t)mask[0] << 24 | mask[1] | 1u;
			memcpy(&w1, changed + 4 * word, 4);
			memcpy(&w2, changed + 4 * word + 4, 4);
			w1 += d;
			w2 -= d;
			memcpy(changed + 4 * word, &w1, 4);
			memcpy(changed + 4 * word + 4, &w2, 4);
		} else {
			for (unsigned b = 0; b < 8; b++)
				changed[4 * word + b] ^= mask[b];
		}
		if (memcmp(changed, data, sizeof(data)) != 0)
			assert_false(same(sums_of(changed, sizeof(changed)), before));
	}
}

static void test_swapped_adjacent_words_change_the_sum_of_sums(void **state)
{
	(void)state;
	uint8_t data[128];
	fill(data, sizeof(data), 7);
	struct word_sums before = sums_of(data, sizeof(data));
	for (size_t i = 0; i + 8 <= sizeof(data); i += 4) {
		uint8_t word[4];
		if (memcmp(data + i, data + i + 4, 4) == 0)
			continue;
		memcpy(word, data + i, 4);
		memcpy(data + i, data + i + 4, 4);
		memcpy(data + i + 4, word, 4);
		struct word_sums after = sums_of(data, sizeof(data));
		assert_int_equal(after.sum, before.sum);
		assert_int_not_equal(after.sum_of_sums, before.sum_of_sums);
		memcpy(data + i + 4, data + i, 4);
		memcpy(data + i, word, 4);
	}
}

/* What the sums miss (docs/format.md): bit 31 flipped in two words an even number of words
 * apart changes the sum by 2^32 and the sum of sums by a multiple of 2^32. A CRC-32 sees
 * this; the sums are the cheaper check. */
static void test_top_bits_of_two_words_two_apart_go_unseen(void **state)
{
	(void)state;
	uint8_t data[64];
	fill(data, sizeof(data), 8);
	struct word_sums before = sums_of(data, sizeof(data));
	data[3] ^= 0x80;
	data[11] ^= 0x80;
	assert_true(same(sums_of(data, sizeof(data)), before));
	data[11] ^= 0x80;
	data[7] ^= 0x80; /* adjacent words: seen */
	assert_false(same(sums_of(data, sizeof(data)), before));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_sums_follow_their_definition),
		cmocka_unit_test(test_pieces_of_whole_words_add_up_to_the_whole),
		cmocka_unit_test(test_copy_sums_what_it_copies),
		cmocka_unit_test(test_every_changed_byte_changes_the_sums),
		cmocka_unit_test(test_every_change_within_two_adjacent_words_changes_the_sums),
		cmocka_unit_test(test_swapped_adjacent_words_change_the_sum_of_sums),
		cmocka_unit_test(test_top_bits_of_two_words_two_apart_go_unseen),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
