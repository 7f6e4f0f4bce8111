/*
 * Selftest suite "paging" (x86-64): the kernel's own tables, checked by walking them as the
 * CPU does, against the stub's at entry and against the layout paging.c promises.
 */
#include <stdint.h>

#include "kernel/layout.h"
#include "kernel/memory.h"
#include "kernel/mm/walk.h"
#include "kernel/selftest/selftest.h"
#include "kernel/x86_64/paging.h"

extern char _kernel_end[];

static bool image_mapped_as_at_entry(const struct kslide_bootinfo *bi)
{
	uint64_t now = walk_virt_to_phys((uintptr_t)_start, DIRECT_MAP);
	if (now != start_phys_runtime())
		return check_fail("physical address of _start, own tables", now,
				  start_phys_runtime());
	uint64_t last = (uintptr_t)_kernel_end - 1;
	uint64_t want = bi->phys_base + (last - bi->virt_base);
	uint64_t got = walk_virt_to_phys(last, DIRECT_MAP);
	return got == want || check_fail("physical address of the image's last byte", got, want);
}

static bool lower_half_empty(const struct kslide_bootinfo *bi)
{
	/* Where the stub's one-to-one map was: the boot info, the stub, the kernel's frames. */
	uint64_t probes[] = { 0x100000, bi->phys_base, (uintptr_t)bi->bootinfo_start,
			      0x7ffffffff000ull };
	for (unsigned i = 0; i < sizeof(probes) / sizeof(probes[0]); i++) {
		uint64_t got = walk_virt_to_phys(probes[i], DIRECT_MAP);
		if (got != 0)
			return check_fail("lower-half address still mapped", probes[i], 0);
	}
	return true;
}

static bool direct_map_reaches_ram(const struct kslide_bootinfo *bi)
{
	/* The kernel's own first bytes, seen through the direct map. */
	const uint8_t *direct = phys_to_virt(bi->phys_base);
	const uint8_t *image = (const uint8_t *)_start - ((uintptr_t)_start - bi->virt_base);
	for (unsigned i = 0; i < 64; i++)
		if (direct[i] != image[i])
			return check_fail("byte through the direct map", direct[i], image[i]);
	uint64_t got = walk_virt_to_phys(DIRECT_MAP + bi->phys_base, DIRECT_MAP);
	return got == bi->phys_base || check_fail("direct map of phys_base", got, bi->phys_base);
}

/* Where paging_init drew it: in its window, on a GiB, the whole span inside; and nothing at
 * the fixed place it had before it was drawn (unless the draw fell there, once in 8129). */
static bool direct_map_at_its_drawn_base(const struct kslide_bootinfo *bi)
{
	(void)bi;
	if (DIRECT_MAP < DIRECT_MAP_WINDOW_START || DIRECT_MAP % DIRECT_MAP_ALIGN ||
	    DIRECT_MAP_WINDOW_END - DIRECT_MAP < DIRECT_MAP_SPAN)
		return check_fail("direct map's base in its window", DIRECT_MAP,
				  DIRECT_MAP_WINDOW_START);
	if (DIRECT_MAP != DIRECT_MAP_WINDOW_START &&
	    walk_rights(DIRECT_MAP_WINDOW_START, DIRECT_MAP) != 0)
		return check_fail("the fixed place still mapped", DIRECT_MAP_WINDOW_START, 0);
	return true;
}

static const struct selftest_case cases[] = {
	{ "own tables map the image where the stub put it", image_mapped_as_at_entry },
	{ "the lower half is empty (no one-to-one map left)", lower_half_empty },
	{ "the direct map shows physical memory", direct_map_reaches_ram },
	{ "the direct map lies at its drawn base, nothing at the fixed place",
	  direct_map_at_its_drawn_base },
};

const struct selftest_suite selftest_paging = SELFTEST_SUITE("paging", cases);
