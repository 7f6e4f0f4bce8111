/* Unit tests for lib/reloc.c: table decoding, bounds and overflow checks, all-or-nothing apply,
 * the one-pass move and the stream the stub's decoders feed. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "lib/errors.h"
#include "lib/reloc.h"
#include "lib/word_sums.h"

#define IMAGE_SIZE 64
#define TABLE_CAP 4096

/* A table under construction: groups are appended with explicit offsets. */
struct table {
	uint8_t bytes[TABLE_CAP];
	size_t len;
};

static void put_byte(struct table *t, uint8_t b)
{
	assert_true(t->len < TABLE_CAP);
	t->bytes[t->len++] = b;
}

static void put_uleb(struct table *t, uint64_t v)
{
	size_t n = reloc_put_uleb128(t->bytes + t->len, TABLE_CAP - t->len, v);
	assert_true(n > 0);
	t->len += n;
}

/* Appends a group; offsets must be ascending (the gaps are computed from them). */
static void put_group(struct table *t, uint8_t kind, const uint64_t *offsets, size_t n)
{
	put_byte(t, kind);
	put_uleb(t, n);
	uint64_t prev = 0;
	for (size_t i = 0; i < n; i++) {
		put_uleb(t, offsets[i] - prev);
		prev = offsets[i];
	}
}

static void store32(uint8_t *p, uint32_t v)
{
	for (int i = 0; i < 4; i++)
		p[i] = (uint8_t)(v >> (8 * i));
}

static uint32_t load32(const uint8_t *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static void store64(uint8_t *p, uint64_t v)
{
	for (int i = 0; i < 8; i++)
		p[i] = (uint8_t)(v >> (8 * i));
}

static uint64_t load64(const uint8_t *p)
{
	return (uint64_t)load32(p) | (uint64_t)load32(p + 4) << 32;
}

/* Fills the image with a recognizable pattern so untouched bytes can be checked. */
static void fill_pattern(uint8_t *image, size_t size)
{
	for (size_t i = 0; i < size; i++)
		image[i] = (uint8_t)(0xA5 ^ i);
}

/*
 * Applies and expects rc; on failure, checks the image is byte-for-byte unchanged. Every
 * case also checks reloc_move from the original image (same result, same bytes, the word sums
 * of what it copied) and reloc_stream fed one byte at a time (the same, or KS_EORDER for a
 * table out of image order).
 */
static void apply_expect(uint8_t *image, uint64_t size, const struct table *t, int64_t delta,
			 int rc)
{
	uint8_t *copy = malloc(size ? size : 1);
	uint8_t *moved = malloc(size ? size : 1);
	assert_non_null(copy);
	assert_non_null(moved);
	memcpy(copy, image, size);
	memset(moved, 0xee, size);
	assert_int_equal(reloc_apply(image, size, t->bytes, t->len, delta), rc);
	if (rc != KS_OK)
		assert_memory_equal(image, copy, size);
	struct word_sums sums, copied = { 0, 0 };
	word_sums_add(&copied, copy, size);
	assert_int_equal(reloc_move(moved, copy, size, size, t->bytes, t->len, delta, &sums), rc);
	assert_memory_equal(moved, image, size);
	assert_int_equal(sums.sum, copied.sum);
	assert_int_equal(sums.sum_of_sums, copied.sum_of_sums);

	memcpy(moved, copy, size);
	struct reloc_stream s;
	reloc_stream_init(&s, moved, size, t->bytes, t->len, delta);
	int streamed = KS_OK;
	for (uint64_t limit = 0; limit <= size && streamed == KS_OK; limit++)
		streamed = reloc_stream_patch(&s, limit);
	if (streamed != KS_EORDER) {
		assert_int_equal(streamed, rc);
		if (rc == KS_OK)
			assert_memory_equal(moved, image, size);
	}
	free(moved);
	free(copy);
}

static void test_stream_patches_a_field_once_it_lies_wholly_below_the_limit(void **state)
{
	(void)state;
	uint8_t image[IMAGE_SIZE];
	fill_pattern(image, sizeof(image));
	store32(image + 8, 0x1000);
	store64(image + 20, 0x2000);
	struct table t = { .len = 0 };
	put_group(&t, RELOC_ADD32, (uint64_t[]){ 8 }, 1);
	put_group(&t, RELOC_ADD64, (uint64_t[]){ 20 }, 1);
	struct reloc_stream s;
	reloc_stream_init(&s, image, sizeof(image), t.bytes, t.len, 0x10);
	assert_int_equal(reloc_stream_patch(&s, 11), KS_OK);
	assert_int_equal(load32(image + 8), 0x1000);
	assert_int_equal(reloc_stream_patch(&s, 12), KS_OK);
	assert_int_equal(load32(image + 8), 0x1010);
	assert_int_equal(reloc_stream_patch(&s, 27), KS_OK);
	assert_int_equal(load64(image + 20), 0x2000);
	assert_int_equal(reloc_stream_patch(&s, 27), KS_OK); /* the same limit again: nothing */
	assert_int_equal(reloc_stream_patch(&s, 28), KS_OK);
	assert_int_equal(load64(image + 20), 0x2010);
	assert_int_equal(load32(image + 8), 0x1010); /* patched once */
	assert_int_equal(reloc_stream_patch(&s, sizeof(image)), KS_OK);
}

/* A group starting before the previous one ends could overlap a field already patched. */
static void test_stream_stops_at_a_group_out_of_image_order_before_touching_it(void **state)
{
	(void)state;
	uint8_t image[IMAGE_SIZE];
	fill_pattern(image, sizeof(image));
	store32(image + 32, 0x1000);
	store32(image + 8, 0x3000);
	struct table t = { .len = 0 };
	put_group(&t, RELOC_ADD32, (uint64_t[]){ 32 }, 1);
	put_group(&t, RELOC_ADD32, (uint64_t[]){ 8 }, 1);
	struct reloc_stream s;
	reloc_stream_init(&s, image, sizeof(image), t.bytes, t.len, 0x10);
	assert_int_equal(reloc_stream_patch(&s, sizeof(image)), KS_EORDER);
	assert_int_equal(load32(image + 32), 0x1010);
	assert_int_equal(load32(image + 8), 0x3000);
	assert_int_equal(reloc_stream_patch(&s, sizeof(image)), KS_EORDER); /* sticky */
	/* reloc_apply and reloc_move take that order. */
	fill_pattern(image, sizeof(image));
	store32(image + 32, 0x1000);
	store32(image + 8, 0x3000);
	apply_expect(image, sizeof(image), &t, 0x10, KS_OK);
	assert_int_equal(load32(image + 8), 0x3010);
}

static void test_stream_failure_keeps_the_fields_before_it_and_sticks(void **state)
{
	(void)state;
	uint8_t image[IMAGE_SIZE];
	fill_pattern(image, sizeof(image));
	store32(image + 4, 0x1000);
	store32(image + 40, 0xfffffff0); /* cannot take 0x10 */
	struct table t = { .len = 0 };
	put_group(&t, RELOC_ADD32, (uint64_t[]){ 4, 40 }, 2);
	struct reloc_stream s;
	reloc_stream_init(&s, image, sizeof(image), t.bytes, t.len, 0x10);
	assert_int_equal(reloc_stream_patch(&s, 32), KS_OK);
	assert_int_equal(reloc_stream_patch(&s, sizeof(image)), KS_EOVERFLOW);
	assert_int_equal(load32(image + 4), 0x1010);
	assert_int_equal(load32(image + 40), 0xfffffff0);
	assert_int_equal(reloc_stream_patch(&s, sizeof(image)), KS_EOVERFLOW);
	reloc_stream_init(&s, NULL, 1, NULL, 0, 0);
	assert_int_equal(reloc_stream_patch(&s, 1), KS_EINVAL);
}

static void test_add32_round_trip_at_unaligned_offset(void **state)
{
	(void)state;
	uint8_t image[IMAGE_SIZE];
	fill_pattern(image, sizeof(image));
	store32(image + 5, 0x00100000);
	uint8_t before[IMAGE_SIZE];
	memcpy(before, image, sizeof(image));
	struct table t = { .len = 0 };
	put_group(&t, RELOC_ADD32, (uint64_t[]){ 5 }, 1);

	apply_expect(image, sizeof(image), &t, 0x01200000, KS_OK);
	assert_int_equal(load32(image + 5), 0x01300000);
	/* Every other byte is as it was. */
	assert_memory_equal(image, before, 5);
	assert_memory_equal(image + 9, before + 9, sizeof(image) - 9);

	apply_expect(image, sizeof(image), &t, -0x01200000, KS_OK);
	assert_memory_equal(image, before, sizeof(image));
}

static void test_add32s_round_trip_negative_field(void **state)
{
	(void)state;
	uint8_t image[IMAGE_SIZE] = { 0 };
	store32(image + 8, (uint32_t)-0x1000); /* e.g. a kernel address 0xfffff000 in 32S form */
	store32(image + 12, 0x7ffff000);
	struct table t = { .len = 0 };
	put_group(&t, RELOC_ADD32S, (uint64_t[]){ 8, 12 }, 2);

	apply_expect(image, sizeof(image), &t, 0x800, KS_OK);
	assert_int_equal((int32_t)load32(image + 8), -0x800);
	assert_int_equal((int32_t)load32(image + 12), 0x7ffff800);
	apply_expect(image, sizeof(image), &t, -0x800, KS_OK);
	assert_int_equal((int32_t)load32(image + 8), -0x1000);
	assert_int_equal(load32(image + 12), 0x7ffff000);
}

static void test_add64_round_trip_and_wraps(void **state)
{
	(void)state;
	uint8_t image[IMAGE_SIZE] = { 0 };
	store64(image + 3, 0xffffffff80000000ull);
	store64(image + 11, UINT64_MAX);
	struct table t = { .len = 0 };
	put_group(&t, RELOC_ADD64, (uint64_t[]){ 3, 11 }, 2);

	apply_expect(image, sizeof(image), &t, 0x200000, KS_OK);
	assert_int_equal(load64(image + 3), 0xffffffff80200000ull);
	assert_int_equal(load64(image + 11), 0x1fffffull); /* wrapped mod 2^64: allowed */
	apply_expect(image, sizeof(image), &t, -0x200000, KS_OK);
	assert_int_equal(load64(image + 3), 0xffffffff80000000ull);
	assert_int_equal(load64(image + 11), UINT64_MAX);
}

static void test_negative_delta_moves_down(void **state)
{
	(void)state;
	uint8_t image[IMAGE_SIZE] = { 0 };
	store32(image, 0x01000010);
	store64(image + 8, 0x01000020);
	struct table t = { .len = 0 };
	put_group(&t, RELOC_ADD32, (uint64_t[]){ 0 }, 1);
	put_group(&t, RELOC_ADD64, (uint64_t[]){ 8 }, 1);

	apply_expect(image, sizeof(image), &t, -0x00800000, KS_OK);
	assert_int_equal(load32(image), 0x00800010);
	assert_int_equal(load64(image + 8), 0x00800020);
}

static void test_several_groups_of_same_kind(void **state)
{
	(void)state;
	uint8_t image[IMAGE_SIZE] = { 0 };
	struct table t = { .len = 0 };
	put_group(&t, RELOC_ADD32, (uint64_t[]){ 16, 20 }, 2);
	put_group(&t, RELOC_ADD64, (uint64_t[]){ 32 }, 1);
	put_group(&t, RELOC_ADD32, (uint64_t[]){ 0 }, 1); /* offsets restart per group */
	struct reloc_summary s;
	memset(&s, 0xff, sizeof(s));

	assert_int_equal(reloc_validate(t.bytes, t.len, sizeof(image), &s), KS_OK);
	assert_int_equal(s.count[RELOC_ADD32], 3);
	assert_int_equal(s.count[RELOC_ADD32S], 0);
	assert_int_equal(s.count[RELOC_ADD64], 1);
	assert_int_equal(s.total, 4);
	apply_expect(image, sizeof(image), &t, 7, KS_OK);
	assert_int_equal(load32(image + 0), 7);
	assert_int_equal(load32(image + 16), 7);
	assert_int_equal(load32(image + 20), 7);
	assert_int_equal(load64(image + 32), 7);
}

static void test_empty_table_is_ok(void **state)
{
	(void)state;
	uint8_t image[IMAGE_SIZE];
	fill_pattern(image, sizeof(image));
	struct table t = { .len = 0 };
	struct reloc_summary s;
	memset(&s, 0xff, sizeof(s));
	assert_int_equal(reloc_validate(t.bytes, 0, sizeof(image), &s), KS_OK);
	assert_int_equal(s.total, 0);
	assert_int_equal(s.count[RELOC_ADD32], 0);
	assert_int_equal(reloc_validate(NULL, 0, 0, NULL), KS_OK);
	apply_expect(image, sizeof(image), &t, 0x1000, KS_OK);

	/* A group with zero entries is also fine. */
	put_group(&t, RELOC_ADD64, NULL, 0);
	assert_int_equal(reloc_validate(t.bytes, t.len, 0, &s), KS_OK);
	assert_int_equal(s.total, 0);
}

static void test_field_ending_exactly_at_image_end_is_ok(void **state)
{
	(void)state;
	uint8_t image[IMAGE_SIZE] = { 0 };
	struct table t = { .len = 0 };
	put_group(&t, RELOC_ADD32, (uint64_t[]){ IMAGE_SIZE - 4 }, 1);
	apply_expect(image, sizeof(image), &t, 1, KS_OK);
	assert_int_equal(load32(image + IMAGE_SIZE - 4), 1);

	t.len = 0;
	put_group(&t, RELOC_ADD64, (uint64_t[]){ IMAGE_SIZE - 8 }, 1);
	assert_int_equal(reloc_validate(t.bytes, t.len, IMAGE_SIZE, NULL), KS_OK);
}

static void test_field_straddling_end_is_out_of_range(void **state)
{
	(void)state;
	uint8_t image[IMAGE_SIZE];
	fill_pattern(image, sizeof(image));
	struct table t = { .len = 0 };
	put_group(&t, RELOC_ADD32, (uint64_t[]){ 0, IMAGE_SIZE - 3 }, 2);
	assert_int_equal(reloc_validate(t.bytes, t.len, IMAGE_SIZE, NULL), KS_ERANGE);
	apply_expect(image, sizeof(image), &t, 1, KS_ERANGE);

	t.len = 0;
	put_group(&t, RELOC_ADD64, (uint64_t[]){ IMAGE_SIZE - 7 }, 1);
	assert_int_equal(reloc_validate(t.bytes, t.len, IMAGE_SIZE, NULL), KS_ERANGE);

	/* An image smaller than the field itself. */
	assert_int_equal(reloc_validate(t.bytes, t.len, 3, NULL), KS_ERANGE);
	t.len = 0;
	put_group(&t, RELOC_ADD32, (uint64_t[]){ 0 }, 1);
	assert_int_equal(reloc_validate(t.bytes, t.len, 3, NULL), KS_ERANGE);
	assert_int_equal(reloc_validate(t.bytes, t.len, 0, NULL), KS_ERANGE);
}

static void test_offset_that_wraps_is_out_of_range(void **state)
{
	(void)state;
	struct table t = { .len = 0 };
	put_byte(&t, RELOC_ADD64);
	put_uleb(&t, 2);
	put_uleb(&t, UINT64_MAX - 16); /* in bounds for an 8-byte field */
	put_uleb(&t, 24);              /* UINT64_MAX - 16 + 24 wraps to 7, which looks in bounds */
	assert_int_equal(reloc_validate(t.bytes, t.len, UINT64_MAX, NULL), KS_ERANGE);

	/* Near the top of a huge image, offset + width must not wrap either. */
	t.len = 0;
	put_group(&t, RELOC_ADD64, (uint64_t[]){ UINT64_MAX - 3 }, 1);
	assert_int_equal(reloc_validate(t.bytes, t.len, UINT64_MAX, NULL), KS_ERANGE);
	t.len = 0;
	put_group(&t, RELOC_ADD64, (uint64_t[]){ UINT64_MAX - 8 }, 1);
	assert_int_equal(reloc_validate(t.bytes, t.len, UINT64_MAX, NULL), KS_OK);
}

static void test_bad_last_entry_changes_nothing(void **state)
{
	(void)state;
	uint8_t image[IMAGE_SIZE];
	fill_pattern(image, sizeof(image));
	struct table t = { .len = 0 };
	/* Good entries first, so an implementation that writes as it goes would be caught. */
	put_group(&t, RELOC_ADD32, (uint64_t[]){ 0, 4, 8 }, 3);
	put_group(&t, RELOC_ADD64, (uint64_t[]){ 16, 24 }, 2);
	put_group(&t, RELOC_ADD32, (uint64_t[]){ 32, IMAGE_SIZE }, 2);
	apply_expect(image, sizeof(image), &t, 0x1000, KS_ERANGE);

	/* Same with a value overflow as the last entry. */
	t.len = 0;
	fill_pattern(image, sizeof(image));
	store32(image + 40, 0xfffff000);
	put_group(&t, RELOC_ADD64, (uint64_t[]){ 0, 8 }, 2);
	put_group(&t, RELOC_ADD32, (uint64_t[]){ 20, 40 }, 2);
	apply_expect(image, sizeof(image), &t, 0x1000, KS_EOVERFLOW);

	/* And with a truncated last group. */
	t.len = 0;
	put_group(&t, RELOC_ADD32, (uint64_t[]){ 0, 4 }, 2);
	put_byte(&t, RELOC_ADD32);
	put_uleb(&t, 2);
	put_uleb(&t, 8);
	apply_expect(image, sizeof(image), &t, 0x1000, KS_EFORMAT);
}

static void test_truncated_uleb_is_format_error(void **state)
{
	(void)state;
	uint8_t image[IMAGE_SIZE];
	fill_pattern(image, sizeof(image));
	struct table t = { .len = 0 };
	put_group(&t, RELOC_ADD32, (uint64_t[]){ 0 }, 1);
	put_byte(&t, RELOC_ADD32);
	put_uleb(&t, 1);
	put_byte(&t, 0x84); /* continuation bit set, then the table ends */
	assert_int_equal(reloc_validate(t.bytes, t.len, IMAGE_SIZE, NULL), KS_EFORMAT);
	apply_expect(image, sizeof(image), &t, 4, KS_EFORMAT);

	/* Truncated count, and a kind byte with nothing after it. */
	uint8_t count_cut[] = { RELOC_ADD32, 0x80 };
	assert_int_equal(reloc_validate(count_cut, sizeof(count_cut), IMAGE_SIZE, NULL),
			 KS_EFORMAT);
	uint8_t kind_only[] = { RELOC_ADD32 };
	assert_int_equal(reloc_validate(kind_only, sizeof(kind_only), IMAGE_SIZE, NULL),
			 KS_EFORMAT);
	/* Fewer gaps than the count promises. */
	uint8_t short_group[] = { RELOC_ADD32, 3, 0, 4 };
	assert_int_equal(reloc_validate(short_group, sizeof(short_group), IMAGE_SIZE, NULL),
			 KS_EFORMAT);
}

static void test_overlong_uleb_is_format_error(void **state)
{
	(void)state;
	/* 11 bytes: ten with the continuation bit, then a terminator. */
	uint8_t eleven[] = { RELOC_ADD32, 1, 0x80, 0x80, 0x80, 0x80, 0x80,
			     0x80, 0x80, 0x80, 0x80, 0x80, 0x00 };
	assert_int_equal(reloc_validate(eleven, sizeof(eleven), IMAGE_SIZE, NULL), KS_EFORMAT);
	/* 10 bytes whose last one sets bits above 63. */
	uint8_t too_big[] = { RELOC_ADD32, 1, 0x80, 0x80, 0x80, 0x80, 0x80,
			      0x80, 0x80, 0x80, 0x80, 0x02 };
	assert_int_equal(reloc_validate(too_big, sizeof(too_big), IMAGE_SIZE, NULL), KS_EFORMAT);
	/* A 10-byte encoding of a value with bit 63 set is legal (and out of range here). */
	uint8_t top_bit[] = { RELOC_ADD32, 1, 0x80, 0x80, 0x80, 0x80, 0x80,
			      0x80, 0x80, 0x80, 0x80, 0x01 };
	assert_int_equal(reloc_validate(top_bit, sizeof(top_bit), IMAGE_SIZE, NULL), KS_ERANGE);
	/* A padded but in-range encoding of 4 is accepted. */
	uint8_t padded[] = { RELOC_ADD32, 1, 0x84, 0x80, 0x00 };
	assert_int_equal(reloc_validate(padded, sizeof(padded), IMAGE_SIZE, NULL), KS_OK);
}

static void test_unknown_kind_is_invalid(void **state)
{
	(void)state;
	uint8_t image[IMAGE_SIZE];
	fill_pattern(image, sizeof(image));
	struct table t = { .len = 0 };
	put_group(&t, RELOC_ADD32, (uint64_t[]){ 0 }, 1);
	put_group(&t, RELOC_KIND_LAST + 1, (uint64_t[]){ 8 }, 1);
	assert_int_equal(reloc_validate(t.bytes, t.len, IMAGE_SIZE, NULL), KS_EINVAL);
	apply_expect(image, sizeof(image), &t, 4, KS_EINVAL);

	uint8_t kind_zero[] = { 0, 0 };
	assert_int_equal(reloc_validate(kind_zero, sizeof(kind_zero), IMAGE_SIZE, NULL),
			 KS_EINVAL);
}

static void test_duplicate_offset_is_format_error(void **state)
{
	(void)state;
	uint8_t image[IMAGE_SIZE];
	fill_pattern(image, sizeof(image));
	/* offsets 0, 8, 8: the second gap of 0 would patch offset 8 twice. */
	uint8_t dup[] = { RELOC_ADD32, 3, 0, 8, 0 };
	assert_int_equal(reloc_validate(dup, sizeof(dup), IMAGE_SIZE, NULL), KS_EFORMAT);
	struct table t = { .len = sizeof(dup) };
	memcpy(t.bytes, dup, sizeof(dup));
	apply_expect(image, sizeof(image), &t, 4, KS_EFORMAT);

	/* The first gap may be 0 (offset 0). */
	uint8_t first_zero[] = { RELOC_ADD32, 2, 0, 4 };
	assert_int_equal(reloc_validate(first_zero, sizeof(first_zero), IMAGE_SIZE, NULL), KS_OK);
}

static void test_overlapping_fields_in_group_are_format_error(void **state)
{
	(void)state;
	uint8_t image[IMAGE_SIZE];
	fill_pattern(image, sizeof(image));
	/* Offsets 8 and 11: the second field's first byte is the first field's last. The value
	 * check would see only original bytes, then patch on top of a patch. */
	uint8_t overlap32[] = { RELOC_ADD32, 2, 8, 3 };
	assert_int_equal(reloc_validate(overlap32, sizeof(overlap32), IMAGE_SIZE, NULL),
			 KS_EFORMAT);
	struct table t = { .len = sizeof(overlap32) };
	memcpy(t.bytes, overlap32, sizeof(overlap32));
	apply_expect(image, sizeof(image), &t, 4, KS_EFORMAT);

	/* 64-bit fields need gaps of 8; adjacent fields (gap = width) are fine. */
	uint8_t overlap64[] = { RELOC_ADD64, 2, 0, 7 };
	assert_int_equal(reloc_validate(overlap64, sizeof(overlap64), IMAGE_SIZE, NULL),
			 KS_EFORMAT);
	uint8_t adjacent[] = { RELOC_ADD32, 2, 0, 4, RELOC_ADD64, 2, 8, 8 };
	assert_int_equal(reloc_validate(adjacent, sizeof(adjacent), IMAGE_SIZE, NULL), KS_OK);
}

/* The run reads a word of gaps at once (lib/reloc.c) where the limit is far enough for all of
 * them: a gap below the width or a longer form at any byte of it must still be seen, in each
 * kind. */
static void test_a_bad_gap_amid_a_word_of_short_gaps_is_seen(void **state)
{
	(void)state;
	static const uint8_t kinds[] = { RELOC_ADD32S, RELOC_ADD64 };
	for (size_t k = 0; k < sizeof(kinds); k++) {
		for (size_t bad = 1; bad < 12; bad++) {
			static uint8_t image[4096];
			fill_pattern(image, sizeof(image));
			for (size_t i = 0; i < sizeof(image); i += 4)
				store32(image + i, 0x1000u * (uint32_t)i);
			struct table t = { .len = 0 };
			put_byte(&t, kinds[k]);
			put_uleb(&t, 16);
			put_uleb(&t, 8); /* the first field's offset */
			for (size_t i = 1; i < 16; i++)
				put_byte(&t, i == bad ? (uint8_t)(kinds[k] == RELOC_ADD64 ? 7 : 3)
						      : 16);
			apply_expect(image, sizeof(image), &t, 0x1000, KS_EFORMAT);
			/* a two-byte gap there, its first byte just past the one-byte forms (129 =
			 * 0x81 0x01): taken, not misread as two */
			t.len = 0;
			put_byte(&t, kinds[k]);
			put_uleb(&t, 16);
			put_uleb(&t, 8);
			for (size_t i = 1; i < 16; i++) {
				if (i == bad) {
					put_byte(&t, 0x80 | 1);
					put_byte(&t, 1);
				} else {
					put_byte(&t, 16);
				}
			}
			apply_expect(image, sizeof(image), &t, 0x1000, KS_OK);
		}
	}
}

static void test_fields_overlapping_across_groups_change_nothing(void **state)
{
	(void)state;
	uint8_t image[IMAGE_SIZE];
	fill_pattern(image, sizeof(image));
	/* Found by tests/fuzz/fuzz_reloc.c: the same field in three groups passed the value check
	 * (0xb0000000 + 0x40000000 fits, seen on the original bytes three times), then overflowed
	 * on the second write and returned an error with the image half patched. */
	store32(image + 1, 0xb0000000);
	uint8_t same[] = { RELOC_ADD32, 1, 1, RELOC_ADD32, 1, 1, RELOC_ADD32, 1, 1 };
	assert_int_equal(reloc_validate(same, sizeof(same), IMAGE_SIZE, NULL), KS_EFORMAT);
	struct table t = { .len = sizeof(same) };
	memcpy(t.bytes, same, sizeof(same));
	apply_expect(image, sizeof(image), &t, 0x40000000, KS_EFORMAT);

	/* Different kinds overlap too: an ADD64 field covering an ADD32 one. */
	uint8_t mixed[] = { RELOC_ADD32, 2, 0, 16, RELOC_ADD64, 1, 12 };
	assert_int_equal(reloc_validate(mixed, sizeof(mixed), IMAGE_SIZE, NULL), KS_EFORMAT);
	uint8_t interleaved[] = { RELOC_ADD32, 2, 0, 16, RELOC_ADD64, 1, 4 };
	assert_int_equal(reloc_validate(interleaved, sizeof(interleaved), IMAGE_SIZE, NULL), KS_OK);
}

static void test_add32_that_would_wrap_overflows(void **state)
{
	(void)state;
	uint8_t image[IMAGE_SIZE];
	fill_pattern(image, sizeof(image));
	store32(image + 4, 0xfffff000);
	store32(image + 8, 0x00000800);
	struct table t = { .len = 0 };
	put_group(&t, RELOC_ADD32, (uint64_t[]){ 4 }, 1);
	apply_expect(image, sizeof(image), &t, 0x1000, KS_EOVERFLOW);
	apply_expect(image, sizeof(image), &t, 0xfff, KS_OK); /* lands on 0xffffffff exactly */
	assert_int_equal(load32(image + 4), 0xffffffff);

	t.len = 0;
	put_group(&t, RELOC_ADD32, (uint64_t[]){ 8 }, 1);
	apply_expect(image, sizeof(image), &t, -0x801, KS_EOVERFLOW); /* below zero */
	apply_expect(image, sizeof(image), &t, -0x800, KS_OK);
	assert_int_equal(load32(image + 8), 0);

	/* A delta of 2^32 or more can never fit, even for a zero field. */
	apply_expect(image, sizeof(image), &t, (int64_t)1 << 32, KS_EOVERFLOW);
	apply_expect(image, sizeof(image), &t, INT64_MAX, KS_EOVERFLOW);
	apply_expect(image, sizeof(image), &t, INT64_MIN, KS_EOVERFLOW);
	/* The 32-bit overflow check is reloc_apply's: validate only checks bounds. */
	assert_int_equal(reloc_validate(t.bytes, t.len, IMAGE_SIZE, NULL), KS_OK);
}

static void test_add32s_out_of_int32_range_overflows(void **state)
{
	(void)state;
	uint8_t image[IMAGE_SIZE];
	fill_pattern(image, sizeof(image));
	store32(image + 0, 0x7ffff000);
	store32(image + 4, 0x80000800); /* INT32_MIN + 0x800 */
	struct table t = { .len = 0 };
	put_group(&t, RELOC_ADD32S, (uint64_t[]){ 0 }, 1);
	apply_expect(image, sizeof(image), &t, 0x1000, KS_EOVERFLOW);
	apply_expect(image, sizeof(image), &t, 0xfff, KS_OK);
	assert_int_equal(load32(image), (uint32_t)INT32_MAX);

	t.len = 0;
	put_group(&t, RELOC_ADD32S, (uint64_t[]){ 4 }, 1);
	apply_expect(image, sizeof(image), &t, -0x801, KS_EOVERFLOW);
	apply_expect(image, sizeof(image), &t, -0x800, KS_OK);
	assert_int_equal(load32(image + 4), 0x80000000u);

	/* A 32S field crossing from -1 to 0 is fine; ADD32 would reject 0xffffffff + 1. */
	store32(image + 8, 0xffffffff);
	t.len = 0;
	put_group(&t, RELOC_ADD32S, (uint64_t[]){ 8 }, 1);
	apply_expect(image, sizeof(image), &t, 1, KS_OK);
	assert_int_equal(load32(image + 8), 0);

	/* The same at a group's later fields, which the stream's run judges by the addition's
	 * overflow (lib/reloc.c), each way. */
	const uint64_t eight[] = { 0, 4, 8, 12, 16, 20, 24, 28 };
	for (size_t i = 0; i < 8; i++)
		store32(image + eight[i], 0x1000u * (uint32_t)i);
	store32(image + 20, 0x7ffff800);
	t.len = 0;
	put_group(&t, RELOC_ADD32S, eight, 8);
	apply_expect(image, sizeof(image), &t, 0x800, KS_EOVERFLOW);
	store32(image + 20, 0x80000400); /* INT32_MIN + 0x400 */
	apply_expect(image, sizeof(image), &t, -0x401, KS_EOVERFLOW);
	apply_expect(image, sizeof(image), &t, -0x400, KS_OK);
	assert_int_equal(load32(image + 20), 0x80000000u);
}

/* Linux's inverse 32-bit class: a PC-relative field to something that stays put moves back. */
static void test_sub32s_subtracts_the_slide(void **state)
{
	(void)state;
	uint8_t image[IMAGE_SIZE];
	fill_pattern(image, sizeof(image));
	store32(image + 4, 0x00001000);
	store32(image + 12, 0xfffff000); /* -0x1000 */
	struct table t = { .len = 0 };
	put_group(&t, RELOC_SUB32S, (uint64_t[]){ 4, 12 }, 2);
	apply_expect(image, sizeof(image), &t, 0x3000, KS_OK);
	assert_int_equal(load32(image + 4), (uint32_t)-0x2000);
	assert_int_equal(load32(image + 12), (uint32_t)-0x4000);
	apply_expect(image, sizeof(image), &t, -0x5000, KS_OK);
	assert_int_equal(load32(image + 4), 0x3000);
	assert_int_equal(load32(image + 12), 0x1000);
}

static void test_sub32s_out_of_int32_range_overflows(void **state)
{
	(void)state;
	uint8_t image[IMAGE_SIZE];
	fill_pattern(image, sizeof(image));
	store32(image + 0, 0x80000800); /* INT32_MIN + 0x800 */
	store32(image + 8, 0x7ffff800); /* INT32_MAX - 0x7ff */
	struct table t = { .len = 0 };
	put_group(&t, RELOC_SUB32S, (uint64_t[]){ 0 }, 1);
	apply_expect(image, sizeof(image), &t, 0x801, KS_EOVERFLOW);
	apply_expect(image, sizeof(image), &t, 0x800, KS_OK);
	assert_int_equal(load32(image), 0x80000000u);

	t.len = 0;
	put_group(&t, RELOC_SUB32S, (uint64_t[]){ 8 }, 1);
	apply_expect(image, sizeof(image), &t, -0x800, KS_EOVERFLOW);
	apply_expect(image, sizeof(image), &t, -0x7ff, KS_OK);
	assert_int_equal(load32(image + 8), (uint32_t)INT32_MAX);
	/* Negating the most negative slide must not wrap into a small one. */
	apply_expect(image, sizeof(image), &t, INT64_MIN, KS_EOVERFLOW);
	apply_expect(image, sizeof(image), &t, (int64_t)1 << 32, KS_EOVERFLOW);
}

static void test_put_uleb128_encodings(void **state)
{
	(void)state;
	uint8_t out[16];
	assert_int_equal(reloc_put_uleb128(out, sizeof(out), 0), 1);
	assert_int_equal(out[0], 0);
	assert_int_equal(reloc_put_uleb128(out, sizeof(out), 127), 1);
	assert_int_equal(out[0], 127);
	assert_int_equal(reloc_put_uleb128(out, sizeof(out), 128), 2);
	assert_int_equal(out[0], 0x80);
	assert_int_equal(out[1], 0x01);
	assert_int_equal(reloc_put_uleb128(out, sizeof(out), 624485), 3); /* Wikipedia example */
	assert_memory_equal(out, ((uint8_t[]){ 0xe5, 0x8e, 0x26 }), 3);
	assert_int_equal(reloc_put_uleb128(out, sizeof(out), UINT64_MAX), 10);
	assert_int_equal(out[9], 0x01);
	/* Too small a buffer: 0, nothing useful written. */
	assert_int_equal(reloc_put_uleb128(out, 2, 1u << 14), 0);
	assert_int_equal(reloc_put_uleb128(out, 0, 0), 0);
	assert_int_equal(reloc_put_uleb128(out, 9, UINT64_MAX), 0);
}

/* Larger than reloc_move's block, so a late failure has patched earlier blocks. */
#define MOVE_IMAGE_SIZE (64u << 10)

static void test_move_zero_fills_past_file_size_and_relocates_there(void **state)
{
	(void)state;
	uint8_t src[IMAGE_SIZE], dst[IMAGE_SIZE];
	fill_pattern(src, sizeof(src));
	memset(dst, 0xee, sizeof(dst));
	store32(src + 4, 0x1000);
	struct table t = { .len = 0 };
	put_group(&t, RELOC_ADD32, (uint64_t[]){ 4, 40 }, 2); /* 40 lies in the zeroed part */

	assert_int_equal(reloc_move(dst, src, 32, sizeof(dst), t.bytes, t.len, 0x100, NULL), KS_OK);
	assert_int_equal(load32(dst + 4), 0x1100);
	assert_int_equal(load32(dst + 40), 0x100);
	assert_memory_equal(dst, src, 4);
	assert_memory_equal(dst + 8, src + 8, 32 - 8);
	for (size_t i = 32; i < sizeof(dst); i++)
		if (i < 40 || i >= 44)
			assert_int_equal(dst[i], 0);
}

static void test_move_failing_in_a_late_block_leaves_the_plain_copy(void **state)
{
	(void)state;
	uint8_t *src = malloc(MOVE_IMAGE_SIZE), *dst = malloc(MOVE_IMAGE_SIZE);
	uint64_t *offsets = malloc(MOVE_IMAGE_SIZE / 64 * sizeof(*offsets));
	assert_non_null(src);
	assert_non_null(dst);
	assert_non_null(offsets);
	fill_pattern(src, MOVE_IMAGE_SIZE);
	size_t n = MOVE_IMAGE_SIZE / 64;
	for (size_t i = 0; i < n; i++) {
		offsets[i] = i * 64 + 3;
		store32(src + offsets[i], 0x100000);
	}
	store32(src + offsets[n - 1], 0xfffff000); /* the last field cannot take the delta */
	struct table t = { .len = 0 };
	put_group(&t, RELOC_ADD32, offsets, n);

	memset(dst, 0xee, MOVE_IMAGE_SIZE);
	assert_int_equal(reloc_move(dst, src, MOVE_IMAGE_SIZE, MOVE_IMAGE_SIZE, t.bytes, t.len,
				    0x10000, NULL),
			 KS_EOVERFLOW);
	assert_memory_equal(dst, src, MOVE_IMAGE_SIZE);
	/* Without the bad field every one moves. */
	store32(src + offsets[n - 1], 0x100000);
	assert_int_equal(reloc_move(dst, src, MOVE_IMAGE_SIZE, MOVE_IMAGE_SIZE, t.bytes, t.len,
				    0x10000, NULL),
			 KS_OK);
	for (size_t i = 0; i < n; i++)
		assert_int_equal(load32(dst + offsets[i]), 0x110000);
	free(offsets);
	free(dst);
	free(src);
}

static void test_move_of_a_field_past_the_image_leaves_the_plain_copy(void **state)
{
	(void)state;
	uint8_t src[IMAGE_SIZE], dst[IMAGE_SIZE];
	fill_pattern(src, sizeof(src));
	memset(dst, 0xee, sizeof(dst));
	struct table t = { .len = 0 };
	put_group(&t, RELOC_ADD32, (uint64_t[]){ 0, IMAGE_SIZE - 3 }, 2);

	assert_int_equal(reloc_move(dst, src, 48, sizeof(dst), t.bytes, t.len, 1, NULL), KS_ERANGE);
	assert_memory_equal(dst, src, 48);
	for (size_t i = 48; i < sizeof(dst); i++)
		assert_int_equal(dst[i], 0);
}

static void test_move_with_file_size_above_size_is_invalid(void **state)
{
	(void)state;
	uint8_t src[IMAGE_SIZE] = { 0 }, dst[IMAGE_SIZE];
	assert_int_equal(reloc_move(dst, src, sizeof(dst) + 1, sizeof(dst), NULL, 0, 0, NULL), KS_EINVAL);
	assert_int_equal(reloc_move(NULL, src, 0, 1, NULL, 0, 0, NULL), KS_EINVAL);
	assert_int_equal(reloc_move(dst, NULL, 1, 1, NULL, 0, 0, NULL), KS_EINVAL);
	assert_int_equal(reloc_move(dst, src, 0, 0, NULL, 1, 0, NULL), KS_EINVAL);
	assert_int_equal(reloc_move(NULL, NULL, 0, 0, NULL, 0, 0, NULL), KS_OK);
}

/*
 * The stub's copy runs ahead of the stream (reloc_move, the decoders): the bytes past the limit
 * are not there yet, and a field patched before it is whole would be overwritten when they
 * come. Fields one after another at the longest one-byte gap (127) and at two-byte gaps, each
 * width, patched while the image arrives in pieces of every size from 1 to 300 bytes: each
 * must end up patched exactly once.
 */
static void test_stream_patches_no_field_before_its_bytes_arrive(void **state)
{
	(void)state;
	enum { ARRIVE_SIZE = 48 * 1024, FIELDS = 60 };
	static uint8_t src[ARRIVE_SIZE], want[ARRIVE_SIZE], dst[ARRIVE_SIZE];
	static struct table t;
	t.len = 0;
	uint64_t offsets[3][FIELDS];
	const uint8_t kinds[3] = { RELOC_ADD32S, RELOC_ADD64, RELOC_SUB32S };
	uint64_t at = 0;
	for (int k = 0; k < 3; k++) {
		for (size_t i = 0; i < FIELDS; i++) {
			/* mostly the longest one-byte gap, every fifth a two-byte one */
			at += i % 5 == 4 ? 130 + 17 * i : 127;
			offsets[k][i] = at;
		}
		put_group(&t, kinds[k], offsets[k], FIELDS);
		at += 8;
	}
	assert_true(at < ARRIVE_SIZE);
	fill_pattern(src, sizeof(src));
	for (int k = 0; k < 3; k++)
		for (size_t i = 0; i < FIELDS; i++)
			if (kinds[k] != RELOC_ADD64)
				store32(src + offsets[k][i], 0x100000u * (uint32_t)i);
	const int64_t delta = 0x123000;
	memcpy(want, src, sizeof(want));
	assert_int_equal(reloc_apply(want, sizeof(want), t.bytes, t.len, delta), KS_OK);
	for (size_t piece = 1; piece <= 300; piece += piece < 20 ? 1 : 23) {
		memset(dst, 0xee, sizeof(dst));
		struct reloc_stream s;
		reloc_stream_init(&s, dst, sizeof(dst), t.bytes, t.len, delta);
		for (size_t done = 0; done < sizeof(dst);) {
			size_t n = sizeof(dst) - done < piece ? sizeof(dst) - done : piece;
			memcpy(dst + done, src + done, n);
			done += n;
			assert_int_equal(reloc_stream_patch(&s, done), KS_OK);
		}
		assert_memory_equal(dst, want, sizeof(dst));
	}
}

/* xorshift64*: deterministic test randomness. */
static uint64_t next_random(uint64_t *s)
{
	*s ^= *s >> 12;
	*s ^= *s << 25;
	*s ^= *s >> 27;
	return *s * 0x2545F4914F6CDD1Dull;
}

#define MANY_RELOCS 100000
#define MANY_IMAGE_SIZE (8u << 20)

/* Reference: the obvious per-field update, with no checks (inputs are chosen to fit). */
static void reference_apply(uint8_t *image, const uint64_t *offsets, const uint8_t *kinds,
			    size_t n, int64_t delta)
{
	for (size_t i = 0; i < n; i++) {
		uint8_t *p = image + offsets[i];
		if (kinds[i] == RELOC_ADD64)
			store64(p, load64(p) + (uint64_t)delta);
		else if (kinds[i] == RELOC_SUB32S)
			store32(p, (uint32_t)(load32(p) - (uint32_t)delta));
		else
			store32(p, (uint32_t)(load32(p) + (uint32_t)delta));
	}
}

static int compare_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
	return (x > y) - (x < y);
}

static void test_many_random_relocations_match_reference(void **state)
{
	(void)state;
	uint64_t seed = 0x6b736c6964650001ull;
	/* Random slots of 8 bytes; each slot holds at most one field, so fields never overlap. */
	uint64_t *offsets = malloc(MANY_RELOCS * sizeof(*offsets));
	uint8_t *kinds = malloc(MANY_RELOCS);
	uint8_t *image = malloc(MANY_IMAGE_SIZE);
	uint8_t *expect = malloc(MANY_IMAGE_SIZE);
	uint8_t *table = malloc(MANY_RELOCS * 12 + 64);
	assert_non_null(offsets);
	assert_non_null(kinds);
	assert_non_null(image);
	assert_non_null(expect);
	assert_non_null(table);

	uint64_t slots = MANY_IMAGE_SIZE / 8;
	for (size_t i = 0; i < MANY_RELOCS; i++)
		offsets[i] = next_random(&seed) % slots;
	qsort(offsets, MANY_RELOCS, sizeof(*offsets), compare_u64);
	size_t n = 0;
	for (size_t i = 0; i < MANY_RELOCS; i++)
		if (n == 0 || offsets[i] != offsets[n - 1])
			offsets[n++] = offsets[i];
	assert_true(n > MANY_RELOCS / 2);

	/* Field values small enough that a delta of +-16 MiB fits every kind. */
	for (size_t i = 0; i < MANY_IMAGE_SIZE; i++)
		image[i] = (uint8_t)next_random(&seed);
	uint64_t per_kind[RELOC_KIND_LAST + 1] = { 0 };
	for (size_t i = 0; i < n; i++) {
		kinds[i] = (uint8_t)(RELOC_ADD32 + next_random(&seed) % RELOC_KIND_LAST);
		per_kind[kinds[i]]++;
		offsets[i] = offsets[i] * 8 + next_random(&seed) % 5; /* unaligned when it can be */
		if (kinds[i] == RELOC_ADD64)
			offsets[i] = offsets[i] / 8 * 8; /* an 8-byte field must fit in its slot */
		if (kinds[i] != RELOC_ADD64)
			store32(image + offsets[i], 0x40000000u + (uint32_t)(next_random(&seed) >> 40));
	}

	/* One group per kind, in the order the packer would emit them. */
	size_t len = 0;
	for (uint8_t kind = RELOC_ADD32; kind <= RELOC_KIND_LAST; kind++) {
		table[len++] = kind;
		len += reloc_put_uleb128(table + len, 10, per_kind[kind]);
		uint64_t prev = 0;
		for (size_t i = 0; i < n; i++) {
			if (kinds[i] != kind)
				continue;
			len += reloc_put_uleb128(table + len, 10, offsets[i] - prev);
			prev = offsets[i];
		}
	}

	struct reloc_summary s;
	assert_int_equal(reloc_validate(table, len, MANY_IMAGE_SIZE, &s), KS_OK);
	assert_int_equal(s.total, n);
	for (int k = RELOC_ADD32; k <= RELOC_KIND_LAST; k++)
		assert_int_equal(s.count[k], per_kind[k]);

	/* The same fields as the packer writes them: a group per run of one kind, in image order. */
	uint8_t *runs = malloc(MANY_RELOCS * 22 + 64);
	assert_non_null(runs);
	size_t runs_len = 0;
	for (size_t i = 0, j; i < n; i = j) {
		for (j = i + 1; j < n && kinds[j] == kinds[i];)
			j++;
		runs[runs_len++] = kinds[i];
		runs_len += reloc_put_uleb128(runs + runs_len, 10, j - i);
		for (size_t k = i; k < j; k++)
			runs_len += reloc_put_uleb128(runs + runs_len, 10,
						      offsets[k] - (k > i ? offsets[k - 1] : 0));
	}
	assert_int_equal(reloc_validate(runs, runs_len, MANY_IMAGE_SIZE, &s), KS_OK);
	assert_int_equal(s.total, n);

	uint8_t *moved = malloc(MANY_IMAGE_SIZE);
	assert_non_null(moved);
	const int64_t deltas[] = { 0x1000000, -0xfff000, 0x2000 };
	for (size_t d = 0; d < sizeof(deltas) / sizeof(deltas[0]); d++) {
		memcpy(expect, image, MANY_IMAGE_SIZE);
		reference_apply(expect, offsets, kinds, n, deltas[d]);
		assert_int_equal(reloc_move(moved, image, MANY_IMAGE_SIZE, MANY_IMAGE_SIZE, runs,
					    runs_len, deltas[d], NULL),
				 KS_OK);
		assert_memory_equal(moved, expect, MANY_IMAGE_SIZE);
		assert_int_equal(reloc_move(moved, image, MANY_IMAGE_SIZE, MANY_IMAGE_SIZE, table,
					    len, deltas[d], NULL),
				 KS_OK);
		assert_memory_equal(moved, expect, MANY_IMAGE_SIZE);
		assert_int_equal(reloc_apply(image, MANY_IMAGE_SIZE, table, len, deltas[d]), KS_OK);
		assert_memory_equal(image, expect, MANY_IMAGE_SIZE);
	}
	free(moved);
	free(runs);

	free(table);
	free(expect);
	free(image);
	free(kinds);
	free(offsets);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_add32_round_trip_at_unaligned_offset),
		cmocka_unit_test(test_add32s_round_trip_negative_field),
		cmocka_unit_test(test_add64_round_trip_and_wraps),
		cmocka_unit_test(test_negative_delta_moves_down),
		cmocka_unit_test(test_several_groups_of_same_kind),
		cmocka_unit_test(test_empty_table_is_ok),
		cmocka_unit_test(test_field_ending_exactly_at_image_end_is_ok),
		cmocka_unit_test(test_field_straddling_end_is_out_of_range),
		cmocka_unit_test(test_offset_that_wraps_is_out_of_range),
		cmocka_unit_test(test_bad_last_entry_changes_nothing),
		cmocka_unit_test(test_truncated_uleb_is_format_error),
		cmocka_unit_test(test_overlong_uleb_is_format_error),
		cmocka_unit_test(test_unknown_kind_is_invalid),
		cmocka_unit_test(test_duplicate_offset_is_format_error),
		cmocka_unit_test(test_overlapping_fields_in_group_are_format_error),
		cmocka_unit_test(test_fields_overlapping_across_groups_change_nothing),
		cmocka_unit_test(test_add32_that_would_wrap_overflows),
		cmocka_unit_test(test_add32s_out_of_int32_range_overflows),
		cmocka_unit_test(test_sub32s_subtracts_the_slide),
		cmocka_unit_test(test_sub32s_out_of_int32_range_overflows),
		cmocka_unit_test(test_put_uleb128_encodings),
		cmocka_unit_test(test_many_random_relocations_match_reference),
		cmocka_unit_test(test_move_zero_fills_past_file_size_and_relocates_there),
		cmocka_unit_test(test_move_failing_in_a_late_block_leaves_the_plain_copy),
		cmocka_unit_test(test_move_of_a_field_past_the_image_leaves_the_plain_copy),
		cmocka_unit_test(test_move_with_file_size_above_size_is_invalid),
		cmocka_unit_test(test_stream_patches_a_field_once_it_lies_wholly_below_the_limit),
		cmocka_unit_test(test_stream_stops_at_a_group_out_of_image_order_before_touching_it),
		cmocka_unit_test(test_stream_failure_keeps_the_fields_before_it_and_sticks),
		cmocka_unit_test(test_stream_patches_no_field_before_its_bytes_arrive),
		cmocka_unit_test(test_a_bad_gap_amid_a_word_of_short_gaps_is_seen),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
