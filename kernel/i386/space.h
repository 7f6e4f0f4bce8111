/* The page tables of an i386 user space (kernel/i386/space.c). Include kernel/space.h. */
#ifndef KSLIDE_KERNEL_I386_SPACE_H
#define KSLIDE_KERNEL_I386_SPACE_H

#include <stdint.h>

#define SPACE_TABLE_PAGES 2 /* the page directory and the user window's page table */

struct space_tables {
	uint32_t *dir;
	uint32_t *table;
};

#endif
