/*
 * libFuzzer target: boot/multiboot1.c multiboot1_parse on arbitrary boot information, and for
 * what it accepts, boot/multiboot1_to_2.c's translation (with boot/acpi_rsdp.c's search of the
 * same memory), read back by boot/multiboot2.c, which must accept it and find the same
 * modules, loader name and command line (less the image path). The input is physical memory
 * from MEM_BASE on, with the info structure at MEM_BASE; nothing else is readable
 * (tests/fuzz/fake_boot_memory.h) but the memory lent for the translation, mapped below 4 GiB
 * (the info's address is 32-bit).
 *
 *   MEM_BASE                                          MEM_BASE + size
 *   | info | whatever the info's pointers find here ... |
 */
#define _GNU_SOURCE
#include <stdlib.h>
#include <sys/mman.h>

#include "boot/multiboot1.h"
#include "boot/multiboot1_to_2.h"
#include "boot/multiboot2.h"
#include "lib/cmdline.h"
#include "lib/errors.h"
#include "tests/fuzz/fake_boot_memory.h"

#define LENT_BYTES (4u << 20)

static uint8_t *lent;

static int lend(uint64_t size, uint64_t *addr)
{
	if (size > LENT_BYTES)
		return KS_ENOSPC;
	*addr = (uintptr_t)lent;
	return KS_OK;
}

/* The fuzzer's memory, and the lent memory where it lies. */
static const void *read_both(void *ctx, uint64_t addr, uint64_t len)
{
	uint64_t start = (uintptr_t)lent;
	if (addr >= start && addr - start <= LENT_BYTES && len <= LENT_BYTES - (addr - start))
		return (const void *)(uintptr_t)addr;
	struct fake_memory *input = ctx;
	return input->reader.read(input->reader.ctx, addr, len);
}

static void same_string(const char *a, const char *b)
{
	if (!a != !b || (a && strcmp(a, b) != 0))
		abort();
}

static void round_trip(struct fake_memory *mem, const struct boot_env *mb1)
{
	struct phys_reader reader = { .read = read_both, .ctx = mem };
	uint64_t out;
	const char *why;
	if (multiboot1_to_2(&reader, MEM_BASE, lend, &out, &why) != KS_OK)
		return;
	struct boot_env *mb2 = calloc(1, sizeof(*mb2));
	if (!mb2)
		abort();
	if (multiboot2_parse(&reader, (uint32_t)out, mb2) != KS_OK)
		abort(); /* the translation must be information a Multiboot 2 kernel can read */
	check_boot_env(mb2);
	same_string(mb2->loader_name, mb1->loader_name);
	same_string(mb2->cmdline,
		    mb1->cmdline ? mb1->cmdline + cmdline_image_path_length(mb1->cmdline) : NULL);
	if (mb2->module_count != mb1->module_count)
		abort();
	for (uint32_t i = 0; i < mb1->module_count; i++)
		if (mb2->modules[i].start != mb1->modules[i].start ||
		    mb2->modules[i].end != mb1->modules[i].end)
			abort();
	free(mb2);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (!lent) {
		lent = mmap(NULL, LENT_BYTES, PROT_READ | PROT_WRITE,
			    MAP_PRIVATE | MAP_ANONYMOUS | MAP_32BIT, -1, 0);
		if (lent == MAP_FAILED)
			abort();
	}
	struct fake_memory mem;
	fake_input(&mem, data, size);
	/* About 15 KB: kept off the stack, zeroed as multiboot1_parse requires. */
	struct boot_env *env = calloc(1, sizeof(*env));
	if (!env)
		abort();
	if (multiboot1_parse(&mem.reader, MEM_BASE, env) == KS_OK) {
		check_boot_env(env);
		round_trip(&mem, env);
	}
	fake_memory_free(&mem);
	free(env);
	return 0;
}
