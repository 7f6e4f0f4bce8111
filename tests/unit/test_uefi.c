/*
 * Unit tests for boot/uefi.c: EFI memory maps built by hand as OVMF returns them (48-byte
 * descriptors, wider than the specification's 40), read after ExitBootServices.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "boot/bootenv.h"
#include "boot/uefi.h"
#include "lib/errors.h"
#include "lib/unaligned.h"

#define OVMF_DESC_SIZE 48
#define MAX_DESCS      8

static struct boot_env env;
static uint8_t map[MAX_DESCS * OVMF_DESC_SIZE];

static void put(int i, uint32_t type, uint64_t base, uint64_t pages)
{
	uint8_t *d = map + i * OVMF_DESC_SIZE;
	store_le32(d + EFI_MD_TYPE, type);
	store_le64(d + EFI_MD_PHYSICAL_START, base);
	store_le64(d + EFI_MD_NUMBER_OF_PAGES, pages);
}

static int setup(void **state)
{
	(void)state;
	memset(&env, 0, sizeof(env));
	memset(map, 0xa5, sizeof(map)); /* the bytes past the 40 the specification names */
	return 0;
}

static void test_boot_services_and_loader_memory_are_usable_after_exit(void **state)
{
	(void)state;
	put(0, EFI_BOOT_SERVICES_CODE, 0, 0xa0);
	put(1, EFI_CONVENTIONAL_MEMORY, 0x100000, 0x700);
	put(2, EFI_LOADER_CODE, 0x800000, 0x50);
	put(3, EFI_BOOT_SERVICES_DATA, 0x850000, 0x10);
	put(4, EFI_LOADER_DATA, 0x860000, 0x1);
	assert_int_equal(uefi_parse_memory_map(map, 5 * OVMF_DESC_SIZE, OVMF_DESC_SIZE, &env),
			 KS_OK);
	/* The last four follow one another: one usable entry, as Linux's setup_e820 merges;
	 * the first ends at 640 KiB, apart. */
	assert_int_equal(env.map_count, 2);
	for (uint32_t i = 0; i < 2; i++)
		assert_int_equal(env.map[i].type, KSLIDE_MEM_USABLE);
	assert_int_equal(env.map[0].length, 0xa0 * EFI_PAGE_SIZE);
	assert_int_equal(env.map[1].base, 0x100000);
	assert_int_equal(env.map[1].length, (0x700 + 0x50 + 0x10 + 0x1) * EFI_PAGE_SIZE);
	assert_string_equal(env.map_source, "EFI memory map");
}

static void test_runtime_acpi_and_unknown_memory_are_not_ram(void **state)
{
	(void)state;
	put(0, 5 /* EfiRuntimeServicesCode */, 0x7f000000, 0x100);
	put(1, 6 /* EfiRuntimeServicesData */, 0x7f100000, 0x100);
	put(2, EFI_ACPI_RECLAIM_MEMORY, 0x7f200000, 0x10);
	put(3, EFI_ACPI_MEMORY_NVS, 0x7f210000, 0x10);
	put(4, EFI_UNUSABLE_MEMORY, 0x7f220000, 0x10);
	put(5, 11 /* EfiMemoryMappedIO */, 0xffc00000, 0x400);
	put(6, 0x70000000 /* OEM-defined */, 0x7f230000, 0x1);
	assert_int_equal(uefi_parse_memory_map(map, 7 * OVMF_DESC_SIZE, OVMF_DESC_SIZE, &env),
			 KS_OK);
	/* Runtime code and data follow one another, both reserved: one entry. Touching
	 * entries of different types and same-typed ones apart stay apart. */
	uint32_t want[] = {KSLIDE_MEM_RESERVED, KSLIDE_MEM_ACPI_RECLAIMABLE, KSLIDE_MEM_ACPI_NVS,
			   KSLIDE_MEM_BAD,	KSLIDE_MEM_RESERVED,	     KSLIDE_MEM_RESERVED};
	assert_int_equal(env.map_count, 6);
	for (uint32_t i = 0; i < 6; i++)
		assert_int_equal(env.map[i].type, want[i]);
	assert_int_equal(env.map[0].length, 0x200 * EFI_PAGE_SIZE);
}

static void test_a_partial_descriptor_at_the_end_is_ignored(void **state)
{
	(void)state;
	put(0, EFI_CONVENTIONAL_MEMORY, 0x100000, 0x10);
	put(1, EFI_CONVENTIONAL_MEMORY, 0x200000, 0x10);
	assert_int_equal(uefi_parse_memory_map(map, 2 * OVMF_DESC_SIZE - 1, OVMF_DESC_SIZE, &env),
			 KS_OK);
	assert_int_equal(env.map_count, 1);
}

static void test_descriptors_smaller_than_the_specification_are_refused(void **state)
{
	(void)state;
	assert_int_equal(uefi_parse_memory_map(map, sizeof(map), EFI_MD_SIZE - 8, &env),
			 KS_EFORMAT);
	assert_non_null(env.why);
	assert_int_equal(env.map_count, 0);
}

static void test_a_region_that_wraps_around_is_refused(void **state)
{
	(void)state;
	put(0, EFI_CONVENTIONAL_MEMORY, 0xfffffffffff00000u, 0x101);
	assert_int_equal(uefi_parse_memory_map(map, OVMF_DESC_SIZE, OVMF_DESC_SIZE, &env),
			 KS_EFORMAT);
	assert_string_equal(env.why, "EFI memory descriptor wraps around");
}

#define T(fn) cmocka_unit_test_setup(fn, setup)
int main(void)
{
	const struct CMUnitTest tests[] = {
		T(test_boot_services_and_loader_memory_are_usable_after_exit),
		T(test_runtime_acpi_and_unknown_memory_are_not_ram),
		T(test_a_partial_descriptor_at_the_end_is_ignored),
		T(test_descriptors_smaller_than_the_specification_are_refused),
		T(test_a_region_that_wraps_around_is_refused),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
