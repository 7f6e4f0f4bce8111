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

/* The builder behind the live kernel tables, for later mappings (fixed areas, user spaces). */
struct pt_builder *paging_kernel_space(void);

#endif
