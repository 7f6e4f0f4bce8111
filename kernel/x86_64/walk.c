/*
 * Which physical address a virtual one really maps to, read from the live page tables: the
 * hardware's view, independent of what the boot info claims.
 */
#include <stdint.h>

#include "kernel/x86_64/paging.h"

#define ENTRY_PRESENT 0x1ull
#define ENTRY_WRITABLE 0x2ull
#define ENTRY_USER 0x4ull
#define ENTRY_LARGE 0x80ull
#define ENTRY_ADDR 0x000ffffffffff000ull

static uint64_t read_cr3(void)
{
	uint64_t v;
	__asm__ volatile("mov %%cr3, %0" : "=r"(v));
	return v;
}

/* The walk: the physical address, and in *rights the present, writable and user bits as the
 * CPU combines them (writable or user only if every level says so); 0 and 0 if unmapped. */
static uint64_t walk(uint64_t virt, uint64_t table_offset, uint64_t *rights)
{
	uint64_t table = read_cr3() & ENTRY_ADDR;
	uint64_t r = ENTRY_PRESENT | ENTRY_WRITABLE | ENTRY_USER;
	*rights = 0;
	for (int shift = PT_SHIFT_PML4; shift >= PT_SHIFT_PT; shift -= 9) {
		const uint64_t *entries = (const uint64_t *)(uintptr_t)(table + table_offset);
		uint64_t e = entries[(virt >> shift) & PT_INDEX_MASK];
		if (!(e & ENTRY_PRESENT))
			return 0;
		r &= e;
		uint64_t page = (uint64_t)1 << shift;
		if (shift == PT_SHIFT_PT || (shift <= PT_SHIFT_PDPT && (e & ENTRY_LARGE))) {
			*rights = r;
			return (e & ENTRY_ADDR & ~(page - 1)) + (virt & (page - 1));
		}
		table = e & ENTRY_ADDR;
	}
	return 0;
}

uint64_t walk_virt_to_phys(uint64_t virt, uint64_t table_offset)
{
	uint64_t rights;
	return walk(virt, table_offset, &rights);
}

uint64_t walk_rights(uint64_t virt, uint64_t table_offset)
{
	uint64_t rights;
	walk(virt, table_offset, &rights);
	return rights;
}
