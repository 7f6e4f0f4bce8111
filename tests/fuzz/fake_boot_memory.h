/*
 * What the boot-information fuzz targets share: physical memory from MEM_BASE on, served from
 * the fuzzer's input (the unit tests' fake memory: each read an exact-length heap copy, so ASan
 * catches a parser reading past what it asked for, not just past the input), and the
 * invariants any parser's boot_env must hold. For one harness file per target: everything
 * here is static.
 */
#ifndef KSLIDE_TESTS_FUZZ_FAKE_BOOT_MEMORY_H
#define KSLIDE_TESTS_FUZZ_FAKE_BOOT_MEMORY_H

#include <stdlib.h>
#include <string.h>

#include "boot/bootenv.h"
#include "tests/unit/support/fake_memory.h"

#define MEM_BASE 0x1000u

/* Serve the fuzzer's input at MEM_BASE through m->reader (tests/unit/support/fake_memory.c). */
static void fake_input(struct fake_memory *m, const uint8_t *data, size_t size)
{
	fake_memory_init(m, data, MEM_BASE, size);
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
