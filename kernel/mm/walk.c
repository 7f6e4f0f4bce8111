/* kernel/mm/walk.h: one walk of the live tables, in either arch's format. */
#include "kernel/mm/walk.h"
#include "arch/x86/sysregs.h"
#include "kernel/memory.h"

#define INDEX_MASK ((1u << WALK_INDEX_BITS) - 1)

/* The physical address, and in *rights the present, writable and user bits as the CPU
 * combines them (writable or user only if every level says so) and NX if any level sets it;
 * 0 and 0 if unmapped. */
static uint64_t walk(uintptr_t virt, uint64_t table_offset, uint64_t *rights)
{
	uint64_t table = read_cr3() & WALK_FRAME_MASK;
	uint64_t r = WALK_PRESENT | WALK_WRITABLE | WALK_USER, nx = 0;
	*rights = 0;
	for (int shift = WALK_TOP_SHIFT; shift >= WALK_PAGE_SHIFT; shift -= WALK_INDEX_BITS) {
		const walk_entry_t *entries = (const walk_entry_t *)(uintptr_t)(table + table_offset);
		uint64_t e = entries[(virt >> shift) & INDEX_MASK];
		if (!(e & WALK_PRESENT))
			return 0;
		r &= e;
		nx |= e & WALK_NX;
		uintptr_t page = (uintptr_t)1 << shift;
		if (shift == WALK_PAGE_SHIFT ||
		    (WALK_LARGE_PAGES && shift < WALK_TOP_SHIFT && (e & WALK_LARGE))) {
			*rights = r | nx;
			return (e & WALK_FRAME_MASK & ~(uint64_t)(page - 1)) + (virt & (page - 1));
		}
		table = e & WALK_FRAME_MASK;
	}
	return 0;
}

uint64_t walk_virt_to_phys(uintptr_t virt, uint64_t table_offset)
{
	uint64_t rights;
	return walk(virt, table_offset, &rights);
}

uint64_t walk_rights(uintptr_t virt, uint64_t table_offset)
{
	uint64_t rights;
	walk(virt, table_offset, &rights);
	return rights;
}

/* Bits 63..WALK_VIRT_BITS copied from bit WALK_VIRT_BITS - 1 (no-op on i386). */
static uintptr_t canonical(uintptr_t va)
{
	const unsigned top = WALK_VIRT_BITS - 1;
	if (WALK_VIRT_BITS < 8 * sizeof(uintptr_t) && ((va >> top) & 1))
		va |= ~(uintptr_t)0 << top;
	return va;
}

static void walk_level(uint64_t table_phys, int shift, uintptr_t va_base, unsigned first,
		       unsigned end, walk_visit_fn visit, void *ctx)
{
	const walk_entry_t *entries = phys_to_virt(table_phys);
	for (unsigned i = first; i < end; i++) {
		uint64_t e = entries[i];
		if (!(e & WALK_PRESENT))
			continue;
		uintptr_t va = canonical(va_base | ((uintptr_t)i << shift));
		bool leaf = shift == WALK_PAGE_SHIFT ||
			    (WALK_LARGE_PAGES && shift < WALK_TOP_SHIFT && (e & WALK_LARGE));
		visit(ctx, va, (uint64_t)1 << shift, e, leaf);
		if (!leaf)
			walk_level(e & WALK_FRAME_MASK, shift - WALK_INDEX_BITS, va, 0, WALK_ENTRIES,
				   visit, ctx);
	}
}

void walk_tree(uint64_t root_phys, unsigned first, unsigned end, walk_visit_fn visit, void *ctx)
{
	walk_level(root_phys & WALK_FRAME_MASK, WALK_TOP_SHIFT, 0, first, end, visit, ctx);
}
