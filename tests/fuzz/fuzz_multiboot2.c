/*
 * libFuzzer target: boot/multiboot2.c multiboot2_parse on arbitrary Multiboot2 tag lists. The
 * input is physical memory from MEM_BASE on, with the info structure at MEM_BASE; nothing else
 * is readable. Each read gets an exact-length heap copy, so ASan catches a parser reading past
 * what it asked for, not just past the input.
 *
 *   MEM_BASE                                             MEM_BASE + size
 *   | total_size | reserved | tag | tag | ... | end tag | (rest ignored) |
 */
#include <stdlib.h>
#include <string.h>

#include "boot/bootenv.h"
#include "boot/multiboot2.h"
#include "lib/errors.h"

#define MEM_BASE 0x1000u

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

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

/* A string the parser returned must be NUL-terminated within what it read. */
static void check_string(const char *s)
{
	if (s)
		(void)strlen(s); /* ASan reports a missing terminator */
}

static void check_env(const struct boot_env *env)
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
	/* Every string lies in the structure, which is always the first range avoided. */
	const struct mem_range *info = &env->avoid[0];
	if (env->avoid_count == 0)
		abort();
	if (env->cmdline && (env->cmdline_phys < info->start ||
			     env->cmdline_phys - info->start >= info->length))
		abort();
	for (uint32_t i = 0; i < env->module_count; i++)
		if (env->modules[i].cmdline < info->start ||
		    env->modules[i].cmdline - info->start >= info->length)
			abort();
	if (env->why)
		abort(); /* a reason only comes with a failure */
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct fake_mem mem = { .data = data, .size = size };
	struct phys_reader reader = { .read = fake_read, .ctx = &mem };
	/* About 15 KB: kept off the stack, zeroed as multiboot2_parse requires. */
	struct boot_env *env = calloc(1, sizeof(*env));
	if (!env)
		abort();
	if (multiboot2_parse(&reader, MEM_BASE, env) == KS_OK)
		check_env(env);
	else if (!env->why)
		abort(); /* every failure says why, for the console */
	for (size_t i = 0; i < mem.count; i++)
		free(mem.copies[i]);
	free(mem.copies);
	free(env);
	return 0;
}
