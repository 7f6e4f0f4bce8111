/*
 * i386 page tables for user spaces (kernel/space.c has the rest).
 *
 *   0x00000000  unmapped (NULL and below the program)
 *   0x00400000  USER_BASE: program image, then zeroes; the stack ends at USER_TOP  (U, RW)
 *   0xC0000000  the kernel's direct map of lowmem                            (supervisor)
 *   0xFFC00000  the fixmap: read-only alias of the descriptor tables           (supervisor)
 *
 * Each space has its own page directory: the kernel's entries copied without the user bit,
 * and one page table (the second 4 MiB) for the user window.
 */
#include "kernel/arch.h"
#include "kernel/cpu_tables.h"
#include "kernel/memory.h"
#include "kernel/space.h"

#define ENTRIES_PER_TABLE (PAGE_SIZE / 4)
#define PDE_INDEX_OF_USER (USER_BASE / PAGE_TABLE_SPAN)
#define FRAME_MASK (~(uint32_t)(PAGE_SIZE - 1))

_Static_assert(USER_TOP <= (PDE_INDEX_OF_USER + 1) * PAGE_TABLE_SPAN, "user window > 4 MiB");

static uint32_t entry(const void *table_or_page)
{
	return (uint32_t)kernel_virt_to_phys(table_or_page) | PTE_PRESENT | PTE_WRITABLE | PTE_USER;
}

bool space_tables_build(struct arch_space *s, struct page_pool *pool)
{
	struct space_tables *t = &s->tables;
	t->dir = page_pool_alloc(pool);
	t->table = page_pool_alloc(pool);
	if (!t->dir || !t->table)
		return false;
	/* The kernel half as the kernel sees it: supervisor entries only. */
	for (unsigned i = PDE_INDEX_OF_OFFSET; i < ENTRIES_PER_TABLE; i++)
		t->dir[i] = boot_page_dir[i] & ~(uint32_t)PTE_USER;
	t->dir[PDE_INDEX_OF_USER] = entry(t->table);
	for (unsigned i = 0; i < USER_PAGES; i++)
		t->table[i] = entry(s->pages[i]);
	return true;
}

void space_tables_free(struct arch_space *s, struct page_pool *pool)
{
	page_pool_free(pool, s->tables.dir);
	page_pool_free(pool, s->tables.table);
}

uint64_t space_tables_root(const struct arch_space *s)
{
	return kernel_virt_to_phys(s->tables.dir);
}

uint64_t kernel_tables_root(void)
{
	return kernel_virt_to_phys(boot_page_dir);
}

bool arch_is_kernel_address(uintptr_t addr)
{
	return addr >= KERNEL_VIRT_OFFSET;
}

bool space_user_mappings_ok(const struct arch_space *s)
{
	const struct space_tables *t = &s->tables;
	for (unsigned d = 0; d < ENTRIES_PER_TABLE; d++) {
		uint32_t pde = t->dir[d];
		if (!(pde & PTE_PRESENT) || !(pde & PTE_USER))
			continue;
		if (d != PDE_INDEX_OF_USER || (pde & FRAME_MASK) != kernel_virt_to_phys(t->table))
			return false;
		for (unsigned i = 0; i < ENTRIES_PER_TABLE; i++) {
			uint32_t pte = t->table[i];
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
