/*
 * User address spaces: the arch-neutral half (kernel/mm/space.c: the pools, the user window,
 * entering ring 3) over each arch's page tables (kernel/<arch>/space.c).
 *
 * A space has two roots in one aligned pair of pages (kernel/secrecy/entry_area.h): the kernel root
 * maps the kernel's half without the user bit and the user window with it; the ring-3 root
 * maps the same user window and, of the kernel, only the entry area. The entry stubs switch
 * between them. With page-table isolation off, ring 3 runs on the kernel root.
 */
#ifndef KSLIDE_KERNEL_MM_SPACE_H
#define KSLIDE_KERNEL_MM_SPACE_H

#include <stdbool.h>
#include <stdint.h>

#include "kernel/layout.h"
#include "kernel/mm/page_pool.h"

#ifdef __x86_64__
#include "kernel/x86_64/space.h"
#else
#include "kernel/i386/space.h"
#endif

struct arch_space {
	bool used;
	void *roots;                /* kernel root, then the ring-3 root one page above */
	struct space_tables tables; /* the user window's other tables */
	uint8_t *pages[USER_PAGES]; /* the user window, in order from USER_BASE */
};

/* The pools, from kernel/mm/frames.h; kernel_main calls it after arch_cpu_init (the frames and
 * the entry area first). */
void space_init(void);

/* The arch's half. space_tables_build fills both roots and takes SPACE_TABLE_PAGES tables
 * from pool; false when the pool ran out (space_tables_free then gives back what was taken). */
bool space_tables_build(struct arch_space *s, struct page_pool *pool);
void space_tables_free(struct arch_space *s, struct page_pool *pool);
uint64_t kernel_tables_root(void); /* what CR3 gets to run without a space */

/* The roots' physical addresses: the kernel's (CR3 while the kernel runs for the space) and
 * the one ring 3 runs on. */
uint64_t space_kernel_root(const struct arch_space *s);
uint64_t space_user_root(const struct arch_space *s);
/* The space the CPU is running for, or NULL. */
const struct arch_space *space_running(void);

/* Walks the space's ring-3 root: every user-accessible entry must lead to one of the space's
 * own user pages, inside the user window. */
bool space_user_mappings_ok(const struct arch_space *s);

/* True when phys is the frame of one of s's user pages. */
bool space_owns_frame(const struct arch_space *s, uint64_t phys);

#endif
