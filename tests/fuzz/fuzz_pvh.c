/*
 * libFuzzer target: boot/pvh.c pvh_parse on arbitrary memory. The input is physical memory
 * from MEM_BASE on, with the hvm_start_info at MEM_BASE; its addresses point anywhere, and
 * only the input is readable (tests/fuzz/fake_boot_memory.h).
 *
 *   MEM_BASE                                                     MEM_BASE + size
 *   | start info (56 bytes) | memory map, module list, strings, anywhere after |
 */
#include <stdlib.h>

#include "boot/pvh.h"
#include "lib/errors.h"
#include "tests/fuzz/fake_boot_memory.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Beyond every parser's rules: a module the parser kept lies inside a usable map entry. */
static void check_env(const struct boot_env *env)
{
	check_boot_env(env);
	if (env->map_count == 0 || env->avoid_count == 0 || env->why)
		abort(); /* a map is required; the start info is always avoided; why only on failure
			  */
	for (uint32_t i = 0; i < env->module_count; i++) {
		const struct kslide_module *m = &env->modules[i];
		int inside = 0;
		for (uint32_t j = 0; j < env->map_count; j++) {
			const struct kslide_mem_entry *e = &env->map[j];
			if (e->type == KSLIDE_MEM_USABLE && m->start >= e->base &&
			    m->end - e->base <= e->length)
				inside = 1;
		}
		if (!inside)
			abort();
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct fake_memory mem;
	fake_input(&mem, data, size);
	/* About 15 KB: kept off the stack, zeroed as pvh_parse requires. */
	struct boot_env *env = calloc(1, sizeof(*env));
	if (!env)
		abort();
	if (pvh_parse(&mem.reader, MEM_BASE, env) == KS_OK)
		check_env(env);
	else if (!env->why)
		abort(); /* every failure says why, for the console */
	fake_memory_free(&mem);
	free(env);
	return 0;
}
