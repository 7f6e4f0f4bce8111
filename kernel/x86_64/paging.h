/* The x86-64 kernel's page tables (paging.c); kernel/mm/walk.h reads whatever tables are live. */
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

/* Draw the direct map's base from the boot info's seed and set direct_map_base to it
 * (direct_map.c); paging_init's first step. */
struct kslide_bootinfo;
uint64_t direct_map_draw(const struct kslide_bootinfo *bi);

#define EFER_NXE 0x800 /* IA32_EFER bit 11: the XD bit of page-table entries is valid */

/* PTE_NX where the CPU has NX (paging_init then set EFER.NXE), else 0: what every mapping of
 * memory that holds no code adds to its flags. */
uint64_t paging_nx(void);

/* The builder behind the live kernel tables, for later mappings (fixed areas, user spaces). */
struct pt_builder *paging_kernel_space(void);

#endif
