/*
 * libFuzzer target: boot/multiboot1.c multiboot1_parse on arbitrary boot information. The
 * input is physical memory from MEM_BASE on, with the info structure at MEM_BASE; nothing else
 * is readable (tests/fuzz/fake_boot_memory.h).
 *
 *   MEM_BASE                                          MEM_BASE + size
 *   | info | whatever the info's pointers find here ... |
 */
#include <stdlib.h>

#include "boot/multiboot1.h"
#include "lib/errors.h"
#include "tests/fuzz/fake_boot_memory.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct fake_mem mem = { .data = data, .size = size };
	struct phys_reader reader = { .read = fake_read, .ctx = &mem };
	/* About 15 KB: kept off the stack, zeroed as multiboot1_parse requires. */
	struct boot_env *env = calloc(1, sizeof(*env));
	if (!env)
		abort();
	if (multiboot1_parse(&reader, MEM_BASE, env) == KS_OK)
		check_boot_env(env);
	fake_mem_free(&mem);
	free(env);
	return 0;
}
