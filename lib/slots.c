/*
 * Slot search: turn the usable and avoided ranges into a sorted free list, then count and
 * index the aligned image starts in it. Only shifts and compares, so i386 needs no libgcc.
 */
#include "lib/slots.h"
#include "lib/errors.h"

#include <stdbool.h>

/*
 * Layout of the caller's work table while building (u, a: usable and avoid counts after
 * merging, never more than the request's counts):
 *
 *   work  [ usable spans (u) | avoid spans (a) | free spans (<= u + a) ... ]
 *
 * Each avoid span splits at most one usable span into two, so the free list needs u + a
 * entries and the whole table 2 * (u + a), within SLOT_WORK_SPANS.
 */

static bool is_pow2(uint64_t v)
{
	return v != 0 && (v & (v - 1)) == 0;
}

/* log2 of a power of two, by loop: __builtin_ctzll may call __ctzdi2 on i386. */
static unsigned int log2_pow2(uint64_t v)
{
	unsigned int shift = 0;

	while (v > 1) {
		v >>= 1;
		shift++;
	}
	return shift;
}

/*
 * Convert [start, start + length) to the inclusive span it covers. A length reaching past
 * 2^64 ends the span at UINT64_MAX. Returns false for an empty range.
 */
static bool range_to_span(const struct mem_range *r, struct span *out)
{
	if (r->length == 0)
		return false;
	out->first = r->start;
	if (r->length - 1 > UINT64_MAX - r->start)
		out->last = UINT64_MAX;
	else
		out->last = r->start + (r->length - 1);
	return true;
}

static bool span_less(const struct span *a, const struct span *b)
{
	return a->first < b->first || (a->first == b->first && a->last < b->last);
}

static void span_swap(struct span *a, struct span *b)
{
	struct span t = *a;
	*a = *b;
	*b = t;
}

/* Restore the max-heap property below root in s[0, count). */
static void sift_down(struct span *s, size_t root, size_t count)
{
	for (;;) {
		size_t child = 2 * root + 1;
		if (child >= count)
			return;
		if (child + 1 < count && span_less(&s[child], &s[child + 1]))
			child++;
		if (!span_less(&s[root], &s[child]))
			return;
		span_swap(&s[root], &s[child]);
		root = child;
	}
}

/* Heap sort by first address: in place, O(n log n), no recursion (the stub's stack is small). */
static void sort_spans(struct span *s, size_t count)
{
	if (count < 2)
		return;
	for (size_t i = count / 2; i-- > 0;)
		sift_down(s, i, count);
	for (size_t end = count - 1; end > 0; end--) {
		span_swap(&s[0], &s[end]);
		sift_down(s, 0, end);
	}
}

/*
 * Merge sorted spans that overlap or touch, in place; returns the new count. Touching spans
 * merge too: RAM described by two adjacent entries is contiguous, so an image may straddle them.
 */
static size_t merge_spans(struct span *s, size_t count)
{
	if (count == 0)
		return 0;
	size_t out = 0;
	for (size_t i = 1; i < count; i++) {
		struct span *cur = &s[out];
		/* cur->last == UINT64_MAX already reaches the top; everything after lies inside. */
		if (cur->last == UINT64_MAX || s[i].first <= cur->last + 1) {
			if (s[i].last > cur->last)
				cur->last = s[i].last;
		} else {
			s[++out] = s[i];
		}
	}
	return out + 1;
}

/*
 * Copy the non-empty ranges into dst as spans clipped to [lo, hi], then sort and merge them.
 * Returns the number of spans written (at most count).
 */
static size_t load_spans(struct span *dst, const struct mem_range *ranges, size_t count,
			 uint64_t lo, uint64_t hi)
{
	size_t n = 0;

	for (size_t i = 0; i < count; i++) {
		struct span s;
		if (!range_to_span(&ranges[i], &s) || s.last < lo || s.first > hi)
			continue;
		dst[n].first = s.first < lo ? lo : s.first;
		dst[n].last = s.last > hi ? hi : s.last;
		n++;
	}
	sort_spans(dst, n);
	return merge_spans(dst, n);
}

/*
 * Write usable minus avoid into out; both inputs sorted, disjoint and non-touching. Returns the
 * count, at most usable_count + avoid_count. An avoid span reaching past one usable span is kept
 * for the next, which it may also cover.
 */
static size_t subtract_spans(struct span *out, const struct span *usable, size_t usable_count,
			     const struct span *avoid, size_t avoid_count)
{
	size_t n = 0;
	size_t j = 0;

	for (size_t i = 0; i < usable_count; i++) {
		uint64_t pos = usable[i].first;
		uint64_t last = usable[i].last;
		bool covered = false;

		while (j < avoid_count && avoid[j].last < pos)
			j++;
		for (; j < avoid_count && avoid[j].first <= last; j++) {
			if (avoid[j].first > pos)
				out[n++] = (struct span){ pos, avoid[j].first - 1 };
			if (avoid[j].last >= last) {
				covered = true;
				break;
			}
			pos = avoid[j].last + 1; /* < last, so no wrap */
		}
		if (!covered)
			out[n++] = (struct span){ pos, last };
	}
	return n;
}

/*
 * Number of starts p in free span s with p aligned to 1 << shift and [p, p + size - 1] inside s.
 * The count can be 2^64 (a one-byte image anywhere in the full address space), which does not
 * fit: then *count is left alone and false is returned.
 *
 *   s         [first ........................................ last]
 *   starts     ^a0      ^a1      ^a2  ...  ^ak   (ak <= last - size + 1)
 */
static bool span_slots(const struct span *s, uint64_t size, unsigned int shift, uint64_t *count)
{
	uint64_t mask = ((uint64_t)1 << shift) - 1;

	/* last - first + 1 may wrap for the full space; compare against size - 1 instead. */
	if (s->last - s->first < size - 1 || s->first > UINT64_MAX - mask) {
		*count = 0;
		return true;
	}
	uint64_t first = (s->first + mask) & ~mask;
	uint64_t last_start = (s->last - (size - 1)) & ~mask;
	if (first > last_start) {
		*count = 0;
		return true;
	}
	uint64_t steps = (last_start - first) >> shift;
	if (steps == UINT64_MAX)
		return false;
	*count = steps + 1;
	return true;
}

/* Work entries needed, or SIZE_MAX when SLOT_WORK_SPANS itself would overflow. */
static size_t work_needed(size_t usable_count, size_t avoid_count)
{
	if (usable_count > (SIZE_MAX - 1) / 4 || avoid_count > (SIZE_MAX - 1) / 4)
		return SIZE_MAX;
	return SLOT_WORK_SPANS(usable_count, avoid_count);
}

int slot_map_build(struct slot_map *map, const struct slot_request *req, struct span *work,
		   size_t work_cap)
{
	/* An empty map on every failure, so a careless caller finds no slots rather than junk. */
	*map = (struct slot_map){ .free = work, .free_count = 0, .image_size = req->image_size,
				  .align = req->align, .total = 0 };

	if (req->image_size == 0 || !is_pow2(req->align) || req->min > req->max_last)
		return KS_EINVAL;
	if (work_cap < work_needed(req->usable_count, req->avoid_count))
		return KS_ENOSPC;

	size_t u = load_spans(work, req->usable, req->usable_count, req->min, req->max_last);
	/* Avoided bytes outside the bounds cannot matter; clipping keeps the sweep short. */
	size_t a = load_spans(work + u, req->avoid, req->avoid_count, req->min, req->max_last);
	struct span *free_list = work + u + a;
	size_t free_count = subtract_spans(free_list, work, u, work + u, a);

	unsigned int shift = log2_pow2(req->align);
	uint64_t total = 0;
	for (size_t i = 0; i < free_count; i++) {
		uint64_t count;
		if (!span_slots(&free_list[i], req->image_size, shift, &count) ||
		    count > UINT64_MAX - total)
			return KS_EOVERFLOW;
		total += count;
	}

	map->free = free_list;
	map->free_count = free_count;
	map->total = total;
	return KS_OK;
}

/*
 * Slots are numbered in ascending address order across the free list; index picks one.
 * Every span's count fitted when the map was built, so the walk cannot overflow.
 */
int slot_map_address(const struct slot_map *map, uint64_t index, uint64_t *address)
{
	if (index >= map->total)
		return KS_ERANGE;

	unsigned int shift = log2_pow2(map->align);
	uint64_t mask = map->align - 1;
	for (size_t i = 0; i < map->free_count; i++) {
		uint64_t count = 0;
		/* A span too big to count holds 2^64 slots, more than any index. */
		bool huge = !span_slots(&map->free[i], map->image_size, shift, &count);
		if (huge || index < count) {
			*address = ((map->free[i].first + mask) & ~mask) + (index << shift);
			return KS_OK;
		}
		index -= count;
	}
	return KS_ERANGE; /* unreachable for a map slot_map_build() filled */
}

int slot_map_index_of(const struct slot_map *map, uint64_t address, uint64_t *index)
{
	unsigned int shift = log2_pow2(map->align);
	uint64_t mask = map->align - 1, before = 0;
	if (address & mask)
		return KS_ENOENT;
	for (size_t i = 0; i < map->free_count; i++) {
		const struct span *s = &map->free[i];
		uint64_t count = 0;
		bool huge = !span_slots(s, map->image_size, shift, &count);
		if (!huge && count == 0)
			continue;
		uint64_t first = (s->first + mask) & ~mask;
		/* The span's last start: the image's last byte at most s->last. */
		if (address >= first && address <= s->last && s->last - address >= map->image_size - 1) {
			*index = before + ((address - first) >> shift);
			return KS_OK;
		}
		before += count;
	}
	return KS_ENOENT;
}
