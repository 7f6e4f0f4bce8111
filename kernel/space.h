/*
 * User address spaces: the arch-neutral half (kernel/space.c: the pool, the user window,
 * entering ring 3) over each arch's page tables (kernel/<arch>/space.c).
 *
 * A space maps the kernel's half without the user bit, and USER_PAGES pages of its own at
 * USER_BASE with it. Every page, table or not, comes zeroed from one pool, so no kernel data
 * (and no kernel address) survives into a process.
 */
#ifndef KSLIDE_KERNEL_SPACE_H
#define KSLIDE_KERNEL_SPACE_H

#include <stdbool.h>
#include <stdint.h>

#include "kernel/layout.h"
#include "kernel/page_pool.h"

#ifdef __x86_64__
#include "kernel/x86_64/space.h"
#else
#include "kernel/i386/space.h"
#endif

struct arch_space {
	bool used;
	struct space_tables tables;
	uint8_t *pages[USER_PAGES]; /* the user window, in order from USER_BASE */
};

/* The arch's half. space_tables_build takes SPACE_TABLE_PAGES tables from pool and maps the
 * kernel's half and s->pages; false when the pool ran out (space_tables_free then gives back
 * what was taken). */
bool space_tables_build(struct arch_space *s, struct page_pool *pool);
void space_tables_free(struct arch_space *s, struct page_pool *pool);
uint64_t space_tables_root(const struct arch_space *s); /* what CR3 gets to run it */
uint64_t kernel_tables_root(void);                      /* and to run without it */

/* Walks the space's page tables: every user-accessible entry must lead to one of the space's
 * own user pages, inside the user window. */
bool space_user_mappings_ok(const struct arch_space *s);

/* True when phys is the frame of one of s's user pages. */
bool space_owns_frame(const struct arch_space *s, uint64_t phys);

#endif
