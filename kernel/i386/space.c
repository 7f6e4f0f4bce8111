/*
 * i386 page tables for user spaces and the entry area (kernel/mm/space.c has the rest).
 *
 *               kernel root (page directory)           ring-3 root
 *   0x00400000  user window (U, RW)                    the same page table
 *   0xC0000000  the kernel's direct map of lowmem      nothing
 *               (supervisor)
 *   0xF8000000  the physical-memory window             nothing
 *               (supervisor; kernel/mm/phys_map.h)
 *   0xFFC00000  the fixmap: the entry area             the same page table (supervisor)
 *
 * The fixmap's page table comes from kernel/mm/frames.h and serves the kernel's own directory and
 * every ring-3 root alike: it maps the entry area and nothing else.
 */
#include "kernel/mm/space.h"
#include "arch/x86/sysregs.h"
#include "kernel/arch.h"
#include "kernel/cpu/cpu_tables.h"
#include "kernel/memory.h"
#include "kernel/mm/frames.h"
#include "kernel/secrecy/entry_area.h"
#include "kernel/secrecy/oops.h"

#define ENTRIES_PER_TABLE (PAGE_SIZE / 4)
#define PDE_INDEX_OF_USER (USER_BASE / PAGE_TABLE_SPAN)
#define FRAME_MASK (~(uint32_t)(PAGE_SIZE - 1))

_Static_assert(USER_TOP <= (PDE_INDEX_OF_USER + 1) * PAGE_TABLE_SPAN, "user window > 4 MiB");
_Static_assert(ENTRY_WINDOW_START >= FIXMAP_VIRT, "the entry window lies in the fixmap");

static uint32_t user_entry(const void *table_or_page)
{
	return (uint32_t)direct_virt_to_phys(table_or_page) | PTE_PRESENT | PTE_WRITABLE | PTE_USER;
}

void arch_entry_area_map(uintptr_t base, const uint64_t frames[ENTRY_AREA_PAGES],
			 const bool writable[ENTRY_AREA_PAGES])
{
	uint32_t *fixmap = frames_alloc(1, 1);
	if (!fixmap)
		panic("no memory outside the image for the fixmap's page table");
	unsigned first = (base - FIXMAP_VIRT) / PAGE_SIZE;
	for (unsigned n = 0; n < ENTRY_AREA_PAGES; n++)
		fixmap[first + n] = (uint32_t)frames[n] | PTE_PRESENT | (writable[n] ? PTE_WRITABLE : 0);
	boot_page_dir[PDE_INDEX_OF_FIXMAP] =
		(uint32_t)direct_virt_to_phys(fixmap) | PTE_PRESENT | PTE_WRITABLE;
	for (unsigned n = 0; n < ENTRY_AREA_PAGES; n++)
		invlpg(base + n * PAGE_SIZE);
}

bool space_tables_build(struct arch_space *s, struct page_pool *pool)
{
	uint32_t *kernel = s->roots, *ring3 = kernel + ENTRIES_PER_TABLE;
	uint32_t *table = s->tables.table = page_pool_alloc(pool);
	if (!table)
		return false;
	/* The kernel half as the kernel sees it: supervisor entries only. */
	for (unsigned i = PDE_INDEX_OF_OFFSET; i < ENTRIES_PER_TABLE; i++)
		kernel[i] = boot_page_dir[i] & ~(uint32_t)PTE_USER;
	ring3[PDE_INDEX_OF_FIXMAP] = boot_page_dir[PDE_INDEX_OF_FIXMAP];
	kernel[PDE_INDEX_OF_USER] = ring3[PDE_INDEX_OF_USER] = user_entry(table);
	for (unsigned i = 0; i < USER_PAGES; i++)
		table[i] = user_entry(s->pages[i]);
	return true;
}

void space_tables_free(struct arch_space *s, struct page_pool *pool)
{
	page_pool_free(pool, s->tables.table);
}

uint64_t kernel_tables_root(void)
{
	return kernel_virt_to_phys(boot_page_dir);
}

bool arch_is_kernel_address(uintptr_t addr)
{
	return addr >= KERNEL_VIRT_OFFSET;
}

static bool user_root_ok(const struct arch_space *s, uint64_t root)
{
	const uint32_t *dir = phys_to_virt(root);
	for (unsigned d = 0; d < ENTRIES_PER_TABLE; d++) {
		uint32_t pde = dir[d];
		if (!(pde & PTE_PRESENT) || !(pde & PTE_USER))
			continue;
		if (d != PDE_INDEX_OF_USER || (pde & FRAME_MASK) != direct_virt_to_phys(s->tables.table))
			return false;
		for (unsigned i = 0; i < ENTRIES_PER_TABLE; i++) {
			uint32_t pte = s->tables.table[i];
			if (!(pte & PTE_PRESENT))
				continue;
			uintptr_t va = (uintptr_t)d * PAGE_TABLE_SPAN + (uintptr_t)i * PAGE_SIZE;
			if (!(pte & PTE_USER) || va < USER_BASE || va >= USER_TOP ||
			    !space_owns_frame(s, pte & FRAME_MASK))
				return false;
		}
	}
	return true;
}

bool space_user_mappings_ok(const struct arch_space *s)
{
	return user_root_ok(s, space_user_root(s)) && user_root_ok(s, space_kernel_root(s));
}
