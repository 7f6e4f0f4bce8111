/*
 * libFuzzer target: boot/multiboot2.c multiboot2_parse on arbitrary Multiboot2 tag lists. The
 * input is physical memory from MEM_BASE on, with the info structure at MEM_BASE; nothing else
 * is readable (tests/fuzz/fake_boot_memory.h).
 *
 *   MEM_BASE                                             MEM_BASE + size
 *   | total_size | reserved | tag | tag | ... | end tag | (rest ignored) |
 */
#include <stdlib.h>

#include "boot/multiboot2.h"
#include "lib/errors.h"
#include "tests/fuzz/fake_boot_memory.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void check_env(const struct boot_env *env)
{
	check_boot_env(env);
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
	struct fake_memory mem;
	fake_input(&mem, data, size);
	/* About 15 KB: kept off the stack, zeroed as multiboot2_parse requires. */
	struct boot_env *env = calloc(1, sizeof(*env));
	if (!env)
		abort();
	if (multiboot2_parse(&mem.reader, MEM_BASE, env) == KS_OK)
		check_env(env);
	else if (!env->why)
		abort(); /* every failure says why, for the console */
	fake_memory_free(&mem);
	free(env);
	return 0;
}
