/*
 * x86-64 page tables for user spaces (kernel/space.c has the rest).
 *
 *   0x0000000000400000  USER_BASE: program image, then zeroes; the stack ends at USER_TOP (U, RW)
 *   ... rest of the lower half                                                   unmapped
 *   0xffff800000000000  the kernel's half: direct map, image, FIXED_AREA       (supervisor)
 *
 * Each space has its own PML4: the kernel's upper-half entries (256..511) copied without the
 * user bit, and one chain PDPT -> PD -> PT for the user window. The copy happens at creation;
 * the kernel adds no upper-half PML4 entry after arch_cpu_init, so it stays complete.
 */
#include "kernel/arch.h"
#include "kernel/memory.h"
#include "kernel/space.h"
#include "kernel/x86_64/paging.h"

#define KERNEL_HALF_FIRST (PT_ENTRIES / 2) /* PML4 entry of 0xffff800000000000 */
#define TABLE_FLAGS (PTE_PRESENT | PTE_WRITABLE | PTE_USER)

#define INDEX(va, shift) (((uint64_t)(va) >> (shift)) & PT_INDEX_MASK)
_Static_assert(USER_BASE >> PT_SHIFT_PD == (USER_TOP - 1) >> PT_SHIFT_PD,
	       "the user window fits one page table");

static uint64_t entry(const void *table_or_page)
{
	return kernel_virt_to_phys(table_or_page) | TABLE_FLAGS;
}

bool space_tables_build(struct arch_space *s, struct page_pool *pool)
{
	struct space_tables *t = &s->tables;
	t->pml4 = page_pool_alloc(pool);
	t->pdpt = page_pool_alloc(pool);
	t->pd = page_pool_alloc(pool);
	t->pt = page_pool_alloc(pool);
	if (!t->pml4 || !t->pdpt || !t->pd || !t->pt)
		return false;
	/* The kernel half as the kernel sees it: supervisor entries only. */
	const uint64_t *kernel_pml4 = phys_to_virt(kernel_tables_root());
	for (unsigned i = KERNEL_HALF_FIRST; i < PT_ENTRIES; i++)
		t->pml4[i] = kernel_pml4[i] & ~PTE_USER;
	t->pml4[INDEX(USER_BASE, PT_SHIFT_PML4)] = entry(t->pdpt);
	t->pdpt[INDEX(USER_BASE, PT_SHIFT_PDPT)] = entry(t->pd);
	t->pd[INDEX(USER_BASE, PT_SHIFT_PD)] = entry(t->pt);
	for (unsigned i = 0; i < USER_PAGES; i++)
		t->pt[INDEX(USER_BASE, PT_SHIFT_PT) + i] = entry(s->pages[i]);
	return true;
}

void space_tables_free(struct arch_space *s, struct page_pool *pool)
{
	page_pool_free(pool, s->tables.pml4);
	page_pool_free(pool, s->tables.pdpt);
	page_pool_free(pool, s->tables.pd);
	page_pool_free(pool, s->tables.pt);
}

uint64_t space_tables_root(const struct arch_space *s)
{
	return kernel_virt_to_phys(s->tables.pml4);
}

uint64_t kernel_tables_root(void)
{
	return paging_kernel_space()->pml4_phys;
}

bool arch_is_kernel_address(uintptr_t addr)
{
	return addr >= DIRECT_MAP; /* the upper half */
}

/* Follows user-accessible entries only: the CPU lets ring 3 through an entry only when every
 * level above it has the user bit too. Large pages are never user pages here. */
static bool user_entries_ok(const struct arch_space *s, uint64_t table_phys, int shift,
			    uint64_t va_base)
{
	const uint64_t *table = phys_to_virt(table_phys);
	for (unsigned i = 0; i < PT_ENTRIES; i++) {
		uint64_t e = table[i];
		if (!(e & PTE_PRESENT) || !(e & PTE_USER))
			continue;
		uint64_t va = va_base | ((uint64_t)i << shift);
		if (shift == PT_SHIFT_PML4 && i >= KERNEL_HALF_FIRST)
			return false; /* a user entry in the kernel's half */
		if (shift == PT_SHIFT_PT) {
			if (va < USER_BASE || va >= USER_TOP || !space_owns_frame(s, e & PT_ADDR_MASK))
				return false;
			continue;
		}
		if ((e & PTE_PS) || !user_entries_ok(s, e & PT_ADDR_MASK, shift - 9, va))
			return false;
	}
	return true;
}

bool space_user_mappings_ok(const struct arch_space *s)
{
	return user_entries_ok(s, space_tables_root(s), PT_SHIFT_PML4, 0);
}
