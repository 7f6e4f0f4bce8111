/*
 * Slot maps: hand-worked examples that read as the specification, then a property test
 * against a brute-force byte map on thousands of random layouts.
 */
#include <inttypes.h>
#include <stdbool.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include <cmocka.h>

#include "lib/errors.h"
#include "lib/slots.h"

#define KiB ((uint64_t)1 << 10)
#define MiB ((uint64_t)1 << 20)
#define PAGE (4 * KiB)
#define TOP_BIT ((uint64_t)1 << 63)
/* The last N bytes of the address space start here (wraps to 2^64 - N). */
#define TOP(n) ((uint64_t)0 - (n))

#define MAX_RANGES 8
#define WORK_CAP SLOT_WORK_SPANS(MAX_RANGES, MAX_RANGES)

struct example {
	const char *name;
	struct mem_range usable[MAX_RANGES];
	size_t usable_count;
	struct mem_range avoid[MAX_RANGES];
	size_t avoid_count;
	uint64_t image_size;
	uint64_t align;
	uint64_t min;
	uint64_t max_last;
	int status;
	uint64_t total;
	uint64_t first_slot; /* address of slot 0, when total > 0 */
	uint64_t last_slot;  /* address of slot total - 1 */
};

#define R(start, length) { (start), (length) }
#define ANY 0, UINT64_MAX /* min and max_last that clip nothing */

static const struct example examples[] = {
	{ "single range: 64 KiB holds a 16 KiB image at 13 page starts",
	  { R(PAGE, 64 * KiB) }, 1, { { 0 } }, 0, 16 * KiB, PAGE, ANY,
	  KS_OK, 13, PAGE, PAGE + 48 * KiB },
	{ "image exactly fits its range",
	  { R(2 * PAGE, 3 * PAGE) }, 1, { { 0 } }, 0, 3 * PAGE, PAGE, ANY,
	  KS_OK, 1, 2 * PAGE, 2 * PAGE },
	{ "image one byte larger than its range has no slot",
	  { R(2 * PAGE, 3 * PAGE) }, 1, { { 0 } }, 0, 3 * PAGE + 1, PAGE, ANY,
	  KS_OK, 0, 0, 0 },
	{ "avoid at the start moves the first slot up",
	  { R(0, 16 * PAGE) }, 1, { R(0, PAGE) }, 1, PAGE, PAGE, ANY,
	  KS_OK, 15, PAGE, 15 * PAGE },
	{ "avoid in the middle splits the range: 7 slots below, 6 above",
	  { R(0, 16 * PAGE) }, 1, { R(8 * PAGE, PAGE) }, 1, 2 * PAGE, PAGE, ANY,
	  KS_OK, 13, 0, 14 * PAGE },
	{ "avoid at the end moves the last slot down",
	  { R(0, 16 * PAGE) }, 1, { R(15 * PAGE, PAGE) }, 1, PAGE, PAGE, ANY,
	  KS_OK, 15, 0, 14 * PAGE },
	{ "one avoided byte costs the whole page that holds it",
	  { R(0, 4 * PAGE) }, 1, { R(2 * PAGE - 1, 1) }, 1, PAGE, PAGE, ANY,
	  KS_OK, 3, 0, 3 * PAGE },
	{ "avoid covering two usable ranges and the gap removes both",
	  { R(0, PAGE), R(2 * PAGE, PAGE), R(4 * PAGE, PAGE) }, 3, { R(0, 4 * PAGE) }, 1,
	  PAGE, PAGE, ANY, KS_OK, 1, 4 * PAGE, 4 * PAGE },
	{ "overlapping avoids act as their union",
	  { R(0, 8 * PAGE) }, 1, { R(PAGE, 3 * PAGE), R(2 * PAGE, 3 * PAGE) }, 2, PAGE, PAGE, ANY,
	  KS_OK, 4, 0, 7 * PAGE },
	{ "touching usable ranges merge: an image may straddle them",
	  { R(PAGE, PAGE), R(0, PAGE) }, 2, { { 0 } }, 0, 2 * PAGE, PAGE, ANY,
	  KS_OK, 1, 0, 0 },
	{ "usable ranges one byte apart do not merge",
	  { R(0, PAGE), R(PAGE + 1, PAGE) }, 2, { { 0 } }, 0, 2 * PAGE, 1, ANY,
	  KS_OK, 0, 0, 0 },
	{ "overlapping usable ranges count once",
	  { R(0, 3 * PAGE), R(2 * PAGE, 3 * PAGE), R(PAGE, PAGE) }, 3, { { 0 } }, 0,
	  2 * PAGE, PAGE, ANY, KS_OK, 4, 0, 3 * PAGE },
	{ "unsorted usable ranges give ascending slots",
	  { R(8 * PAGE, PAGE), R(0, PAGE), R(4 * PAGE, PAGE) }, 3, { { 0 } }, 0, PAGE, PAGE, ANY,
	  KS_OK, 3, 0, 8 * PAGE },
	{ "zero-length ranges are ignored, usable and avoid alike",
	  { R(PAGE, 0), R(4 * PAGE, 2 * PAGE), R(6 * PAGE, 0) }, 3, { R(5 * PAGE, 0) }, 1,
	  PAGE, PAGE, ANY, KS_OK, 2, 4 * PAGE, 5 * PAGE },
	{ "range ending exactly at 2^64",
	  { R(TOP(4 * PAGE), 4 * PAGE) }, 1, { { 0 } }, 0, PAGE, PAGE, ANY,
	  KS_OK, 4, TOP(4 * PAGE), TOP(PAGE) },
	{ "length past 2^64 is clipped to end at 2^64",
	  { R(TOP(4 * PAGE), UINT64_MAX) }, 1, { { 0 } }, 0, PAGE, PAGE, ANY,
	  KS_OK, 4, TOP(4 * PAGE), TOP(PAGE) },
	{ "avoid running past 2^64 is clipped too",
	  { R(TOP(4 * PAGE), 4 * PAGE) }, 1, { R(TOP(PAGE), 2 * PAGE) }, 1, PAGE, PAGE, ANY,
	  KS_OK, 3, TOP(4 * PAGE), TOP(2 * PAGE) },
	{ "min and max_last bound the image's first and last byte",
	  { R(0, 16 * PAGE) }, 1, { { 0 } }, 0, 2 * PAGE, PAGE, 3 * PAGE, 9 * PAGE - 1,
	  KS_OK, 5, 3 * PAGE, 7 * PAGE },
	{ "unaligned min rounds the first slot up",
	  { R(0, 16 * PAGE) }, 1, { { 0 } }, 0, 2 * PAGE, PAGE, 3 * PAGE + 1, 9 * PAGE - 1,
	  KS_OK, 4, 4 * PAGE, 7 * PAGE },
	{ "max_last one byte short of a fit drops that slot",
	  { R(0, 16 * PAGE) }, 1, { { 0 } }, 0, 2 * PAGE, PAGE, 0, 9 * PAGE - 2,
	  KS_OK, 7, 0, 6 * PAGE },
	{ "min equal to max_last allows a one-byte image there",
	  { R(0, 16 * PAGE) }, 1, { { 0 } }, 0, 1, 1, 5, 5, KS_OK, 1, 5, 5 },
	{ "4 KiB alignment inside an unaligned range",
	  { R(PAGE + PAGE / 2, 4 * PAGE) }, 1, { { 0 } }, 0, PAGE, PAGE, ANY,
	  KS_OK, 3, 2 * PAGE, 4 * PAGE },
	{ "2 MiB alignment: 2 MiB image in [1 MiB, 9 MiB) starts at 2, 4 and 6 MiB",
	  { R(1 * MiB, 8 * MiB) }, 1, { { 0 } }, 0, 2 * MiB, 2 * MiB, ANY,
	  KS_OK, 3, 2 * MiB, 6 * MiB },
	{ "image larger than all RAM together has no slot",
	  { R(0, 1 * MiB), R(2 * MiB, 1 * MiB) }, 2, { { 0 } }, 0, 3 * MiB / 2, PAGE, ANY,
	  KS_OK, 0, 0, 0 },
	{ "no usable ranges, no slots",
	  { { 0 } }, 0, { R(0, PAGE) }, 1, PAGE, PAGE, ANY, KS_OK, 0, 0, 0 },
	{ "alignment so large that no aligned start lies in the range",
	  { R(PAGE, 16 * PAGE) }, 1, { { 0 } }, 0, PAGE, TOP_BIT, ANY, KS_OK, 0, 0, 0 },
	{ "whole address space, alignment 2^63: slots at 0 and 2^63",
	  { R(0, UINT64_MAX), R(UINT64_MAX, 1) }, 2, { { 0 } }, 0, 1, TOP_BIT, ANY,
	  KS_OK, 2, 0, TOP_BIT },
	{ "whole address space, 2-byte image: 2^64 - 1 slots still fit the count",
	  { R(0, UINT64_MAX), R(UINT64_MAX, 1) }, 2, { { 0 } }, 0, 2, 1, ANY,
	  KS_OK, UINT64_MAX, 0, UINT64_MAX - 1 },
	{ "whole address space, 1-byte image: 2^64 slots overflow the count",
	  { R(0, UINT64_MAX), R(UINT64_MAX, 1) }, 2, { { 0 } }, 0, 1, 1, ANY,
	  KS_EOVERFLOW, 0, 0, 0 },
	{ "whole space but one byte, 1-byte image: 2^64 - 1 slots, the last at the top byte",
	  { R(0, TOP_BIT), R(TOP_BIT, TOP_BIT) }, 2, { R(TOP_BIT, 1) }, 1, 1, 1, ANY,
	  KS_OK, UINT64_MAX, 0, UINT64_MAX },
	{ "image size zero is invalid",
	  { R(0, PAGE) }, 1, { { 0 } }, 0, 0, PAGE, ANY, KS_EINVAL, 0, 0, 0 },
	{ "alignment zero is invalid",
	  { R(0, PAGE) }, 1, { { 0 } }, 0, PAGE, 0, ANY, KS_EINVAL, 0, 0, 0 },
	{ "alignment not a power of two is invalid",
	  { R(0, PAGE) }, 1, { { 0 } }, 0, PAGE, 3 * KiB, ANY, KS_EINVAL, 0, 0, 0 },
	{ "min above max_last is invalid",
	  { R(0, PAGE) }, 1, { { 0 } }, 0, 1, 1, 2, 1, KS_EINVAL, 0, 0, 0 },
};

static int build(struct slot_map *map, const struct example *e, struct span *work, size_t cap)
{
	const struct slot_request req = {
		.usable = e->usable,
		.usable_count = e->usable_count,
		.avoid = e->avoid,
		.avoid_count = e->avoid_count,
		.image_size = e->image_size,
		.align = e->align,
		.min = e->min,
		.max_last = e->max_last,
	};
	return slot_map_build(map, &req, work, cap);
}

/* Name the failing example before cmocka reports the values. */
#define EXPECT_EQ(e, actual, expected)                                                             \
	do {                                                                                      \
		if ((uint64_t)(actual) != (uint64_t)(expected))                                   \
			print_error("example: %s\n", (e)->name);                                  \
		assert_int_equal((actual), (expected));                                           \
	} while (0)

static void hand_examples_match_their_worked_answers(void **state)
{
	(void)state;

	for (size_t i = 0; i < sizeof(examples) / sizeof(examples[0]); i++) {
		const struct example *e = &examples[i];
		struct span work[WORK_CAP];
		struct slot_map map;
		uint64_t address = 0;

		EXPECT_EQ(e, build(&map, e, work, WORK_CAP), e->status);
		if (e->status != KS_OK) {
			EXPECT_EQ(e, map.total, 0);
			continue;
		}
		EXPECT_EQ(e, map.total, e->total);
		if (e->total == 0) {
			EXPECT_EQ(e, slot_map_address(&map, 0, &address), KS_ERANGE);
			continue;
		}
		EXPECT_EQ(e, slot_map_address(&map, 0, &address), KS_OK);
		EXPECT_EQ(e, address, e->first_slot);
		EXPECT_EQ(e, slot_map_address(&map, e->total - 1, &address), KS_OK);
		EXPECT_EQ(e, address, e->last_slot);
		if (e->total < UINT64_MAX)
			EXPECT_EQ(e, slot_map_address(&map, e->total, &address), KS_ERANGE);
	}
}

static void full_space_with_max_index_has_no_slot_past_it(void **state)
{
	(void)state;
	const struct example *e = NULL;
	struct span work[WORK_CAP];
	struct slot_map map;
	uint64_t address = 0;

	/* The 2^64 - 1 slot map: index UINT64_MAX is the first one past the end. */
	for (size_t i = 0; i < sizeof(examples) / sizeof(examples[0]); i++)
		if (examples[i].status == KS_OK && examples[i].total == UINT64_MAX &&
		    examples[i].image_size == 2)
			e = &examples[i];
	assert_non_null(e);
	assert_int_equal(build(&map, e, work, WORK_CAP), KS_OK);
	assert_int_equal(slot_map_address(&map, UINT64_MAX, &address), KS_ERANGE);
}

/* The free list lands in work, sorted, disjoint and clipped to [min, max_last]. */
static void free_list_is_usable_minus_avoid_clipped_to_bounds(void **state)
{
	(void)state;
	const struct mem_range usable[] = { R(0x9000, 0x4000), R(0x1000, 0x6000),
					    R(0x7000, 0x1000) };
	const struct mem_range avoid[] = { R(0x3000, 0x1000), R(0xa000, 0x800) };
	const struct slot_request req = { .usable = usable, .usable_count = 3, .avoid = avoid,
					  .avoid_count = 2, .image_size = 1, .align = 1,
					  .min = 0x2000, .max_last = 0xbfff };
	struct span work[SLOT_WORK_SPANS(3, 2)];
	struct slot_map map;

	assert_int_equal(slot_map_build(&map, &req, work, SLOT_WORK_SPANS(3, 2)), KS_OK);
	assert_true(map.free >= work && map.free + map.free_count <= work + SLOT_WORK_SPANS(3, 2));
	/* [0x1000, 0x7fff] + [0x9000, 0xcfff], minus the avoids, within [0x2000, 0xbfff]. */
	const struct span expect[] = { { 0x2000, 0x2fff }, { 0x4000, 0x7fff }, { 0x9000, 0x9fff },
				       { 0xa800, 0xbfff } };
	assert_int_equal(map.free_count, 4);
	for (size_t i = 0; i < 4; i++) {
		assert_int_equal(map.free[i].first, expect[i].first);
		assert_int_equal(map.free[i].last, expect[i].last);
	}
	assert_int_equal(map.total, 0x1000 + 0x4000 + 0x1000 + 0x1800);
}

static void work_one_entry_short_is_enospc(void **state)
{
	(void)state;
	const struct mem_range usable[] = { R(0, 16 * PAGE), R(32 * PAGE, PAGE) };
	const struct mem_range avoid[] = { R(PAGE, PAGE) };
	const struct slot_request req = { .usable = usable, .usable_count = 2, .avoid = avoid,
					  .avoid_count = 1, .image_size = PAGE, .align = PAGE,
					  .min = 0, .max_last = UINT64_MAX };
	struct span work[SLOT_WORK_SPANS(2, 1)];
	struct slot_map map;

	assert_int_equal(slot_map_build(&map, &req, work, SLOT_WORK_SPANS(2, 1) - 1), KS_ENOSPC);
	assert_int_equal(map.total, 0);
	assert_int_equal(slot_map_build(&map, &req, work, SLOT_WORK_SPANS(2, 1)), KS_OK);
	assert_int_equal(map.total, 16); /* 1 below the hole, 14 above, 1 far up */
}

/* Every index names a distinct aligned start, ascending, where the image avoids the hole. */
static void addresses_ascend_and_avoid_the_hole(void **state)
{
	(void)state;
	const struct mem_range usable[] = { R(0, 64 * PAGE) };
	const struct mem_range avoid[] = { R(20 * PAGE + 5, 3 * PAGE) };
	const struct slot_request req = { .usable = usable, .usable_count = 1, .avoid = avoid,
					  .avoid_count = 1, .image_size = 3 * PAGE, .align = PAGE,
					  .min = PAGE, .max_last = 60 * PAGE - 1 };
	struct span work[SLOT_WORK_SPANS(1, 1)];
	struct slot_map map;
	uint64_t previous = 0;

	assert_int_equal(slot_map_build(&map, &req, work, SLOT_WORK_SPANS(1, 1)), KS_OK);
	/* [PAGE, 20 PAGE + 4] takes starts 1..17 pages; [23 PAGE + 5, 60 PAGE) takes 24..57. */
	assert_int_equal(map.total, 17 + 34);
	for (uint64_t i = 0; i < map.total; i++) {
		uint64_t a;
		assert_int_equal(slot_map_address(&map, i, &a), KS_OK);
		if (i > 0)
			assert_true(a > previous);
		assert_int_equal(a & (PAGE - 1), 0);
		assert_true(a + 3 * PAGE <= 20 * PAGE + 5 || a >= 23 * PAGE + 5);
		previous = a;
	}
	assert_int_equal(slot_map_address(&map, map.total, &previous), KS_ERANGE);
}

/* slot_map_index_of is slot_map_address's inverse, and says KS_ENOENT where no slot starts. */
static void index_of_names_the_slot_at_an_address(void **state)
{
	(void)state;
	const struct mem_range usable[] = { R(0, 64 * PAGE) };
	const struct mem_range avoid[] = { R(20 * PAGE + 5, 3 * PAGE) };
	const struct slot_request req = { .usable = usable, .usable_count = 1, .avoid = avoid,
					  .avoid_count = 1, .image_size = 3 * PAGE, .align = PAGE,
					  .min = PAGE, .max_last = 60 * PAGE - 1 };
	struct span work[SLOT_WORK_SPANS(1, 1)];
	struct slot_map map;
	uint64_t index = 99;

	assert_int_equal(slot_map_build(&map, &req, work, SLOT_WORK_SPANS(1, 1)), KS_OK);
	assert_int_equal(slot_map_index_of(&map, PAGE, &index), KS_OK);
	assert_int_equal(index, 0);
	assert_int_equal(slot_map_index_of(&map, 17 * PAGE, &index), KS_OK); /* last below */
	assert_int_equal(index, 16);
	assert_int_equal(slot_map_index_of(&map, 24 * PAGE, &index), KS_OK); /* first above */
	assert_int_equal(index, 17);
	assert_int_equal(slot_map_index_of(&map, 57 * PAGE, &index), KS_OK); /* the last */
	assert_int_equal(index, map.total - 1);
	index = 99;
	assert_int_equal(slot_map_index_of(&map, 0, &index), KS_ENOENT);	       /* below min */
	assert_int_equal(slot_map_index_of(&map, 18 * PAGE, &index), KS_ENOENT);  /* on the hole */
	assert_int_equal(slot_map_index_of(&map, 23 * PAGE, &index), KS_ENOENT);  /* its end */
	assert_int_equal(slot_map_index_of(&map, 58 * PAGE, &index), KS_ENOENT);  /* past max */
	assert_int_equal(slot_map_index_of(&map, 30 * PAGE + 8, &index), KS_ENOENT); /* unaligned */
	assert_int_equal(index, 99);
}

/* ---- Property test: slot_map_build against a byte-by-byte reference ---- */

#define CELLS 4096 /* universe size in cells; a cell is 'scale' bytes */
#define ROUNDS 4000
#define DEFAULT_SEED 0x6b736c6964650001ull

/* splitmix64: small, and any 64-bit seed is fine. */
static uint64_t rng_next(uint64_t *s)
{
	uint64_t z = (*s += 0x9e3779b97f4a7c15ull);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

/* Uniform enough in [0, n) for test data; n > 0. */
static uint64_t rng_below(uint64_t *s, uint64_t n)
{
	return rng_next(s) % n;
}

/*
 * One random layout. Addresses are base + cell * scale; base is a multiple of scale, so an
 * address is aligned to align_cells * scale exactly when base / scale + cell is a multiple of
 * align_cells. Ranges are whole cells, except that a length may run past the universe (and
 * past 2^64), which both sides clip.
 */
struct layout {
	uint64_t scale; /* power of two */
	uint64_t base;
	struct mem_range usable[8];
	size_t usable_count;
	struct mem_range avoid[6];
	size_t avoid_count;
	uint64_t size_cells, align_cells, min_cell, max_cell;
};

static struct mem_range random_range(uint64_t *s, const struct layout *l,
				     const struct mem_range *prev)
{
	uint64_t start, cells;

	/* Touching the previous range tests merging; plain random starts rarely touch. */
	if (prev != NULL && prev->length != UINT64_MAX && rng_below(s, 4) == 0)
		start = (prev->start - l->base) / l->scale + prev->length / l->scale;
	else
		start = rng_below(s, CELLS);
	if (start >= CELLS)
		start = rng_below(s, CELLS);
	switch (rng_below(s, 8)) {
	case 0:
		cells = 0;
		break;
	case 1:
		return (struct mem_range){ l->base + start * l->scale, UINT64_MAX };
	case 2:
		cells = rng_below(s, 2 * CELLS); /* often past the universe's end */
		break;
	default:
		cells = rng_below(s, CELLS / 4);
		break;
	}
	return (struct mem_range){ l->base + start * l->scale, cells * l->scale };
}

static void random_layout(uint64_t *s, struct layout *l)
{
	unsigned int scale_log = (unsigned int)rng_below(s, 4) == 0 ? (unsigned int)rng_below(s, 40)
								    : 0;
	l->scale = (uint64_t)1 << scale_log;
	uint64_t top_cell = (UINT64_MAX >> scale_log) + 1 - CELLS; /* base cell ending at 2^64 */
	switch (rng_below(s, 3)) {
	case 0:
		l->base = 0;
		break;
	case 1:
		l->base = top_cell * l->scale;
		break;
	default:
		l->base = rng_below(s, top_cell) * l->scale;
		break;
	}
	l->usable_count = (size_t)rng_below(s, 9);
	for (size_t i = 0; i < l->usable_count; i++)
		l->usable[i] = random_range(s, l, i ? &l->usable[i - 1] : NULL);
	l->avoid_count = (size_t)rng_below(s, 7);
	for (size_t i = 0; i < l->avoid_count; i++)
		l->avoid[i] = random_range(s, l, NULL);
	for (size_t i = 0; i < l->avoid_count; i++)
		if (l->avoid[i].length == UINT64_MAX && rng_below(s, 2))
			l->avoid[i].length = 0; /* avoiding up to the top leaves too little */
	l->size_cells = rng_below(s, 8) == 0 ? 1 + rng_below(s, CELLS) : 1 + rng_below(s, 64);
	l->align_cells = (uint64_t)1 << rng_below(s, 7);
	if (rng_below(s, 2)) {
		l->min_cell = 0;
		l->max_cell = CELLS - 1;
	} else {
		l->min_cell = rng_below(s, CELLS);
		l->max_cell = l->min_cell + rng_below(s, CELLS - l->min_cell);
	}
}

/* Mark [start, start + length) in cells, clipped to the universe (and so to 2^64). */
static void mark(uint8_t *cells, const struct layout *l, const struct mem_range *r)
{
	uint64_t first = (r->start - l->base) / l->scale;
	uint64_t count = r->length / l->scale;

	if (r->length == UINT64_MAX || count > CELLS - first)
		count = CELLS - first;
	for (uint64_t c = first; c < first + count; c++)
		cells[c] = 1;
}

/* Ascending cell numbers of every slot, by checking each candidate start; returns the count. */
static size_t brute_force(const struct layout *l, uint64_t *slots)
{
	uint8_t usable[CELLS] = { 0 }, avoided[CELLS] = { 0 };
	uint32_t good_before[CELLS + 1]; /* usable and not avoided cells below each index */
	size_t n = 0;

	for (size_t i = 0; i < l->usable_count; i++)
		mark(usable, l, &l->usable[i]);
	for (size_t i = 0; i < l->avoid_count; i++)
		mark(avoided, l, &l->avoid[i]);
	good_before[0] = 0;
	for (size_t c = 0; c < CELLS; c++)
		good_before[c + 1] = good_before[c] + (usable[c] && !avoided[c]);

	uint64_t base_cell = l->base / l->scale;
	for (uint64_t c = l->min_cell; c + l->size_cells - 1 <= l->max_cell; c++) {
		if (((base_cell + c) & (l->align_cells - 1)) != 0)
			continue;
		if (good_before[c + l->size_cells] - good_before[c] == l->size_cells)
			slots[n++] = c;
	}
	return n;
}

static uint64_t property_seed(void)
{
	const char *env = getenv("SLOTS_SEED");

	return env != NULL ? strtoull(env, NULL, 0) : DEFAULT_SEED;
}

static void report(uint64_t seed, int round, const char *what)
{
	print_error("slots property test failed (%s) in round %d; "
		    "reproduce with SLOTS_SEED=0x%" PRIx64 "\n",
		    what, round, seed);
}

static void slot_map_agrees_with_brute_force_on_random_layouts(void **state)
{
	(void)state;
	uint64_t seed = property_seed();
	uint64_t rng = seed;
	static uint64_t slots[CELLS];
	uint64_t nonempty = 0;

	for (int round = 0; round < ROUNDS; round++) {
		struct layout l;
		random_layout(&rng, &l);

		const struct slot_request req = {
			.usable = l.usable,
			.usable_count = l.usable_count,
			.avoid = l.avoid,
			.avoid_count = l.avoid_count,
			.image_size = l.size_cells * l.scale,
			.align = l.align_cells * l.scale,
			.min = l.base + l.min_cell * l.scale,
			.max_last = l.base + (l.max_cell + 1) * l.scale - 1,
		};
		struct span work[SLOT_WORK_SPANS(8, 6)];
		struct slot_map map;
		size_t expect = brute_force(&l, slots);

		size_t cap = SLOT_WORK_SPANS(l.usable_count, l.avoid_count);
		if (slot_map_build(&map, &req, work, cap) != KS_OK) {
			report(seed, round, "build failed");
			fail();
		}
		if (map.total != expect) {
			report(seed, round, "slot count");
			assert_int_equal(map.total, expect);
		}
		for (size_t i = 0; i < expect; i++) {
			uint64_t address = 0;
			if (slot_map_address(&map, i, &address) != KS_OK ||
			    address != l.base + slots[i] * l.scale) {
				report(seed, round, "slot address");
				assert_int_equal(address, l.base + slots[i] * l.scale);
				fail();
			}
		}
		uint64_t address;
		if (slot_map_address(&map, expect, &address) != KS_ERANGE) {
			report(seed, round, "index past the end");
			fail();
		}
		/* The inverse: every cell start is slot i exactly when brute force lists it i-th;
		 * an address one byte past a start never is (unless cells are one byte). */
		size_t next = 0;
		for (uint64_t c = 0; c < CELLS; c++) {
			uint64_t index = UINT64_MAX;
			int rc = slot_map_index_of(&map, l.base + c * l.scale, &index);
			bool listed = next < expect && slots[next] == c;
			if (rc != (listed ? KS_OK : KS_ENOENT) || (listed && index != next)) {
				report(seed, round, "slot index of an address");
				fail();
			}
			next += listed;
			if (l.scale > 1 &&
			    slot_map_index_of(&map, l.base + c * l.scale + 1, &index) != KS_ENOENT) {
				report(seed, round, "an unaligned address is a slot");
				fail();
			}
		}
		nonempty += expect > 0;
	}
	/* Guard the generator: most layouts should have some slots, some none. */
	assert_true(nonempty > ROUNDS / 4);
	assert_true(nonempty < ROUNDS);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(hand_examples_match_their_worked_answers),
		cmocka_unit_test(full_space_with_max_index_has_no_slot_past_it),
		cmocka_unit_test(free_list_is_usable_minus_avoid_clipped_to_bounds),
		cmocka_unit_test(work_one_entry_short_is_enospc),
		cmocka_unit_test(addresses_ascend_and_avoid_the_hole),
		cmocka_unit_test(index_of_names_the_slot_at_an_address),
		cmocka_unit_test(slot_map_agrees_with_brute_force_on_random_layouts),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
