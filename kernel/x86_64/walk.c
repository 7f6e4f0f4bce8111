/*
 * Which physical address a virtual one really maps to, read from the live page tables (the
 * stub's, until the kernel installs its own). The tables lie below 4 GiB, where the stub
 * maps physical memory one to one, so each level is read at its physical address.
 */
#include <stdint.h>

#include "kernel/memory.h"

#define ENTRY_PRESENT 0x1ull
#define ENTRY_LARGE 0x80ull
#define ENTRY_ADDR 0x000ffffffffff000ull

extern char _start[];

static uint64_t read_cr3(void)
{
	uint64_t v;
	__asm__ volatile("mov %%cr3, %0" : "=r"(v));
	return v;
}

/* 0 when virt is not mapped. */
static uint64_t virt_to_phys(uint64_t virt)
{
	uint64_t table = read_cr3() & ENTRY_ADDR;
	for (int shift = 39; shift >= 12; shift -= 9) {
		const uint64_t *entries = phys_to_virt(table);
		uint64_t e = entries[(virt >> shift) & 0x1ff];
		if (!(e & ENTRY_PRESENT))
			return 0;
		uint64_t page = (uint64_t)1 << shift;
		if (shift == 12 || (shift <= 30 && (e & ENTRY_LARGE)))
			return (e & ENTRY_ADDR & ~(page - 1)) + (virt & (page - 1));
		table = e & ENTRY_ADDR;
	}
	return 0;
}

uintptr_t start_phys_runtime(void)
{
	return virt_to_phys((uintptr_t)_start);
}
