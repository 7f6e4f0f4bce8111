/*
 * Slot search: every aligned address at which an image of a given size fits wholly inside
 * usable RAM, touches no avoided range and lies within [min, max]. Counting is O(n log n) in
 * the number of ranges; nothing is allocated, the caller lends a work table.
 *
 *   usable   |=======|   |==============|      |=====|
 *   avoid          |--|        |---|
 *   free     |====|      |====|   |=====|      |=====|     (usable minus avoid, clipped)
 *   slots    ^  ^         ^  ^      ^  ^        ^  ^        (aligned starts where size fits)
 */
#ifndef KSLIDE_LIB_SLOTS_H
#define KSLIDE_LIB_SLOTS_H

#include <stddef.h>
#include <stdint.h>

/*
 * [start, start + length). A length reaching past 2^64 is clipped to end at 2^64, so a range
 * may end exactly at the top of the address space. Zero-length ranges are ignored.
 */
struct mem_range {
	uint64_t start;
	uint64_t length;
};

/* Inclusive interval [first, last]; used internally and for results. */
struct span {
	uint64_t first;
	uint64_t last;
};

struct slot_request {
	const struct mem_range *usable; /* any order, may overlap or touch */
	size_t usable_count;
	const struct mem_range *avoid; /* any order, may overlap */
	size_t avoid_count;
	uint64_t image_size; /* bytes, >= 1 */
	uint64_t align;      /* power of two, >= 1 */
	uint64_t min;        /* lowest allowed start */
	uint64_t max_last;   /* highest allowed address of the image's last byte (inclusive) */
};

struct slot_map {
	struct span *free; /* usable minus avoided, sorted, disjoint, clipped to bounds */
	size_t free_count;
	uint64_t image_size;
	uint64_t align;
	uint64_t total; /* number of slots */
};

/* Work table entries slot_map_build() needs for a request. */
#define SLOT_WORK_SPANS(usable_count, avoid_count) (2 * ((usable_count) + (avoid_count)) + 1)

/*
 * Build the free list for req into work (capacity work_cap spans) and count the slots.
 * Returns KS_OK, KS_EINVAL (bad size/alignment/bounds), KS_ENOSPC (work too small) or
 * KS_EOVERFLOW (more than 2^64 - 1 slots). map->free points into work.
 */
int slot_map_build(struct slot_map *map, const struct slot_request *req, struct span *work,
		   size_t work_cap);

/* Address of slot number index (0 <= index < map->total) in ascending order. KS_ERANGE past it. */
int slot_map_address(const struct slot_map *map, uint64_t index, uint64_t *address);

/*
 * The inverse: the number of the slot that starts at address, KS_ENOENT when no slot does
 * (unaligned, outside the bounds, or the image would not fit in free memory there).
 */
int slot_map_index_of(const struct slot_map *map, uint64_t address, uint64_t *index);

#endif
