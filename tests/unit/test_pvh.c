/*
 * Unit tests for boot/pvh.c: hvm_start_info blocks built by hand, as QEMU's PVH option ROM
 * lays them out (start info, memory map, module list, strings in one low page), in a buffer
 * that stands in for physical memory, parsed into a struct boot_env.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "boot/bootenv.h"
#include "boot/pvh.h"
#include "lib/errors.h"
#include "tests/unit/support/fake_memory.h"

/*
 * Fake physical memory: MEM_SIZE bytes at MEM_BASE, nothing readable elsewhere.
 *
 *   MEM_BASE   + 0x100    + 0x400     + 0x800        + 0x900
 *   | start info | memory map | module list | strings ...
 */
#define MEM_BASE   0x6000u
#define MEM_SIZE   0x2000u
#define INFO	   MEM_BASE
#define MEMMAP	   (MEM_BASE + 0x100u)
#define MODLIST	   (MEM_BASE + 0x400u)
#define STRINGS	   (MEM_BASE + 0x800u)
#define RSDP	   (MEM_BASE + 0x1800u)
#define UNREADABLE 0x5000000u

#define ONE_MIB 0x100000u
#define RAM_END 0x8000000u /* -m 128M */
#define INITRD	0x7f00000u /* where QEMU puts an initrd: the top of low RAM */

struct fake {
	uint8_t mem[MEM_SIZE];
	struct fake_memory phys; /* reads mem */
	struct boot_env env;
};

static uint8_t *at(struct fake *f, uint64_t addr)
{
	return f->mem + (addr - MEM_BASE);
}

static void put32(uint8_t *p, uint32_t v)
{
	for (int i = 0; i < 4; i++)
		p[i] = (uint8_t)(v >> (8 * i));
}

static void put64(uint8_t *p, uint64_t v)
{
	put32(p, (uint32_t)v);
	put32(p + 4, (uint32_t)(v >> 32));
}

static void put_map_entry(struct fake *f, uint32_t i, uint64_t base, uint64_t size, uint32_t type)
{
	uint8_t *e = at(f, MEMMAP) + i * 24;
	put64(e, base);
	put64(e + 8, size);
	put32(e + 16, type);
}

static void put_module(struct fake *f, uint32_t i, uint64_t start, uint64_t size, uint64_t cmdline)
{
	uint8_t *m = at(f, MODLIST) + i * 32;
	put64(m, start);
	put64(m + 8, size);
	put64(m + 16, cmdline);
}

/* What QEMU's option ROM hands a -m 128M pc guest with -append and -initrd: version 1, its
 * e820 map, one module. */
static int setup(void **state)
{
	struct fake *f = calloc(1, sizeof(*f));
	if (!f)
		return -1;
	fake_memory_init(&f->phys, f->mem, MEM_BASE, MEM_SIZE);
	uint8_t *info = at(f, INFO);
	put32(info, 0x336ec578);
	put32(info + 4, 1);
	put32(info + 12, 1);
	put64(info + 16, MODLIST);
	put64(info + 24, STRINGS);
	put64(info + 32, RSDP);
	put64(info + 40, MEMMAP);
	put32(info + 48, 5);
	put_map_entry(f, 0, 0, 0x9fc00, 1);
	put_map_entry(f, 1, 0x9fc00, 0x400, 2);
	put_map_entry(f, 2, 0xf0000, 0x10000, 2);
	put_map_entry(f, 3, ONE_MIB, RAM_END - ONE_MIB - 0x20000, 1);
	put_map_entry(f, 4, 0xfffc0000, 0x40000, 2);
	put_module(f, 0, INITRD, 0x80000, 0);
	strcpy((char *)at(f, STRINGS), "console=ttyS0 kaslr");
	memcpy(at(f, RSDP), "RSD PTR ", 8);
	at(f, RSDP)[15] = 2; /* ACPI 2.0: 36 bytes */
	*state = f;
	return 0;
}

static int teardown(void **state)
{
	struct fake *f = *state;
	fake_memory_free(&f->phys);
	free(f);
	return 0;
}

static int parse(struct fake *f)
{
	memset(&f->env, 0, sizeof(f->env));
	return pvh_parse(&f->phys.reader, INFO, &f->env);
}

static int avoided(const struct boot_env *env, uint64_t start, uint64_t length)
{
	for (uint32_t i = 0; i < env->avoid_count; i++)
		if (env->avoid[i].start == start && env->avoid[i].length == length)
			return 1;
	return 0;
}

static void test_qemu_start_info_gives_its_map_cmdline_module_and_rsdp(void **state)
{
	struct fake *f = *state;
	assert_int_equal(parse(f), KS_OK);
	assert_null(f->env.why);
	assert_string_equal(f->env.map_source, "memmap");
	assert_int_equal(f->env.map_count, 5);
	assert_int_equal(f->env.map[3].base, ONE_MIB);
	assert_int_equal(f->env.map[3].length, RAM_END - ONE_MIB - 0x20000);
	assert_int_equal(f->env.map[3].type, KSLIDE_MEM_USABLE);
	assert_int_equal(f->env.map[1].type, KSLIDE_MEM_RESERVED);
	assert_string_equal(f->env.cmdline, "console=ttyS0 kaslr");
	assert_int_equal(f->env.cmdline_phys, STRINGS);
	assert_int_equal(f->env.module_count, 1);
	assert_int_equal(f->env.modules[0].start, INITRD);
	assert_int_equal(f->env.modules[0].end, INITRD + 0x80000);
	assert_int_equal(f->env.acpi_rsdp_copy, RSDP);
	assert_int_equal(f->env.acpi_rsdp_size, 36);
	assert_true(f->env.acpi_rsdp_kept); /* the monitor's own: Linux is given it as it lies */
}

static void test_everything_handed_over_is_avoided(void **state)
{
	struct fake *f = *state;
	assert_int_equal(parse(f), KS_OK);
	assert_true(avoided(&f->env, INFO, 56));
	assert_true(avoided(&f->env, MEMMAP, 5 * 24));
	assert_true(avoided(&f->env, MODLIST, 32));
	assert_true(avoided(&f->env, INITRD, 0x80000));
	assert_true(avoided(&f->env, STRINGS, strlen("console=ttyS0 kaslr") + 1));
}

static void test_types_beyond_e820_are_not_ram(void **state)
{
	struct fake *f = *state;
	put_map_entry(f, 2, 0xf0000, 0x10000, 7);    /* persistent memory */
	put_map_entry(f, 4, 0xfffc0000, 0x40000, 6); /* disabled */
	assert_int_equal(parse(f), KS_OK);
	assert_int_equal(f->env.map[2].type, KSLIDE_MEM_RESERVED);
	assert_int_equal(f->env.map[4].type, KSLIDE_MEM_RESERVED);
}

static void test_no_cmdline_and_no_modules_are_fine(void **state)
{
	struct fake *f = *state;
	put64(at(f, INFO) + 24, 0);
	put32(at(f, INFO) + 12, 0);
	put64(at(f, INFO) + 16, 0);
	put64(at(f, INFO) + 32, 0);
	assert_int_equal(parse(f), KS_OK);
	assert_null(f->env.cmdline);
	assert_int_equal(f->env.module_count, 0);
	assert_int_equal(f->env.acpi_rsdp_copy, 0);
}

static void expect_refusal(struct fake *f, int rc, const char *why)
{
	assert_int_equal(parse(f), rc);
	assert_non_null(f->env.why);
	assert_non_null(strstr(f->env.why, why));
}

static void test_wrong_magic_is_refused_by_name(void **state)
{
	struct fake *f = *state;
	put32(at(f, INFO), 0x2badb002);
	expect_refusal(f, KS_EFORMAT, "magic is not 0x336ec578");
}

static void test_version_2_is_refused_by_name(void **state)
{
	struct fake *f = *state;
	put32(at(f, INFO) + 4, 2);
	expect_refusal(f, KS_EFORMAT, "version newer than 1");
}

static void test_version_0_has_no_memory_map_and_is_refused(void **state)
{
	struct fake *f = *state;
	put32(at(f, INFO) + 4, 0);
	expect_refusal(f, KS_EFORMAT, "no memory map");
}

static void test_version_1_without_a_map_is_refused(void **state)
{
	struct fake *f = *state;
	put32(at(f, INFO) + 48, 0);
	expect_refusal(f, KS_EFORMAT, "no memory map");
	put32(at(f, INFO) + 48, 5);
	put64(at(f, INFO) + 40, 0);
	expect_refusal(f, KS_EFORMAT, "no memory map");
}

static void test_module_beyond_ram_is_refused_by_name(void **state)
{
	struct fake *f = *state;
	put_module(f, 0, RAM_END - 0x1000, 0x2000, 0); /* runs past the last RAM byte */
	expect_refusal(f, KS_EFORMAT, "module lies beyond RAM");
	put_module(f, 0, 0x9fc00, 0x100, 0); /* in reserved memory */
	expect_refusal(f, KS_EFORMAT, "module lies beyond RAM");
	put_module(f, 0, UINT64_MAX - 0xfff, 0x2000, 0); /* wraps */
	expect_refusal(f, KS_EFORMAT, "module lies beyond RAM");
}

static void test_unreadable_parts_are_refused(void **state)
{
	struct fake *f = *state;
	assert_int_equal(pvh_parse(&f->phys.reader, UNREADABLE, &f->env), KS_EFORMAT);
	assert_non_null(f->env.why);
	put64(at(f, INFO) + 40, UNREADABLE);
	expect_refusal(f, KS_EFORMAT, "memory map unreadable");
	put64(at(f, INFO) + 40, MEMMAP);
	put64(at(f, INFO) + 16, UNREADABLE);
	expect_refusal(f, KS_EFORMAT, "module list unreadable");
	put64(at(f, INFO) + 16, MODLIST);
	memset(at(f, STRINGS), 'x', MEM_SIZE - (STRINGS - MEM_BASE)); /* no NUL before the end */
	expect_refusal(f, KS_EFORMAT, "command line");
}

static void test_more_modules_than_the_table_is_no_space(void **state)
{
	struct fake *f = *state;
	put32(at(f, INFO) + 12, BOOTENV_MODULES_MAX + 1);
	expect_refusal(f, KS_ENOSPC, "more modules");
	assert_int_equal(f->env.modules_given, BOOTENV_MODULES_MAX + 1);
}

static void test_map_entry_wrapping_is_refused(void **state)
{
	struct fake *f = *state;
	put_map_entry(f, 4, 0xfffc0000, UINT64_MAX, 2);
	expect_refusal(f, KS_EFORMAT, "wraps");
}

#define T(fn) cmocka_unit_test_setup_teardown(fn, setup, teardown)

int main(void)
{
	const struct CMUnitTest tests[] = {
		T(test_qemu_start_info_gives_its_map_cmdline_module_and_rsdp),
		T(test_everything_handed_over_is_avoided),
		T(test_types_beyond_e820_are_not_ram),
		T(test_no_cmdline_and_no_modules_are_fine),
		T(test_wrong_magic_is_refused_by_name),
		T(test_version_2_is_refused_by_name),
		T(test_version_0_has_no_memory_map_and_is_refused),
		T(test_version_1_without_a_map_is_refused),
		T(test_module_beyond_ram_is_refused_by_name),
		T(test_unreadable_parts_are_refused),
		T(test_more_modules_than_the_table_is_no_space),
		T(test_map_entry_wrapping_is_refused),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
