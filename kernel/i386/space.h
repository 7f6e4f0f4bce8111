/* The page tables of an i386 user space (kernel/i386/space.c). Include kernel/mm/space.h. */
#ifndef KSLIDE_KERNEL_I386_SPACE_H
#define KSLIDE_KERNEL_I386_SPACE_H

#include <stdint.h>

#define SPACE_TABLE_PAGES 1 /* the user window's page table, under both roots */

struct space_tables {
	uint32_t *table;
};

#endif
