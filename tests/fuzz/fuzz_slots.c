/*
 * libFuzzer target: lib/slots.c slot_map_build and slot_map_address on arbitrary requests. The
 * input is
 *
 *   | size: u64 | align_shift: u8 | min: u64 | max_last: u64 | usable_count: u8 | index: u64 |
 *   | ranges: (start: u64, length: u64) ... |
 *
 * all little-endian; the first usable_count % (MAX_RANGES + 1) ranges are usable, the rest
 * (up to MAX_RANGES) avoided. Every address handed out must be aligned, inside [min,
 * max_last - size + 1], inside usable memory, clear of every avoided range, and ascend with
 * the index. Requests inside the first ORACLE_SPACE bytes are also counted by brute force.
 */
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "lib/errors.h"
#include "lib/slots.h"

#define MAX_RANGES 32
#define ORACLE_SPACE 4096 /* addresses the brute-force count covers */
#define ALIGN_SHIFTS 64

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

struct input {
	const uint8_t *p;
	size_t left;
};

static uint64_t take(struct input *in, unsigned bytes)
{
	uint64_t v = 0;
	for (unsigned i = 0; i < bytes; i++) {
		uint64_t b = 0;
		if (in->left) {
			b = *in->p++;
			in->left--;
		}
		v |= b << (8 * i);
	}
	return v;
}

/* Last byte of a range as slots.h defines it: clipped to 2^64 - 1. Length must be nonzero. */
static uint64_t range_last(const struct mem_range *r)
{
	return r->length - 1 > UINT64_MAX - r->start ? UINT64_MAX : r->start + (r->length - 1);
}

static bool covers(const struct mem_range *r, uint64_t first, uint64_t last)
{
	return r->length && r->start <= first && last <= range_last(r);
}

static bool overlaps(const struct mem_range *r, uint64_t first, uint64_t last)
{
	return r->length && r->start <= last && first <= range_last(r);
}

static void check_slot(const struct slot_request *req, const struct slot_map *map, uint64_t addr)
{
	uint64_t last = addr + (req->image_size - 1);
	if (addr % req->align || addr < req->min || req->max_last < req->image_size - 1 ||
	    addr > req->max_last - (req->image_size - 1))
		abort();
	bool in_free = false;
	for (size_t i = 0; i < map->free_count; i++)
		in_free |= map->free[i].first <= addr && last <= map->free[i].last;
	if (!in_free)
		abort();
	bool first_usable = false, last_usable = false;
	for (size_t i = 0; i < req->usable_count; i++) {
		first_usable |= covers(&req->usable[i], addr, addr);
		last_usable |= covers(&req->usable[i], last, last);
	}
	if (!first_usable || !last_usable)
		abort();
	for (size_t i = 0; i < req->avoid_count; i++)
		if (overlaps(&req->avoid[i], addr, last))
			abort();
}

/* The free list is sorted, disjoint, non-touching and within [min, max_last]. */
static void check_free_list(const struct slot_request *req, const struct slot_map *map)
{
	for (size_t i = 0; i < map->free_count; i++) {
		const struct span *s = &map->free[i];
		if (s->first > s->last || s->first < req->min || s->last > req->max_last)
			abort();
		if (i > 0 && (map->free[i - 1].last == UINT64_MAX ||
			      map->free[i - 1].last + 1 >= s->first))
			abort();
	}
}

/* Brute force over [0, ORACLE_SPACE): the i-th aligned start whose bytes are all free. */
static void check_oracle(const struct slot_request *req, const struct slot_map *map)
{
	static bool free_byte[ORACLE_SPACE];
	static uint32_t run[ORACLE_SPACE + 1]; /* free bytes in a row ending before each address */
	for (uint64_t a = 0; a < ORACLE_SPACE; a++) {
		bool usable = false, avoided = false;
		for (size_t i = 0; i < req->usable_count; i++)
			usable |= covers(&req->usable[i], a, a);
		for (size_t i = 0; i < req->avoid_count; i++)
			avoided |= covers(&req->avoid[i], a, a);
		free_byte[a] = usable && !avoided && a >= req->min && a <= req->max_last;
		run[a + 1] = free_byte[a] ? run[a] + 1 : 0;
	}
	uint64_t n = 0;
	for (uint64_t a = 0; a + req->image_size <= ORACLE_SPACE; a += req->align) {
		if (run[a + req->image_size] < req->image_size)
			continue;
		uint64_t got;
		if (slot_map_address(map, n, &got) != KS_OK || got != a)
			abort();
		n++;
	}
	if (n != map->total)
		abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct input in = { data, size };
	struct slot_request req = { 0 };
	req.image_size = take(&in, 8);
	req.align = (uint64_t)1 << (take(&in, 1) % ALIGN_SHIFTS);
	req.min = take(&in, 8);
	req.max_last = take(&in, 8);
	size_t usable_count = take(&in, 1) % (MAX_RANGES + 1);
	uint64_t index = take(&in, 8);

	struct mem_range ranges[2 * MAX_RANGES];
	size_t n = 0;
	while (in.left && n < usable_count + MAX_RANGES) {
		ranges[n].start = take(&in, 8);
		ranges[n].length = take(&in, 8);
		n++;
	}
	req.usable = ranges;
	req.usable_count = n < usable_count ? n : usable_count;
	req.avoid = ranges + req.usable_count;
	req.avoid_count = n - req.usable_count;

	/* Exactly the documented work size on the heap, so ASan catches any overrun. */
	size_t work_cap = SLOT_WORK_SPANS(req.usable_count, req.avoid_count);
	struct span *work = malloc(work_cap * sizeof(*work));
	if (!work)
		abort();
	struct slot_map map;
	int rc = slot_map_build(&map, &req, work, work_cap);
	if (rc == KS_OK) {
		check_free_list(&req, &map);
		uint64_t sample[] = { 0, 1, map.total / 2, index % (map.total ? map.total : 1),
				      map.total - 2, map.total - 1 };
		size_t count = sizeof(sample) / sizeof(sample[0]);
		/* Sort the sampled indices (tiny insertion sort) to compare their addresses. */
		for (size_t i = 1; i < count; i++)
			for (size_t j = i; j > 0 && sample[j - 1] > sample[j]; j--) {
				uint64_t t = sample[j];
				sample[j] = sample[j - 1];
				sample[j - 1] = t;
			}
		bool have_prev = false;
		uint64_t prev_index = 0, prev_addr = 0;
		for (size_t i = 0; i < count; i++) {
			uint64_t addr;
			if (sample[i] >= map.total) {
				if (slot_map_address(&map, sample[i], &addr) != KS_ERANGE)
					abort();
				continue;
			}
			if (slot_map_address(&map, sample[i], &addr) != KS_OK)
				abort();
			check_slot(&req, &map, addr);
			if (have_prev && sample[i] != prev_index && addr <= prev_addr)
				abort(); /* addresses must ascend with the index */
			have_prev = true;
			prev_index = sample[i];
			prev_addr = addr;
		}
		if (req.max_last < ORACLE_SPACE)
			check_oracle(&req, &map);
	} else if (rc != KS_EINVAL && rc != KS_EOVERFLOW) {
		abort(); /* the work table was sized as documented: KS_ENOSPC is a bug */
	}
	free(work);
	return 0;
}
