/*
 * x86-64 page tables for user spaces and the entry area (kernel/mm/space.c has the rest).
 *
 *                        kernel root                      ring-3 root
 *   0x0000000000400000   user window (U, RW)              the same PDPT -> PD -> PT
 *   ... lower half       unmapped                         unmapped
 *   0xffff800000000000   the kernel's half: direct map,   nothing
 *                        image, FIXED_AREA (supervisor)
 *   FIXED_AREA           (in the kernel's half)           the entry area only, through tables
 *                                                         of its own (supervisor)
 *
 * The kernel root copies the kernel's upper-half entries (256..511) without the user bit; the
 * kernel adds no upper-half PML4 entry once smp_init has mapped the local APIC (which may take
 * a new one when the drawn direct map straddles 512 GiB), before the first space, so the copy
 * stays complete. The
 * ring-3 root's one upper-half entry leads to tables built for the entry area alone, from
 * kernel/mm/frames.h, shared by every space.
 */
#include "kernel/mm/space.h"
#include "arch/x86/sysregs.h"
#include "kernel/arch.h"
#include "kernel/memory.h"
#include "kernel/mm/frames.h"
#include "kernel/secrecy/entry_area.h"
#include "kernel/secrecy/oops.h"
#include "kernel/x86_64/paging.h"
#include "lib/errors.h"

#define KERNEL_HALF_FIRST (PT_ENTRIES / 2) /* PML4 entry of 0xffff800000000000 */
#define TABLE_FLAGS (PTE_PRESENT | PTE_WRITABLE | PTE_USER)
/* The ring-3 entry tables: a PML4 of their own (whose entry for the area each ring-3 root
 * copies), a PDPT, a PD, and a PT for each of the two 2 MiB regions the area may straddle. */
#define ENTRY_TABLE_PAGES 5

#define INDEX(va, shift) (((uint64_t)(va) >> (shift)) & PT_INDEX_MASK)
_Static_assert(USER_BASE >> PT_SHIFT_PD == (USER_TOP - 1) >> PT_SHIFT_PD,
	       "the user window fits one page table");
_Static_assert(INDEX(ENTRY_WINDOW_START, PT_SHIFT_PML4) == INDEX(ENTRY_WINDOW_END, PT_SHIFT_PML4),
	       "the entry window lies under one PML4 entry");

static struct pt_builder ring3_entry_tables;

static uint64_t entry(const void *table_or_page)
{
	return direct_virt_to_phys(table_or_page) | TABLE_FLAGS;
}

/* Writable pages are never executable; of the read-only ones only the entry stubs' page. */
static void map_page(struct pt_builder *b, uintptr_t va, uint64_t frame, bool writable,
		     bool code)
{
	uint64_t flags = (writable ? PTE_WRITABLE : 0) | (code && !writable ? 0 : paging_nx());
	int rc = pt_map(b, va, frame, PAGE_SIZE, flags);
	if (rc != KS_OK)
		panic("cannot map the entry area at 0x%llx: %s", (unsigned long long)va,
		      ks_strerror(rc));
}

void arch_entry_area_map(uintptr_t base, const uint64_t frames[ENTRY_AREA_PAGES],
			 const bool writable[ENTRY_AREA_PAGES])
{
	uint64_t(*pages)[PT_ENTRIES] = frames_alloc(ENTRY_TABLE_PAGES, 1);
	if (!pages || pt_init(&ring3_entry_tables, pages, ENTRY_TABLE_PAGES,
			      direct_virt_to_phys(pages)) != KS_OK)
		panic("no memory outside the image for the entry area's tables");
	for (unsigned n = 0; n < ENTRY_AREA_PAGES; n++) {
		uintptr_t va = base + n * PAGE_SIZE;
		bool code = n == ENTRY_PAGE_CODE;
		map_page(paging_kernel_space(), va, frames[n], writable[n], code);
		map_page(&ring3_entry_tables, va, frames[n], writable[n], code);
		invlpg(va);
	}
}

bool space_tables_build(struct arch_space *s, struct page_pool *pool)
{
	struct space_tables *t = &s->tables;
	uint64_t *kernel = s->roots, *ring3 = kernel + PT_ENTRIES;
	t->pdpt = page_pool_alloc(pool);
	t->pd = page_pool_alloc(pool);
	t->pt = page_pool_alloc(pool);
	if (!t->pdpt || !t->pd || !t->pt)
		return false;
	/* The kernel half as the kernel sees it: supervisor entries only. */
	const uint64_t *kernel_pml4 = phys_to_virt(kernel_tables_root());
	for (unsigned i = KERNEL_HALF_FIRST; i < PT_ENTRIES; i++)
		kernel[i] = kernel_pml4[i] & ~(uint64_t)PTE_USER;
	const uint64_t *entry_pml4 = phys_to_virt(ring3_entry_tables.pml4_phys);
	unsigned area = INDEX(ENTRY_WINDOW_START, PT_SHIFT_PML4);
	ring3[area] = entry_pml4[area];
	kernel[INDEX(USER_BASE, PT_SHIFT_PML4)] = ring3[INDEX(USER_BASE, PT_SHIFT_PML4)] =
		entry(t->pdpt);
	t->pdpt[INDEX(USER_BASE, PT_SHIFT_PDPT)] = entry(t->pd);
	t->pd[INDEX(USER_BASE, PT_SHIFT_PD)] = entry(t->pt);
	for (unsigned i = 0; i < USER_PAGES; i++)
		t->pt[INDEX(USER_BASE, PT_SHIFT_PT) + i] = entry(s->pages[i]);
	return true;
}

void space_tables_free(struct arch_space *s, struct page_pool *pool)
{
	page_pool_free(pool, s->tables.pdpt);
	page_pool_free(pool, s->tables.pd);
	page_pool_free(pool, s->tables.pt);
}

uint64_t kernel_tables_root(void)
{
	return paging_kernel_space()->pml4_phys;
}

bool arch_is_kernel_address(uintptr_t addr)
{
	return addr >= KERNEL_HALF;
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
	return user_entries_ok(s, space_user_root(s), PT_SHIFT_PML4, 0) &&
	       user_entries_ok(s, space_kernel_root(s), PT_SHIFT_PML4, 0);
}
