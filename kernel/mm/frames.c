/* kernel/mm/frames.h: find the run once, then hand it out from the bottom. */
#include <stddef.h>

#include "kernel/layout.h"
#include "kernel/memory.h"
#include "kernel/mm/frames.h"
#include "lib/errors.h"
#include "lib/string.h"

#define RUN_BYTES ((uint64_t)FRAMES_PAGES * PAGE_SIZE)
#define RUN_ALIGN (2 * PAGE_SIZE) /* user spaces take their page-table roots in aligned pairs */

static uint64_t run_start, run_end, run_next;

static uint64_t align_up(uint64_t x, uint64_t a)
{
	return (x + a - 1) & ~(a - 1);
}

/* A range [lo, hi) to keep clear of; hi is 0 for nothing. */
struct keep {
	uint64_t lo, hi;
};

static uint64_t string_end(uint64_t phys)
{
	return phys ? phys + strlen(phys_to_virt(phys)) + 1 : 0;
}

/*
 * If [lo, hi) meets something the kernel must keep, the end of one such range (the search
 * resumes there); 0 when it meets nothing.
 */
static uint64_t blocked_until(const struct kslide_bootinfo *bi, uint64_t lo, uint64_t hi)
{
	const struct keep fixed[] = {
		{ bi->phys_base, bi->phys_base + bi->image_size },
		{ bi->bootinfo_start, bi->bootinfo_end },
		{ bi->handoff_start, bi->handoff_end },
		{ bi->cmdline, string_end(bi->cmdline) },
		{ bi->mmap, bi->mmap + bi->mmap_count * sizeof(struct kslide_mem_entry) },
		{ bi->modules, bi->modules + bi->module_count * sizeof(struct kslide_module) },
	};
	for (size_t i = 0; i < sizeof(fixed) / sizeof(fixed[0]); i++)
		if (fixed[i].lo < hi && lo < fixed[i].hi)
			return fixed[i].hi;
	const struct kslide_module *mods = phys_to_virt(bi->modules);
	for (uint32_t i = 0; i < bi->module_count; i++) {
		if (mods[i].start < hi && lo < mods[i].end)
			return mods[i].end;
		uint64_t s = mods[i].cmdline, e = string_end(s);
		if (s < hi && lo < e)
			return e;
	}
	/* A reserved entry wins over a usable one it overlaps, as in the stub. */
	const struct kslide_mem_entry *map = phys_to_virt(bi->mmap);
	for (uint32_t i = 0; i < bi->mmap_count; i++)
		if (map[i].type != KSLIDE_MEM_USABLE && map[i].base < hi &&
		    lo < map[i].base + map[i].length)
			return map[i].base + map[i].length;
	return 0;
}

/* A run of bytes, aligned to align, inside [min, max). */
struct want {
	uint64_t min, max, bytes, align;
};

/* The lowest fitting start inside one usable entry, or 0. */
static uint64_t lowest_in(const struct kslide_bootinfo *bi, const struct kslide_mem_entry *e,
			  const struct want *w)
{
	uint64_t end = e->base + e->length;
	if (end > w->max)
		end = w->max;
	uint64_t start = align_up(e->base > w->min ? e->base : w->min, w->align);
	while (start < end && end - start >= w->bytes) {
		uint64_t until = blocked_until(bi, start, start + w->bytes);
		if (until == 0)
			return start;
		start = align_up(until, w->align);
	}
	return 0;
}

static uint64_t lowest_free(const struct kslide_bootinfo *bi, const struct want *w)
{
	const struct kslide_mem_entry *map = phys_to_virt(bi->mmap);
	uint64_t best = 0;
	for (uint32_t i = 0; i < bi->mmap_count; i++) {
		if (map[i].type != KSLIDE_MEM_USABLE)
			continue;
		uint64_t start = lowest_in(bi, &map[i], w);
		if (start && (!best || start < best))
			best = start;
	}
	return best;
}

uint64_t frames_low_free(const struct kslide_bootinfo *bi, uint64_t min, uint64_t max,
			 size_t pages)
{
	const struct want w = { min, max, (uint64_t)pages * PAGE_SIZE, PAGE_SIZE };
	uint64_t start = lowest_free(bi, &w);
	/* Not the run itself, which the kernel holds from frames_init on. */
	if (start && start < run_end && run_start < start + w.bytes)
		return 0;
	return start;
}

int frames_init(const struct kslide_bootinfo *bi)
{
	const struct want w = { FRAMES_MIN, DIRECT_MAP_SPAN, RUN_BYTES, RUN_ALIGN };
	uint64_t best = lowest_free(bi, &w);
	if (!best)
		return KS_ENOENT;
	run_start = run_next = best;
	run_end = best + RUN_BYTES;
	return KS_OK;
}

void *frames_alloc(size_t pages, size_t align_pages)
{
	uint64_t start = align_up(run_next, (uint64_t)align_pages * PAGE_SIZE);
	uint64_t bytes = (uint64_t)pages * PAGE_SIZE;
	if (!run_start || start > run_end || run_end - start < bytes)
		return NULL;
	run_next = start + bytes;
	return memset(phys_to_virt(start), 0, (size_t)bytes);
}

void frames_range(uint64_t *start, uint64_t *end)
{
	*start = run_start;
	*end = run_end;
}
