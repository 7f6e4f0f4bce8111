/* The page tables of an x86-64 user space (kernel/x86_64/space.c). Include kernel/mm/space.h. */
#ifndef KSLIDE_KERNEL_X86_64_SPACE_H
#define KSLIDE_KERNEL_X86_64_SPACE_H

#include <stdint.h>

#define SPACE_TABLE_PAGES 3 /* the user window's PDPT, PD and PT, under both roots */

struct space_tables {
	uint64_t *pdpt, *pd, *pt;
};

#endif
