/*
 * The arch's half of the move: make the chosen physical range writable before the copy, and
 * say where to jump afterwards. i386 runs with paging off and enters the kernel at its
 * physical address; x86-64 builds page tables that map the kernel's virtual range and enters
 * it there.
 */
#ifndef KSLIDE_BOOT_HANDOFF_H
#define KSLIDE_BOOT_HANDOFF_H

#include <stdint.h>

struct handoff {
	uint64_t phys; /* the kernel's new physical base */
	uint64_t virt; /* ... and virtual base */
	uint64_t size; /* bytes in memory */
	uint64_t tables_start; /* out: physical range of page tables the kernel must keep */
	uint64_t tables_end;
};

/*
 * Lends the arch code free memory: size bytes, 4 KiB aligned, below 4 GiB, touching neither
 * the kernel's new range nor anything the boot loader handed over. KS_OK or KS_ENOENT.
 */
typedef int (*scratch_finder)(uint64_t size, uint64_t *addr);

/* Make [phys, phys + size) writable through the pointer (uintptr_t)phys. KS_OK or an error. */
int handoff_prepare(struct handoff *h, scratch_finder find_scratch);

/* The address to jump to for an entry point entry_offset bytes into the image. */
uintptr_t handoff_entry(const struct handoff *h, uint64_t entry_offset);

#endif
