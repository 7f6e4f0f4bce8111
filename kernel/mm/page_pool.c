/* kernel/mm/page_pool.h: first free block, zeroed. */
#include <stddef.h>
#include <stdint.h>

#include "kernel/mm/frames.h"
#include "kernel/mm/page_pool.h"
#include "lib/string.h"

bool page_pool_init(struct page_pool *pool, unsigned block_pages)
{
	pool->block_pages = block_pages;
	pool->base = frames_alloc((size_t)pool->count * block_pages, block_pages);
	return pool->base != NULL;
}

static size_t block_bytes(const struct page_pool *pool)
{
	return (size_t)pool->block_pages * PAGE_SIZE;
}

void *page_pool_alloc(struct page_pool *pool)
{
	for (unsigned i = 0; i < pool->count; i++)
		if (!pool->used[i]) {
			pool->used[i] = true;
			return memset(pool->base + i * block_bytes(pool), 0, block_bytes(pool));
		}
	return NULL;
}

void page_pool_free(struct page_pool *pool, void *block)
{
	if (block)
		pool->used[((uint8_t *)block - pool->base) / block_bytes(pool)] = false;
}
