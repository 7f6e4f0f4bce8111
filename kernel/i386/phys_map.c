/*
 * The i386 half of kernel/mm/phys_map.h: the physical-memory window, one page table's 4 MiB right
 * after lowmem (PHYS_WINDOW_VIRT, kernel/i386/layout.h), handed out page by page from the
 * bottom. A request for the frames f, f + 1, ..., f + n - 1 takes the lowest slot from which
 * the slots in use already map them in order, as far as those slots go: all n (the mapping
 * is reused), or the first few up to the last slot in use (that run grows into the free
 * slots after it), or none (the first free slot):
 *
 *   PHYS_WINDOW_VIRT  slot 0     frame f      supervisor, writable, write-back
 *                     slot 1     frame f + 1
 *                     ...        (in use up to here; then free up to slot 1023)
 *
 * Nothing is ever unmapped: the tables stay reachable for as long as the kernel runs (the
 * FACS waking vector is written at every suspend). An entry only ever goes from absent to
 * present, which needs no TLB flush on any CPU: no TLB or paging-structure cache entry is
 * made from an entry whose present bit is clear (SDM Vol. 3A, 4.10.4.3).
 *
 * The table lives in the image, as the direct map's do (kernel/i386/head.S): only the
 * kernel's own directory and the kernel roots copied from it lead to it, never a ring-3 root
 * (kernel/i386/space.c).
 */
#include <stdbool.h>

#include "kernel/cpu/cpu_tables.h"
#include "kernel/memory.h"
#include "kernel/mm/phys_map.h"

#define WINDOW_PAGES (PAGE_TABLE_SPAN / PAGE_SIZE)
#define PDE_INDEX_OF_WINDOW (PHYS_WINDOW_VIRT / PAGE_TABLE_SPAN)
#define PAGE_SHIFT 12
#define PAGING_PHYS_LIMIT 0x100000000ull /* 32-bit paging without PAE: the first 4 GiB */

_Static_assert(PHYS_WINDOW_VIRT == KERNEL_VIRT_OFFSET + LOWMEM_LIMIT, "the window follows lowmem");
_Static_assert(PHYS_WINDOW_END <= FIXMAP_VIRT, "the window ends before the fixmap");
_Static_assert(PAGE_SIZE == 1 << PAGE_SHIFT, "page shift");

static uint32_t window_table[WINDOW_PAGES] __attribute__((aligned(PAGE_SIZE)));
static unsigned window_used; /* slots [0, window_used) map a frame */

void phys_map_init(void)
{
	boot_page_dir[PDE_INDEX_OF_WINDOW] =
		(uint32_t)kernel_virt_to_phys(window_table) | PTE_PRESENT | PTE_WRITABLE;
}

/* No PTE_USER: the window is the kernel's alone. */
static uint32_t window_entry(uint64_t frame)
{
	return (uint32_t)frame | PTE_PRESENT | PTE_WRITABLE;
}

/* The entry for the i-th page of a run that starts at frame first. */
static uint32_t run_entry(uint64_t first, unsigned i)
{
	return window_entry(first + ((uint64_t)i << PAGE_SHIFT));
}

/* True when the slots in use among [slot, slot + pages) map first, first + 1 page, ... */
static bool run_fits(unsigned slot, uint64_t first, unsigned pages)
{
	for (unsigned i = 0; i < pages && slot + i < window_used; i++)
		if (window_table[slot + i] != run_entry(first, i))
			return false;
	return true;
}

void *arch_phys_map(uint64_t phys, size_t len)
{
	if (!len || phys >= PAGING_PHYS_LIMIT || len > PAGING_PHYS_LIMIT - phys)
		return NULL;
	uint64_t first = phys & ~(uint64_t)(PAGE_SIZE - 1);
	uintptr_t offset = (uintptr_t)(phys - first);
	uint64_t span = ((phys + len - first) + PAGE_SIZE - 1) >> PAGE_SHIFT;
	if (span > WINDOW_PAGES)
		return NULL;
	unsigned pages = (unsigned)span;
	for (unsigned slot = 0; slot <= window_used && slot + pages <= WINDOW_PAGES; slot++) {
		if (!run_fits(slot, first, pages))
			continue;
		for (unsigned i = 0; i < pages; i++)
			if (slot + i >= window_used)
				window_table[slot + i] = run_entry(first, i);
		if (slot + pages > window_used)
			window_used = slot + pages;
		return (void *)(PHYS_WINDOW_VIRT + (slot << PAGE_SHIFT) + offset);
	}
	return NULL;
}
