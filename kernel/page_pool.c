/* kernel/page_pool.h: first free page, zeroed. */
#include <stddef.h>
#include <stdint.h>

#include "kernel/page_pool.h"

void *memset(void *dst, int c, size_t n);

void *page_pool_alloc(struct page_pool *pool)
{
	for (unsigned i = 0; i < pool->count; i++)
		if (!pool->used[i]) {
			pool->used[i] = true;
			return memset(pool->pages[i], 0, PAGE_SIZE);
		}
	return NULL;
}

void page_pool_free(struct page_pool *pool, void *page)
{
	if (page)
		pool->used[(uint8_t(*)[PAGE_SIZE])page - pool->pages] = false;
}
