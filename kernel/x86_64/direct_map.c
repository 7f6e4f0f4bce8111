/*
 * The direct map's base, drawn at every boot as Linux's RANDOMIZE_MEMORY draws
 * page_offset_base: one of DIRECT_MAP_SLOTS places, DIRECT_MAP_ALIGN apart, in the window
 * kernel/x86_64/layout.h keeps for it. The draw takes a seed stream of its own
 * (kernel/secrecy/seed_random.h), so it is independent of the image's bases (the stub drew
 * the seed after them) and of the entry area's place.
 */
#include "include/kslide/bootinfo.h"
#include "kernel/memory.h"
#include "kernel/secrecy/seed_random.h"
#include "kernel/x86_64/paging.h"
#include "lib/uniform.h"

/* Neither the image's window nor the entry window may reach into the direct map's. */
_Static_assert(KERNEL_VIRT_MIN >= DIRECT_MAP_WINDOW_END, "the image lies above the window");
_Static_assert(ENTRY_WINDOW_START >= DIRECT_MAP_WINDOW_END, "the entry area lies above it");
_Static_assert(DIRECT_MAP_WINDOW_START >= KERNEL_HALF && DIRECT_MAP_SPAN % DIRECT_MAP_ALIGN == 0 &&
		       DIRECT_MAP_WINDOW_START % DIRECT_MAP_ALIGN == 0,
	       "the window lies in the kernel's half, in whole granules");

/* 0 until paging_init draws it: until then the stub's one-to-one tables are live, and the
 * kernel's tables it builds are read through the image's own addresses. */
uint64_t direct_map_base;

uint64_t direct_map_draw(const struct kslide_bootinfo *bi)
{
	struct seed_random r;
	seed_random_init(&r, bi, SEED_STREAM_DIRECT_MAP);
	uint64_t slot = uniform_below(DIRECT_MAP_SLOTS, seed_random_next, &r);
	direct_map_base = DIRECT_MAP_WINDOW_START + slot * DIRECT_MAP_ALIGN;
	return direct_map_base;
}
