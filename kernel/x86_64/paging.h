/* The x86-64 kernel's page tables (paging.c) and a walk of whatever tables are live (walk.c). */
#ifndef KSLIDE_KERNEL_X86_64_PAGING_H
#define KSLIDE_KERNEL_X86_64_PAGING_H

#include <stdint.h>

#include "lib/pagetable.h"

extern char _start[];

/*
 * Build the kernel's own tables from the boot info (still read through the stub's map) and
 * switch to them. KS_OK, or an error with the stub's tables still live.
 */
int paging_init(uint64_t boot_info_phys);

/* The builder behind the live kernel tables, for later mappings (fixed areas, user spaces). */
struct pt_builder *paging_kernel_space(void);

/* Physical address of a kernel-image address. */
uint64_t kernel_virt_to_phys(const void *p);

/* The physical address virt maps to through the live tables, or 0. Each table page is read
 * at its physical address plus table_offset: 0 under the stub's one-to-one map, DIRECT_MAP
 * under the kernel's. */
uint64_t walk_virt_to_phys(uint64_t virt, uint64_t table_offset);

/* What the live tables allow at virt, as the CPU combines the levels: PTE_PRESENT, and
 * PTE_WRITABLE and bit 2 (user) only when every level has them; 0 when unmapped. */
uint64_t walk_rights(uint64_t virt, uint64_t table_offset);

#endif
