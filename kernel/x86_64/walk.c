/*
 * Which physical address a virtual one really maps to, read from the live page tables: the
 * hardware's view, independent of what the boot info claims.
 */
#include <stdint.h>

#include "kernel/x86_64/paging.h"

#define ENTRY_PRESENT 0x1ull
#define ENTRY_LARGE 0x80ull
#define ENTRY_ADDR 0x000ffffffffff000ull

static uint64_t read_cr3(void)
{
	uint64_t v;
	__asm__ volatile("mov %%cr3, %0" : "=r"(v));
	return v;
}

uint64_t walk_virt_to_phys(uint64_t virt, uint64_t table_offset)
{
	uint64_t table = read_cr3() & ENTRY_ADDR;
	for (int shift = PT_SHIFT_PML4; shift >= PT_SHIFT_PT; shift -= 9) {
		const uint64_t *entries = (const uint64_t *)(uintptr_t)(table + table_offset);
		uint64_t e = entries[(virt >> shift) & PT_INDEX_MASK];
		if (!(e & ENTRY_PRESENT))
			return 0;
		uint64_t page = (uint64_t)1 << shift;
		if (shift == PT_SHIFT_PT || (shift <= PT_SHIFT_PDPT && (e & ENTRY_LARGE)))
			return (e & ENTRY_ADDR & ~(page - 1)) + (virt & (page - 1));
		table = e & ENTRY_ADDR;
	}
	return 0;
}
