/*
 * Unit tests for boot/multiboot1_to_2.c and boot/acpi_rsdp.c, with boot/multiboot2.c as the
 * reader: Multiboot 1 information, translated, must parse into the boot_env the Multiboot 1
 * parser makes of the original (the round trip), with GRUB's layout (8-byte aligned tags,
 * total_size, 24-byte map entries) and the RSDP found where a BIOS leaves it.
 *
 * Physical memory below 1 MiB is a buffer (the info where QEMU puts it, its strings, the EBDA
 * and the BIOS ROM); above, the reader maps one to one, for the lent memory (MAP_32BIT, since
 * the info's address is 32-bit).
 */
#define _GNU_SOURCE
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include <cmocka.h>

#include "boot/bootenv.h"
#include "boot/multiboot1.h"
#include "boot/multiboot1_to_2.h"
#include "boot/multiboot2.h"
#include "lib/errors.h"
#include "lib/unaligned.h"

#define LOW_END 0x100000u
#define INFO 0x9000u	 /* as QEMU's -kernel places it */
#define STRINGS 0x9800u
#define MMAP 0xa000u
#define MODS 0xa400u
#define EBDA_SEGMENT 0x9fc0u
#define EBDA (EBDA_SEGMENT << 4)
#define ROM_RSDP 0xf5a00u
#define LENT_BYTES 0x10000u
#define IMAGE_PATH "/boot/kernel.img"
#define ARGS "hello=world last"

static uint8_t *low;  /* physical [0, 1 MiB) */
static uint8_t *lent; /* what lend hands out */
static int lend_calls;

static const void *read_phys(void *ctx, uint64_t addr, uint64_t len)
{
	(void)ctx;
	if (addr < LOW_END)
		return len <= LOW_END - addr ? low + addr : NULL;
	uint64_t start = (uintptr_t)lent;
	return addr >= start && len <= start + LENT_BYTES - addr ? (const void *)(uintptr_t)addr
								   : NULL;
}

static const struct phys_reader mem = { read_phys, NULL };

static int lend(uint64_t size, uint64_t *addr)
{
	lend_calls++;
	if (size > LENT_BYTES)
		return KS_ENOSPC;
	*addr = (uintptr_t)lent;
	return KS_OK;
}

static int setup(void **state)
{
	(void)state;
	low = calloc(1, LOW_END);
	lent = mmap(NULL, LENT_BYTES, PROT_READ | PROT_WRITE,
		    MAP_PRIVATE | MAP_ANONYMOUS | MAP_32BIT, -1, 0);
	if (!low || lent == MAP_FAILED || (uintptr_t)lent < LOW_END)
		return -1;
	memset(lent, 0xee, LENT_BYTES);
	lend_calls = 0;
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	free(low);
	munmap(lent, LENT_BYTES);
	return 0;
}

static uint32_t string_at(uint32_t addr, const char *s)
{
	memcpy(low + addr, s, strlen(s) + 1);
	return addr;
}

static void checksum(uint8_t *p, uint32_t len, uint32_t at)
{
	uint8_t sum = 0;
	p[at] = 0;
	for (uint32_t i = 0; i < len; i++)
		sum = (uint8_t)(sum + p[i]);
	p[at] = (uint8_t)-sum;
}

/* An RSDP at addr: revision 0 (20 bytes) or 2 (36 bytes, extended checksum too). */
static void place_rsdp(uint32_t addr, uint8_t revision)
{
	uint8_t *r = low + addr;
	memcpy(r, "RSD PTR ", 8);
	memcpy(r + 9, "KSLIDE", 6);
	r[15] = revision;
	store_le32(r + 16, 0x7fe1234);
	checksum(r, 20, 8);
	if (revision >= 2) {
		store_le32(r + 20, 36);
		store_le64(r + 24, 0x7fe5678);
		checksum(r, 36, 32);
	}
}

/* QEMU's -kernel information: a map (one entry with a longer size field), the command line
 * after the image's path, its name, two modules, mem_lower/upper. */
static void place_mb1_info(void)
{
	uint8_t *i = low + INFO;
	store_le32(i + MB1_INFO_FLAGS, MB1_INFO_MEM | MB1_INFO_CMDLINE | MB1_INFO_MODS |
					       MB1_INFO_MMAP | MB1_INFO_LOADER_NAME);
	store_le32(i + 4, 639);
	store_le32(i + MB1_INFO_MEM_UPPER, 130048);
	store_le32(i + MB1_INFO_CMDLINE_ADDR, string_at(STRINGS, IMAGE_PATH " " ARGS));
	store_le32(i + MB1_INFO_LOADER_NAME_ADDR, string_at(STRINGS + 0x100, "qemu"));
	const uint64_t map[][3] = { { 0, 0x9fc00, 1 }, { 0x9fc00, 0x400, 2 },
				    { 0x100000, 0x7ee0000, 1 }, { 0xfffc0000, 0x40000, 2 } };
	uint32_t off = 0;
	for (unsigned e = 0; e < 4; e++) {
		uint32_t size = e == 2 ? 24 : 20; /* entries carry their own size */
		store_le32(low + MMAP + off, size);
		store_le64(low + MMAP + off + 4, map[e][0]);
		store_le64(low + MMAP + off + 12, map[e][1]);
		store_le32(low + MMAP + off + 20, (uint32_t)map[e][2]);
		off += size + 4;
	}
	store_le32(i + MB1_INFO_MMAP_LENGTH, off);
	store_le32(i + MB1_INFO_MMAP_ADDR, MMAP);
	store_le32(i + MB1_INFO_MODS_COUNT, 2);
	store_le32(i + MB1_INFO_MODS_ADDR, MODS);
	store_le32(low + MODS, 0x200000);
	store_le32(low + MODS + 4, 0x300000);
	store_le32(low + MODS + 8, string_at(STRINGS + 0x200, "/boot/module.bin crc32=0x1234"));
	store_le32(low + MODS + 16, 0x300000);
	store_le32(low + MODS + 20, 0x300123);
	store_le32(low + MODS + 24, 0); /* no string: an empty one in the tag */
	store_le16(low + 0x40e, EBDA_SEGMENT);
}

/* The translation's tags, walked as a kernel would: each 8-byte aligned, sizes inside
 * total_size, the end tag last. Returns how many of type `want` there are. */
static unsigned walk_tags(const uint8_t *info, uint32_t want)
{
	uint32_t total = load_le32(info), off = 8;
	unsigned found = 0;
	for (;;) {
		assert_int_equal(off % 8, 0);
		assert_true(off + 8 <= total);
		uint32_t type = load_le32(info + off), size = load_le32(info + off + 4);
		assert_true(size >= 8 && off + size <= total);
		found += type == want;
		if (type == MB2_INFO_TAG_MMAP) {
			assert_int_equal(load_le32(info + off + 8), 24);
			assert_int_equal((size - 16) % 24, 0);
		}
		if (type == MB2_INFO_TAG_END) {
			assert_int_equal(size, 8);
			assert_int_equal(off + 8, total);
			return found;
		}
		off += (size + 7) & ~7u;
	}
}

static void translate(struct boot_env *mb1, struct boot_env *mb2, const uint8_t **info)
{
	uint64_t out;
	const char *why = NULL;
	assert_int_equal(multiboot1_parse(&mem, INFO, mb1), KS_OK);
	assert_int_equal(multiboot1_to_2(&mem, INFO, lend, &out, &why), KS_OK);
	assert_int_equal(out, (uintptr_t)lent);
	assert_int_equal(multiboot2_parse(&mem, (uint32_t)out, mb2), KS_OK);
	*info = lent;
}

static void test_round_trip(void **state)
{
	(void)state;
	place_mb1_info();
	place_rsdp(ROM_RSDP, 0);
	static struct boot_env mb1, mb2;
	const uint8_t *info;
	translate(&mb1, &mb2, &info);

	assert_int_equal(mb2.map_count, 4);
	assert_int_equal(mb2.map_count, mb1.map_count);
	assert_memory_equal(mb2.map, mb1.map, sizeof(mb1.map[0]) * mb1.map_count);
	assert_string_equal(mb2.map_source, "mmap");
	assert_string_equal(mb1.cmdline, IMAGE_PATH " " ARGS);
	assert_string_equal(mb2.cmdline, ARGS); /* as GRUB's multiboot2 gives it */
	assert_string_equal(mb2.loader_name, mb1.loader_name);
	assert_int_equal(mb2.module_count, 2);
	for (unsigned m = 0; m < 2; m++) {
		assert_int_equal(mb2.modules[m].start, mb1.modules[m].start);
		assert_int_equal(mb2.modules[m].end, mb1.modules[m].end);
		const char *s1 = mb1.modules[m].cmdline
					 ? (const char *)low + mb1.modules[m].cmdline : "";
		assert_string_equal((const char *)(uintptr_t)mb2.modules[m].cmdline, s1);
	}
	assert_int_equal(mb2.acpi_rsdp_size, 20);
	assert_memory_equal((const void *)(uintptr_t)mb2.acpi_rsdp_copy, low + ROM_RSDP, 20);
	assert_int_equal(walk_tags(info, MB2_INFO_TAG_BASIC_MEMINFO), 1);
	assert_int_equal(walk_tags(info, MB2_INFO_TAG_ACPI_OLD), 1);
	assert_int_equal(walk_tags(info, MB2_INFO_TAG_ACPI_NEW), 0);
	assert_int_equal(lend_calls, 1);
}

/* The EBDA is searched first; a revision 2 RSDP goes in the new tag, whole. */
static void test_rsdp_in_ebda_revision_2(void **state)
{
	(void)state;
	place_mb1_info();
	place_rsdp(ROM_RSDP, 0);
	place_rsdp(EBDA + 0x30, 2);
	static struct boot_env mb1, mb2;
	const uint8_t *info;
	translate(&mb1, &mb2, &info);
	assert_int_equal(mb2.acpi_rsdp_size, 36);
	assert_memory_equal((const void *)(uintptr_t)mb2.acpi_rsdp_copy, low + EBDA + 0x30, 36);
	assert_int_equal(walk_tags(info, MB2_INFO_TAG_ACPI_OLD), 0);
	assert_int_equal(walk_tags(info, MB2_INFO_TAG_ACPI_NEW), 1);
}

/* A signature whose checksum fails is no RSDP; nor one off the 16-byte grid. */
static void test_rsdp_checksum_and_alignment(void **state)
{
	(void)state;
	place_mb1_info();
	place_rsdp(ROM_RSDP, 0);
	low[ROM_RSDP + 16]++;
	place_rsdp(ROM_RSDP + 0x108, 0);
	place_rsdp(EBDA + 0x40, 2);
	low[EBDA + 0x40 + 24]++; /* the extended checksum fails, the first one holds */
	static struct boot_env mb1, mb2;
	const uint8_t *info;
	translate(&mb1, &mb2, &info);
	assert_int_equal(mb2.acpi_rsdp_size, 0);
	assert_int_equal(walk_tags(info, MB2_INFO_TAG_ACPI_OLD) + walk_tags(info, MB2_INFO_TAG_ACPI_NEW),
			 0);
}

/* Only mem_lower/mem_upper: the basic meminfo tag, and the same map from it. */
static void test_meminfo_only(void **state)
{
	(void)state;
	store_le32(low + INFO + MB1_INFO_FLAGS, MB1_INFO_MEM);
	store_le32(low + INFO + MB1_INFO_MEM_UPPER, 65536);
	static struct boot_env mb1, mb2;
	const uint8_t *info;
	translate(&mb1, &mb2, &info);
	assert_int_equal(mb2.map_count, 1);
	assert_memory_equal(mb2.map, mb1.map, sizeof(mb1.map[0]));
	assert_null(mb2.cmdline);
	assert_null(mb2.loader_name);
	assert_int_equal(walk_tags(info, MB2_INFO_TAG_MMAP), 0);
	assert_int_equal(load_le32(info + 16), 0);     /* mem_lower */
	assert_int_equal(load_le32(info + 20), 65536); /* mem_upper */
}

/* Information the stub could not read is refused before anything is borrowed. */
static void test_unreadable_map(void **state)
{
	(void)state;
	place_mb1_info();
	store_le32(low + INFO + MB1_INFO_MMAP_ADDR, 0xfff00);
	store_le32(low + INFO + MB1_INFO_MMAP_LENGTH, 0x1000);
	uint64_t out;
	const char *why = NULL;
	assert_int_equal(multiboot1_to_2(&mem, INFO, lend, &out, &why), KS_EFORMAT);
	assert_non_null(why);
	assert_int_equal(lend_calls, 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_round_trip, setup, teardown),
		cmocka_unit_test_setup_teardown(test_rsdp_in_ebda_revision_2, setup, teardown),
		cmocka_unit_test_setup_teardown(test_rsdp_checksum_and_alignment, setup, teardown),
		cmocka_unit_test_setup_teardown(test_meminfo_only, setup, teardown),
		cmocka_unit_test_setup_teardown(test_unreadable_map, setup, teardown),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
