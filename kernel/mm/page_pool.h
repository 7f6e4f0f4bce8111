/*
 * A fixed number of equal blocks of pages, handed out zeroed: the user address spaces' page
 * tables and pages on both arches. The blocks live in memory outside the image
 * (kernel/mm/frames.h), so nothing a user space maps or points to is a frame of the image, and
 * zeroing on the way out means no kernel data (and no kernel address) survives into a process.
 */
#ifndef KSLIDE_KERNEL_MM_PAGE_POOL_H
#define KSLIDE_KERNEL_MM_PAGE_POOL_H

#include <stdbool.h>
#include <stdint.h>

#include "kernel/layout.h"

struct page_pool {
	bool *used;
	unsigned count;
	unsigned block_pages;
	uint8_t *base; /* count blocks of block_pages pages, aligned to a block */
};

/* Defines a static pool called name of n blocks; page_pool_init gives it its memory. */
#define PAGE_POOL(name, n)                                                                     \
	static bool name##_used[n];                                                            \
	static struct page_pool name = { name##_used, n, 0, 0 }

/* Takes the pool's memory from kernel/mm/frames.h; false when there is not enough. */
bool page_pool_init(struct page_pool *pool, unsigned block_pages);

/* A zeroed block, or NULL when all are in use. */
void *page_pool_alloc(struct page_pool *pool);

/* Give back a block from page_pool_alloc; NULL is ignored. */
void page_pool_free(struct page_pool *pool, void *block);

#endif
