/*
 * The arch's half of the move: make the kernel's chosen physical range writable before the
 * copy, and say where the kernel lies in the address space the stub jumps from. i386 runs with
 * paging off, so physical addresses are the addresses; x86-64 builds page tables that map the
 * kernel's virtual range onto its physical one and switches to them.
 */
#ifndef KSLIDE_BOOT_MAPPING_H
#define KSLIDE_BOOT_MAPPING_H

#include <stdint.h>

struct kernel_mapping {
	uint64_t phys; /* the kernel's new physical base */
	uint64_t virt; /* ... and virtual base */
	uint64_t size; /* bytes from the base the kernel may use (the image's memory_size) */
	uint64_t tables_start; /* out: physical range of page tables the kernel must keep */
	uint64_t tables_end;
};

/*
 * Lends free memory, for good: size bytes, 4 KiB aligned, below 4 GiB, touching neither the
 * kernel's new range nor anything the boot loader handed over nor an earlier loan. KS_OK or
 * KS_ENOENT.
 */
typedef int (*memory_lender)(uint64_t size, uint64_t *addr);

/* Make [phys, phys + size) writable through the pointer (uintptr_t)phys. KS_OK or an error. */
int mapping_prepare(struct kernel_mapping *m, memory_lender lend);

/*
 * Where the kernel's byte at offset lies in the address space the stub jumps from: the
 * physical address on i386, the virtual one on x86-64.
 */
uint64_t mapping_address(const struct kernel_mapping *m, uint64_t offset);

#endif
