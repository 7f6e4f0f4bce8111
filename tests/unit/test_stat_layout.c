/* Unit tests for tools/stat/layout.c: the slot recount and slot indexes. */
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "tools/stat/layout.h"

#define MIB 0x100000ull
#define GIB (1024 * MIB)

static struct kslide_image_header i386_header(void)
{
	struct kslide_image_header h;
	memset(&h, 0, sizeof(h));
	h.payload_mem_size = 954368; /* the reference kernel: 0.91 MiB */
	h.memory_size = h.payload_mem_size; /* what slots are sized by */
	h.align = 2 * MIB;
	h.phys_min = 16 * MIB;
	h.phys_max = 896 * MIB - 1;
	return h;
}

/* QEMU -m 1G: RAM to 0x3ffe0000, beyond the 896 MiB bound: (894 - 16) / 2 + 1 slots. */
static void qemu_1g_map_gives_440_slots(void **state)
{
	(void)state;
	struct kslide_image_header h = i386_header();
	struct mem_span map[] = {{0, 0x9fc00}, {MIB, 0x3ffe0000}};
	struct slot_set set;
	layout_phys_from_map(&h, map, 2, NULL, 0, &set);
	assert_int_equal(set.total, 440);
	assert_int_equal(set.spans, 1);
	assert_int_equal(set.first[0], 16 * MIB);
}

/* -m 128M: RAM to 0x7fe0000; the last base leaves room for 0.91 MiB: 126 MiB. */
static void qemu_128m_map_gives_56_slots(void **state)
{
	(void)state;
	struct kslide_image_header h = i386_header();
	struct mem_span map[] = {{0, 0x9fc00}, {MIB, 0x7fe0000}};
	struct slot_set set;
	layout_phys_from_map(&h, map, 2, NULL, 0, &set);
	assert_int_equal(set.total, 56);
}

/* Two RAM ranges out of order: spans come back in address order and indexes run across. */
static void hole_splits_the_slots_and_indexes_skip_it(void **state)
{
	(void)state;
	struct kslide_image_header h = i386_header();
	struct mem_span map[] = {{64 * MIB, 70 * MIB}, {16 * MIB, 21 * MIB}};
	struct slot_set set;
	layout_phys_from_map(&h, map, 2, NULL, 0, &set);
	/* 16, 18, 20 (its kernel ends at 20.91 MiB, inside 21) and 64, 66, 68 */
	assert_int_equal(set.spans, 2);
	assert_int_equal(set.first[0], 16 * MIB);
	assert_int_equal(set.count[0], 3);
	assert_int_equal(set.first[1], 64 * MIB);
	assert_int_equal(set.count[1], 3);
	assert_int_equal(layout_index(&set, 16 * MIB), 0);
	assert_int_equal(layout_index(&set, 20 * MIB), 2);
	assert_int_equal(layout_index(&set, 64 * MIB), 3);
	assert_int_equal(layout_index(&set, 68 * MIB), 5);
	assert_int_equal(layout_index(&set, 22 * MIB), -1); /* in the hole */
	assert_int_equal(layout_index(&set, 17 * MIB), -1); /* misaligned */
	assert_int_equal(layout_index(&set, 70 * MIB), -1); /* past the end */
}

/* x86-64 images may allow the whole address space: no overflow at the top. */
static void bound_at_the_last_address_does_not_overflow(void **state)
{
	(void)state;
	struct kslide_image_header h = i386_header();
	h.phys_max = UINT64_MAX;
	struct mem_span map[] = {{16 * MIB, 20 * MIB}};
	struct slot_set set;
	layout_phys_from_map(&h, map, 1, NULL, 0, &set);
	assert_int_equal(set.total, 2); /* 16 and 18 */
}

static void too_small_ranges_give_no_slot(void **state)
{
	(void)state;
	struct kslide_image_header h = i386_header();
	struct mem_span map[] = {{0, 0x9fc00}, {16 * MIB, 16 * MIB + 954367}};
	struct slot_set set;
	layout_phys_from_map(&h, map, 2, NULL, 0, &set);
	assert_int_equal(set.total, 0);
	map[1].end++; /* now exactly the kernel's size */
	layout_phys_from_map(&h, map, 2, NULL, 0, &set);
	assert_int_equal(set.total, 1);
}

static void contiguous_and_shifted_sets(void **state)
{
	(void)state;
	struct slot_set a, b;
	uint64_t lo, hi;
	layout_contiguous(16 * MIB + 1, 2 * MIB, 4, &a);
	assert_int_equal(a.first[0], 18 * MIB);
	layout_shift(&a, 0xc0000000u, &b);
	assert_int_equal(layout_index(&b, 0xc0000000u + 24 * MIB), 3);
	assert_int_equal(layout_index(&b, 0xc0000000u + 26 * MIB), -1);
	layout_range(&a, MIB, &lo, &hi);
	assert_int_equal(lo, 18 * MIB);
	assert_int_equal(hi, 25 * MIB);
}

/* What the loader placed is cut out of the map: a hole in the middle, or either end. */
static void subtract_cuts_avoided_spans_out(void **state)
{
	(void)state;
	struct mem_span map[] = {{MIB, 64 * MIB}, {128 * MIB, 256 * MIB}};
	struct mem_span avoid[] = {{16 * MIB, 20 * MIB}, {0, 2 * MIB}, {250 * MIB, GIB}};
	struct mem_span out[8];
	size_t n = layout_subtract(map, 2, avoid, 3, out, 8);
	assert_int_equal(n, 3);
	assert_int_equal(out[0].start, 2 * MIB);
	assert_int_equal(out[0].end, 16 * MIB);
	assert_int_equal(out[1].start, 20 * MIB);
	assert_int_equal(out[1].end, 64 * MIB);
	assert_int_equal(out[2].start, 128 * MIB);
	assert_int_equal(out[2].end, 250 * MIB);
	assert_int_equal(layout_subtract(map, 2, avoid, 3, out, 1), 1); /* at most cap */
}

/* A 46 MiB packed image loaded at 1 MiB covers the first slots: the recount skips them as the
 * stub does (the uncompressed cloud-amd64 image). */
static void slots_under_the_packed_image_are_not_counted(void **state)
{
	(void)state;
	struct kslide_image_header h = i386_header();
	struct mem_span map[] = {{MIB, 0x3ffe0000}};
	struct mem_span image = {MIB, MIB + 48598428};
	struct slot_set set;
	layout_phys_from_map(&h, map, 1, &image, 1, &set);
	assert_int_equal(set.first[0], 48 * MIB); /* the image ends at 47.35 MiB */
	assert_int_equal(set.total, 440 - 16);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(qemu_1g_map_gives_440_slots),
		cmocka_unit_test(qemu_128m_map_gives_56_slots),
		cmocka_unit_test(hole_splits_the_slots_and_indexes_skip_it),
		cmocka_unit_test(bound_at_the_last_address_does_not_overflow),
		cmocka_unit_test(too_small_ranges_give_no_slot),
		cmocka_unit_test(contiguous_and_shifted_sets),
		cmocka_unit_test(subtract_cuts_avoided_spans_out),
		cmocka_unit_test(slots_under_the_packed_image_are_not_counted),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
