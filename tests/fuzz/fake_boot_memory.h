/*
 * What the boot-information fuzz targets share: physical memory from MEM_BASE on, served from
 * the fuzzer's input, and the invariants any parser's boot_env must hold. Each read gets an
 * exact-length heap copy, so ASan catches a parser reading past what it asked for, not just
 * past the input. For one harness file per target: everything here is static.
 */
#ifndef KSLIDE_TESTS_FUZZ_FAKE_BOOT_MEMORY_H
#define KSLIDE_TESTS_FUZZ_FAKE_BOOT_MEMORY_H

#include <stdlib.h>
#include <string.h>

#include "boot/bootenv.h"

#define MEM_BASE 0x1000u

struct fake_mem {
	const uint8_t *data;
	size_t size;
	void **copies; /* live until the parse result has been checked: env points into them */
	size_t count, cap;
};

static const void *fake_read(void *ctx, uint64_t addr, uint64_t len)
{
	struct fake_mem *m = ctx;
	if (addr < MEM_BASE || addr - MEM_BASE > m->size || len > m->size - (addr - MEM_BASE))
		return NULL;
	if (m->count == m->cap) {
		size_t cap = m->cap ? 2 * m->cap : 64;
		void **c = realloc(m->copies, cap * sizeof(*c));
		if (!c)
			abort();
		m->copies = c;
		m->cap = cap;
	}
	void *copy = malloc(len ? len : 1);
	if (!copy)
		abort();
	memcpy(copy, m->data + (addr - MEM_BASE), len);
	m->copies[m->count++] = copy;
	return copy;
}

static void fake_mem_free(struct fake_mem *m)
{
	for (size_t i = 0; i < m->count; i++)
		free(m->copies[i]);
	free(m->copies);
}

/* A string the parser returned must be NUL-terminated within what it read. */
static void check_string(const char *s)
{
	if (s)
		(void)strlen(s); /* ASan reports a missing terminator */
}

/* What every parser's successful result must satisfy. */
static void check_boot_env(const struct boot_env *env)
{
	if (env->map_count > BOOTENV_MAP_MAX || env->avoid_count > BOOTENV_AVOID_MAX ||
	    env->module_count > BOOTENV_MODULES_MAX)
		abort();
	for (uint32_t i = 0; i < env->module_count; i++)
		if (env->modules[i].end < env->modules[i].start)
			abort();
	for (uint32_t i = 0; i < env->avoid_count; i++)
		if (env->avoid[i].length == 0)
			abort(); /* bootenv_avoid drops empty ranges */
	check_string(env->cmdline);
	check_string(env->loader_name);
}

#endif
