/* kernel/walk.h: one walk of the live tables, in either arch's format. */
#include "arch/x86/sysregs.h"
#include "kernel/walk.h"

#define INDEX_MASK ((1u << WALK_INDEX_BITS) - 1)

/* The physical address, and in *rights the present, writable and user bits as the CPU
 * combines them (writable or user only if every level says so); 0 and 0 if unmapped. */
static uint64_t walk(uintptr_t virt, uint64_t table_offset, uint64_t *rights)
{
	uint64_t table = read_cr3() & WALK_FRAME_MASK;
	uint64_t r = WALK_PRESENT | WALK_WRITABLE | WALK_USER;
	*rights = 0;
	for (int shift = WALK_TOP_SHIFT; shift >= WALK_PAGE_SHIFT; shift -= WALK_INDEX_BITS) {
		const walk_entry_t *entries = (const walk_entry_t *)(uintptr_t)(table + table_offset);
		uint64_t e = entries[(virt >> shift) & INDEX_MASK];
		if (!(e & WALK_PRESENT))
			return 0;
		r &= e;
		uintptr_t page = (uintptr_t)1 << shift;
		if (shift == WALK_PAGE_SHIFT ||
		    (WALK_LARGE_PAGES && shift < WALK_TOP_SHIFT && (e & WALK_LARGE))) {
			*rights = r;
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
