/*
 * A fixed set of page-aligned pages in .bss, handed out zeroed: the user address spaces' page
 * tables and pages on both arches. Zeroing on the way out means no kernel data (and no kernel
 * address) survives into a process.
 */
#ifndef KSLIDE_KERNEL_PAGE_POOL_H
#define KSLIDE_KERNEL_PAGE_POOL_H

#include <stdbool.h>

#include "kernel/layout.h"

struct page_pool {
	uint8_t (*pages)[PAGE_SIZE];
	bool *used;
	unsigned count;
};

/* Defines a static pool called name with n pages. */
#define PAGE_POOL(name, n)                                                                     \
	static uint8_t name##_pages[n][PAGE_SIZE] __attribute__((aligned(PAGE_SIZE)));          \
	static bool name##_used[n];                                                            \
	static struct page_pool name = { name##_pages, name##_used, n }

/* A zeroed page, or NULL when all are in use. */
void *page_pool_alloc(struct page_pool *pool);

/* Give back a page from page_pool_alloc; NULL is ignored. */
void page_pool_free(struct page_pool *pool, void *page);

#endif
