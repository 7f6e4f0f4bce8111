#include "tests/unit/support/fake_memory.h"

#include <stdlib.h>
#include <string.h>

static const void *fake_memory_read(void *ctx, uint64_t addr, uint64_t len)
{
	struct fake_memory *m = ctx;
	if (addr < m->base || addr - m->base > m->size || len > m->size - (addr - m->base))
		return NULL;
	if (m->count == m->cap) {
		size_t cap = m->cap ? 2 * m->cap : 64;
		void **copies = realloc(m->copies, cap * sizeof(*copies));
		if (!copies)
			abort();
		m->copies = copies;
		m->cap = cap;
	}
	void *copy = malloc(len ? len : 1);
	if (!copy)
		abort();
	memcpy(copy, m->mem + (addr - m->base), len);
	m->copies[m->count++] = copy;
	return copy;
}

void fake_memory_init(struct fake_memory *m, const uint8_t *mem, uint64_t base, uint64_t size)
{
	*m = (struct fake_memory){ .mem = mem, .base = base, .size = size };
	m->reader.read = fake_memory_read;
	m->reader.ctx = m;
}

void fake_memory_free(struct fake_memory *m)
{
	for (size_t i = 0; i < m->count; i++)
		free(m->copies[i]);
	free(m->copies);
	fake_memory_init(m, m->mem, m->base, m->size);
}
