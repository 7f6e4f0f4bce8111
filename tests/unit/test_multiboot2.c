/*
 * Unit tests for boot/multiboot2.c: Multiboot2 tag lists, built tag by tag in a buffer that
 * stands in for physical memory, parsed into a struct boot_env.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "boot/bootenv.h"
#include "boot/multiboot2.h"
#include "lib/errors.h"
#include "tests/unit/support/fake_memory.h"

/*
 * Fake physical memory: MEM_SIZE bytes at MEM_BASE, nothing readable elsewhere. The info
 * structure starts at MEM_BASE; tags are appended to it one by one, as GRUB writes them.
 *
 *   0x10000                                                           0x10000 + MEM_SIZE
 *   | total_size | reserved | tag | tag | ... | end tag |   (unused) ... |
 */
#define MEM_BASE   0x10000u
#define MEM_SIZE   0x8000u
#define INFO_ADDR  MEM_BASE
#define UNREADABLE 0x5000000u

/* Multiboot2 specification 2.0, section 3.6: tag types. */
#define TAG_END		  0
#define TAG_CMDLINE	  1
#define TAG_LOADER_NAME	  2
#define TAG_MODULE	  3
#define TAG_BASIC_MEMINFO 4
#define TAG_MMAP	  6
#define TAG_ELF_SECTIONS  9
#define TAG_EFI32	  11
#define TAG_EFI64	  12
#define TAG_ACPI_OLD	  14
#define TAG_ACPI_NEW	  15
#define TAG_EFI_MMAP	  17
#define TAG_EFI_BS	  18
#define TAG_LOAD_BASE	  21

#define MMAP_ENTRY_SIZE 24u /* what GRUB writes: base, length, type, reserved */
#define EFI_DESC_SIZE	48u /* what OVMF reports: 40 bytes of fields, padded */
#define ONE_MIB		0x100000u

/* UEFI memory types (UEFI 2.10, 7.2). */
enum {
	EFI_RESERVED,
	EFI_LOADER_CODE,
	EFI_LOADER_DATA,
	EFI_BS_CODE,
	EFI_BS_DATA,
	EFI_RT_CODE,
	EFI_RT_DATA,
	EFI_CONVENTIONAL,
	EFI_UNUSABLE,
	EFI_ACPI_RECLAIM,
	EFI_ACPI_NVS,
	EFI_MMIO,
};

struct fake {
	uint8_t mem[MEM_SIZE];
	uint32_t next; /* where the next tag goes, offset into mem */
	struct fake_memory phys; /* reads mem */
	struct boot_env env;
};

struct range {
	uint64_t base, length;
	uint32_t type;
};

static int setup(void **state)
{
	struct fake *f = calloc(1, sizeof(*f));
	if (!f)
		return -1;
	f->next = 8; /* after total_size and reserved */
	fake_memory_init(&f->phys, f->mem, MEM_BASE, MEM_SIZE);
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

/* Append a tag of 8 + len bytes, padded to 8 with 0xee; returns its physical address. */
static uint32_t add_tag(struct fake *f, uint32_t type, const void *data, uint32_t len)
{
	uint32_t padded = (8 + len + 7) & ~7u;
	assert_true(f->next + padded <= MEM_SIZE);
	uint8_t *t = f->mem + f->next;
	memset(t, 0xee, padded);
	put32(t, type);
	put32(t + 4, 8 + len);
	if (len)
		memcpy(t + 8, data, len);
	uint32_t addr = MEM_BASE + f->next;
	f->next += padded;
	return addr;
}

static uint32_t add_string(struct fake *f, uint32_t type, const char *s)
{
	return add_tag(f, type, s, (uint32_t)strlen(s) + 1);
}

static uint32_t add_module(struct fake *f, uint32_t start, uint32_t end, const char *s)
{
	uint8_t data[256];
	size_t len = strlen(s) + 1;
	assert_true(8 + len <= sizeof(data));
	put32(data, start);
	put32(data + 4, end);
	memcpy(data + 8, s, len);
	return add_tag(f, TAG_MODULE, data, (uint32_t)(8 + len));
}

static void add_meminfo(struct fake *f, uint32_t lower_kib, uint32_t upper_kib)
{
	uint8_t data[8];
	put32(data, lower_kib);
	put32(data + 4, upper_kib);
	add_tag(f, TAG_BASIC_MEMINFO, data, sizeof(data));
}

/* An mmap tag (e820 types) with entry_size >= 24; extra bytes per entry are 0xee. */
static uint32_t add_mmap(struct fake *f, const struct range *r, uint32_t n, uint32_t entry_size)
{
	static uint8_t data[MEM_SIZE];
	uint32_t len = 8 + n * entry_size;
	assert_true(len <= sizeof(data));
	memset(data, 0xee, len);
	put32(data, entry_size);
	put32(data + 4, 0);
	for (uint32_t i = 0; i < n; i++) {
		uint8_t *e = data + 8 + i * entry_size;
		put64(e, r[i].base);
		put64(e + 8, r[i].length);
		put32(e + 16, r[i].type);
		put32(e + 20, 0);
	}
	return add_tag(f, TAG_MMAP, data, len);
}

/* An EFI memory map tag: r[i].length counts 4 KiB pages, r[i].type is an EFI type. */
static uint32_t add_efi_mmap(struct fake *f, const struct range *r, uint32_t n, uint32_t desc_size)
{
	static uint8_t data[MEM_SIZE];
	uint32_t len = 8 + n * desc_size;
	assert_true(len <= sizeof(data));
	memset(data, 0xee, len);
	put32(data, desc_size);
	put32(data + 4, 1);
	for (uint32_t i = 0; i < n; i++) {
		uint8_t *d = data + 8 + i * desc_size;
		put32(d, r[i].type);
		put32(d + 4, 0);
		put64(d + 8, r[i].base);
		put64(d + 16, 0);
		put64(d + 24, r[i].length);
		put64(d + 32, 0xf);
	}
	return add_tag(f, TAG_EFI_MMAP, data, len);
}

/* The end tag, and total_size; returns total_size. */
static uint32_t finish(struct fake *f)
{
	add_tag(f, TAG_END, NULL, 0);
	put32(f->mem, f->next);
	put32(f->mem + 4, 0);
	return f->next;
}

static int parse(struct fake *f)
{
	return multiboot2_parse(&f->phys.reader, INFO_ADDR, &f->env);
}

static void assert_avoided(const struct boot_env *env, uint64_t start, uint64_t length)
{
	for (uint32_t i = 0; i < env->avoid_count; i++)
		if (env->avoid[i].start == start && env->avoid[i].length == length)
			return;
	fail_msg("range [%#llx, +%#llx) is not in the avoid list", (unsigned long long)start,
		 (unsigned long long)length);
}

/* Some avoided range covers [start, start + length). */
static void assert_covered(const struct boot_env *env, uint64_t start, uint64_t length)
{
	for (uint32_t i = 0; i < env->avoid_count; i++)
		if (env->avoid[i].start <= start &&
		    start + length <= env->avoid[i].start + env->avoid[i].length)
			return;
	fail_msg("[%#llx, +%#llx) is not covered by an avoided range", (unsigned long long)start,
		 (unsigned long long)length);
}

static void assert_map_entry(const struct boot_env *env, uint32_t i, uint64_t base, uint64_t length,
			     uint32_t type)
{
	assert_true(i < env->map_count);
	assert_int_equal(env->map[i].base, base);
	assert_int_equal(env->map[i].length, length);
	assert_int_equal(env->map[i].type, type);
}

/* The string the parser pointed at, read back from fake memory by physical address. */
static const char *phys_string(const struct fake *f, uint64_t addr)
{
	assert_true(addr >= MEM_BASE && addr < MEM_BASE + MEM_SIZE);
	return (const char *)f->mem + (addr - MEM_BASE);
}

static void assert_rejected(struct fake *f, int rc)
{
	assert_int_equal(parse(f), rc);
	assert_non_null(f->env.why);
}

/* ---- well-formed information ---- */

static const struct range seabios_map[] = {
	{0x0, 0x9fc00, KSLIDE_MEM_USABLE},
	{0x9fc00, 0x400, KSLIDE_MEM_RESERVED},
	{0xf0000, 0x10000, KSLIDE_MEM_RESERVED},
	{0x100000, 0x7ee0000, KSLIDE_MEM_USABLE},
	{0x7fe0000, 0x20000, KSLIDE_MEM_RESERVED},
	{0xfffc0000, 0x40000, KSLIDE_MEM_RESERVED},
	{0x100000000ull, 0x40000000ull, KSLIDE_MEM_USABLE},
};
#define SEABIOS_MAP_LEN (sizeof(seabios_map) / sizeof(seabios_map[0]))

static void test_grub_bios_info_fills_map_modules_strings_and_avoid_list(void **state)
{
	struct fake *f = *state;
	uint8_t base[4];
	put32(base, 0x100000);
	add_tag(f, TAG_LOAD_BASE, base, sizeof(base)); /* unknown to the parser: skipped */
	uint32_t cmdline = add_string(f, TAG_CMDLINE, "console=ttyS0 kaslr");
	uint32_t loader = add_string(f, TAG_LOADER_NAME, "GRUB 2.06-13+deb12u2");
	uint32_t mod0 = add_module(f, 0x7f00000, 0x7f10000, "initrd.img crc32=0x1234abcd");
	uint32_t mod1 = add_module(f, 0x7f10000, 0x7f10123, "");
	add_meminfo(f, 639, 130944); /* ignored: the map is authoritative */
	add_mmap(f, seabios_map, SEABIOS_MAP_LEN, MMAP_ENTRY_SIZE);
	uint32_t total = finish(f);

	assert_int_equal(parse(f), KS_OK);
	const struct boot_env *env = &f->env;
	assert_null(env->why);

	assert_string_equal(env->map_source, "mmap");
	assert_int_equal(env->map_count, SEABIOS_MAP_LEN);
	for (uint32_t i = 0; i < SEABIOS_MAP_LEN; i++)
		assert_map_entry(env, i, seabios_map[i].base, seabios_map[i].length,
				 seabios_map[i].type);

	assert_string_equal(env->cmdline, "console=ttyS0 kaslr");
	assert_int_equal(env->cmdline_phys, cmdline + 8);
	assert_string_equal(phys_string(f, env->cmdline_phys), "console=ttyS0 kaslr");
	assert_string_equal(env->loader_name, "GRUB 2.06-13+deb12u2");
	(void)loader;

	assert_int_equal(env->module_count, 2);
	assert_int_equal(env->modules[0].start, 0x7f00000);
	assert_int_equal(env->modules[0].end, 0x7f10000);
	assert_int_equal(env->modules[0].cmdline, mod0 + 16);
	assert_string_equal(phys_string(f, env->modules[0].cmdline), "initrd.img crc32=0x1234abcd");
	assert_int_equal(env->modules[1].cmdline, mod1 + 16);
	assert_string_equal(phys_string(f, env->modules[1].cmdline), "");

	/* The structure and the modules' bytes; strings and map lie inside the structure. */
	assert_int_equal(env->avoid_count, 3);
	assert_avoided(env, INFO_ADDR, total);
	assert_avoided(env, 0x7f00000, 0x10000);
	assert_avoided(env, 0x7f10000, 0x123);
	assert_covered(env, env->cmdline_phys, strlen(env->cmdline) + 1);
	assert_covered(env, env->modules[0].cmdline, strlen("initrd.img crc32=0x1234abcd") + 1);
	assert_covered(env, env->modules[1].cmdline, 1);

	assert_int_equal(env->efi_system_table, 0);
	assert_int_equal(env->acpi_rsdp_copy, 0); /* no ACPI tag: none */
	assert_int_equal(env->acpi_rsdp_size, 0);
	assert_int_equal(env->efi_bits, 0);
	assert_false(env->efi_boot_services);
}

/* A piece of an OVMF map after ExitBootServices(), in 4 KiB pages. */
static const struct range ovmf_map[] = {
	{0x0, 0xa0, EFI_BS_CODE},
	{0x100000, 0x700, EFI_CONVENTIONAL},
	{0x800000, 0x8, EFI_ACPI_NVS},
	{0x808000, 0x8, EFI_CONVENTIONAL},
	{0x810000, 0xf0, EFI_ACPI_NVS},
	{0x900000, 0x100, EFI_CONVENTIONAL},
	{0xa00000, 0x100, EFI_CONVENTIONAL}, /* touches the previous one: joined */
	{0xb00000, 0x40, EFI_LOADER_DATA},   /* what GRUB handed over */
	{0xb40000, 0x400, EFI_BS_DATA},
	{0xf40000, 0x70bc, EFI_CONVENTIONAL},
	{0x7ffc000, 0x4, EFI_ACPI_RECLAIM},
	{0x8000000, 0x1, EFI_UNUSABLE},
	{0x8001000, 0x10, EFI_RT_DATA},
	{0xffc00000, 0x400, EFI_MMIO},
};
#define OVMF_MAP_LEN (sizeof(ovmf_map) / sizeof(ovmf_map[0]))

static void test_efi_map_wins_and_only_conventional_memory_is_usable(void **state)
{
	struct fake *f = *state;
	/* GRUB on UEFI writes both maps; the e820-style one calls boot services memory free. */
	add_mmap(f, seabios_map, SEABIOS_MAP_LEN, MMAP_ENTRY_SIZE);
	uint8_t st[8];
	put64(st, 0x7fbee018);
	add_tag(f, TAG_EFI64, st, sizeof(st));
	add_efi_mmap(f, ovmf_map, OVMF_MAP_LEN, EFI_DESC_SIZE);
	finish(f);

	assert_int_equal(parse(f), KS_OK);
	const struct boot_env *env = &f->env;
	assert_int_equal(env->efi_system_table, 0x7fbee018);
	assert_int_equal(env->efi_bits, 64);
	assert_false(env->efi_boot_services);

	assert_string_equal(env->map_source, "efi");
	/* Touching pieces of one kslide type are joined: two usable, loader + boot services. */
	assert_int_equal(env->map_count, OVMF_MAP_LEN - 2);
	assert_map_entry(env, 0, 0x0, 0xa0000, KSLIDE_MEM_RESERVED);
	assert_map_entry(env, 1, 0x100000, 0x700000, KSLIDE_MEM_USABLE);
	assert_map_entry(env, 2, 0x800000, 0x8000, KSLIDE_MEM_ACPI_NVS);
	assert_map_entry(env, 3, 0x808000, 0x8000, KSLIDE_MEM_USABLE);
	assert_map_entry(env, 4, 0x810000, 0xf0000, KSLIDE_MEM_ACPI_NVS);
	assert_map_entry(env, 5, 0x900000, 0x200000, KSLIDE_MEM_USABLE);
	assert_map_entry(env, 6, 0xb00000, 0x440000, KSLIDE_MEM_RESERVED);
	assert_map_entry(env, 7, 0xf40000, 0x70bc000, KSLIDE_MEM_USABLE);
	assert_map_entry(env, 8, 0x7ffc000, 0x4000, KSLIDE_MEM_ACPI_RECLAIMABLE);
	assert_map_entry(env, 9, 0x8000000, 0x1000, KSLIDE_MEM_BAD);
	assert_map_entry(env, 10, 0x8001000, 0x10000, KSLIDE_MEM_RESERVED);
	assert_map_entry(env, 11, 0xffc00000, 0x400000, KSLIDE_MEM_RESERVED);
}

static void test_efi_map_wins_whatever_the_tag_order(void **state)
{
	struct fake *f = *state;
	add_efi_mmap(f, ovmf_map, 2, EFI_DESC_SIZE);
	add_mmap(f, seabios_map, SEABIOS_MAP_LEN, MMAP_ENTRY_SIZE);
	finish(f);

	assert_int_equal(parse(f), KS_OK);
	assert_int_equal(f->env.map_count, 2);
	assert_map_entry(&f->env, 1, 0x100000, 0x700000, KSLIDE_MEM_USABLE);
}

static void test_efi_descriptors_step_by_their_declared_size(void **state)
{
	struct fake *f = *state;
	add_efi_mmap(f, ovmf_map, 4, 40); /* the bare structure, no padding */
	finish(f);
	assert_int_equal(parse(f), KS_OK);
	assert_int_equal(f->env.map_count, 4);
	assert_map_entry(&f->env, 3, 0x808000, 0x8000, KSLIDE_MEM_USABLE);

	memset(f, 0, offsetof(struct fake, phys));
	memset(&f->env, 0, sizeof(f->env));
	f->next = 8;
	add_efi_mmap(f, ovmf_map, 4, 64); /* a future, larger descriptor */
	finish(f);
	assert_int_equal(parse(f), KS_OK);
	assert_int_equal(f->env.map_count, 4);
	assert_map_entry(&f->env, 3, 0x808000, 0x8000, KSLIDE_MEM_USABLE);
}

static void test_efi32_table_and_boot_services_tag_are_noted(void **state)
{
	struct fake *f = *state;
	uint8_t st[4];
	put32(st, 0x3fbee018);
	add_tag(f, TAG_EFI32, st, sizeof(st));
	add_tag(f, TAG_EFI_BS, NULL, 0);
	add_mmap(f, seabios_map, 2, MMAP_ENTRY_SIZE);
	finish(f);

	assert_int_equal(parse(f), KS_OK);
	assert_int_equal(f->env.efi_system_table, 0x3fbee018);
	assert_int_equal(f->env.efi_bits, 32);
	assert_true(f->env.efi_boot_services);
	assert_int_equal(f->env.map_count, 2); /* no EFI map: the mmap tag it is */
}

/* ACPI 2.0's XSDP (36 bytes) wins over the 1.0 RSDP (20 bytes), whatever their order. */
static void test_acpi_rsdp_copy_prefers_the_new_tag(void **state)
{
	struct fake *f = *state;
	uint8_t old_rsdp[20] = "RSD PTR old", new_rsdp[36] = "RSD PTR new";
	add_tag(f, TAG_ACPI_OLD, old_rsdp, sizeof(old_rsdp));
	uint32_t tag = add_tag(f, TAG_ACPI_NEW, new_rsdp, sizeof(new_rsdp));
	add_mmap(f, seabios_map, 2, MMAP_ENTRY_SIZE);
	finish(f);
	assert_int_equal(parse(f), KS_OK);
	assert_int_equal(f->env.acpi_rsdp_copy, tag + 8);
	assert_int_equal(f->env.acpi_rsdp_size, sizeof(new_rsdp));
	assert_false(f->env.acpi_rsdp_kept); /* in the loader's information: copied for Linux */
}

static void test_acpi_rsdp_copy_of_the_old_tag_alone(void **state)
{
	struct fake *f = *state;
	uint8_t old_rsdp[20] = "RSD PTR old";
	uint32_t tag = add_tag(f, TAG_ACPI_OLD, old_rsdp, sizeof(old_rsdp));
	finish(f);
	assert_int_equal(parse(f), KS_OK);
	assert_int_equal(f->env.acpi_rsdp_copy, tag + 8);
	assert_int_equal(f->env.acpi_rsdp_size, sizeof(old_rsdp));
}

static void test_mmap_entries_step_by_their_declared_size(void **state)
{
	struct fake *f = *state;
	add_mmap(f, seabios_map, 3, 32);
	finish(f);
	assert_int_equal(parse(f), KS_OK);
	assert_int_equal(f->env.map_count, 3);
	for (uint32_t i = 0; i < 3; i++)
		assert_map_entry(&f->env, i, seabios_map[i].base, seabios_map[i].length,
				 seabios_map[i].type);
}

static void test_basic_meminfo_alone_gives_one_range_from_1mib(void **state)
{
	struct fake *f = *state;
	add_meminfo(f, 639, 0x7fc00);
	finish(f);
	assert_int_equal(parse(f), KS_OK);
	assert_string_equal(f->env.map_source, "meminfo");
	assert_int_equal(f->env.map_count, 1);
	assert_map_entry(&f->env, 0, ONE_MIB, 0x7fc00ull * 1024, KSLIDE_MEM_USABLE);
}

static void test_unknown_tags_of_any_size_are_skipped(void **state)
{
	struct fake *f = *state;
	static const uint8_t junk[13] = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13};
	add_tag(f, 0xdead, junk, sizeof(junk)); /* 21 bytes: the next tag is padded to 24 */
	add_tag(f, TAG_ELF_SECTIONS, junk, 12);
	add_tag(f, 0xffffffffu, NULL, 0);
	add_string(f, TAG_CMDLINE, "nokaslr");
	finish(f);
	assert_int_equal(parse(f), KS_OK);
	assert_string_equal(f->env.cmdline, "nokaslr");
	assert_int_equal(f->env.map_count, 0);
	assert_int_equal(f->env.avoid_count, 1);
}

static void test_empty_list_has_only_the_structure_to_avoid(void **state)
{
	struct fake *f = *state;
	uint32_t total = finish(f);
	assert_int_equal(total, 16);
	assert_int_equal(parse(f), KS_OK);
	assert_int_equal(f->env.map_count, 0);
	assert_int_equal(f->env.module_count, 0);
	assert_null(f->env.cmdline);
	assert_null(f->env.loader_name);
	assert_null(f->env.map_source);
	assert_int_equal(f->env.avoid_count, 1);
	assert_avoided(&f->env, INFO_ADDR, 16);
}

static void test_first_of_duplicate_tags_is_used(void **state)
{
	struct fake *f = *state;
	add_string(f, TAG_CMDLINE, "first");
	add_string(f, TAG_CMDLINE, "second");
	finish(f);
	assert_int_equal(parse(f), KS_OK);
	assert_string_equal(f->env.cmdline, "first");
}

static void test_string_may_end_at_the_tags_last_byte(void **state)
{
	struct fake *f = *state;
	add_string(f, TAG_CMDLINE, "1234567"); /* 8 bytes with the NUL: no padding */
	finish(f);
	assert_int_equal(parse(f), KS_OK);
	assert_string_equal(f->env.cmdline, "1234567");
}

static void test_exactly_the_module_limit_is_accepted(void **state)
{
	struct fake *f = *state;
	for (uint32_t i = 0; i < BOOTENV_MODULES_MAX; i++)
		add_module(f, 0x400000 + i * 0x1000, 0x400000 + i * 0x1000 + 0x10, "m");
	finish(f);
	assert_int_equal(parse(f), KS_OK);
	assert_int_equal(f->env.module_count, BOOTENV_MODULES_MAX);
	assert_int_equal(f->env.avoid_count, 1 + BOOTENV_MODULES_MAX);
}

static void test_efi_map_beyond_the_table_keeps_the_first_and_counts_the_rest(void **state)
{
	struct fake *f = *state;
	enum { EXTRA = 3, TOTAL = BOOTENV_MAP_MAX + EXTRA };
	static struct range r[TOTAL];
	for (uint32_t i = 0; i < TOTAL; i++) /* alternating types: nothing can be joined */
		r[i] = (struct range){(uint64_t)i << 20, 1, i % 2 ? EFI_BS_DATA : EFI_CONVENTIONAL};
	add_efi_mmap(f, r, TOTAL, 40);
	finish(f);
	assert_int_equal(parse(f), KS_OK);
	assert_int_equal(f->env.map_count, BOOTENV_MAP_MAX);
	assert_int_equal(f->env.map_dropped, EXTRA);
	assert_map_entry(&f->env, BOOTENV_MAP_MAX - 1, (uint64_t)(BOOTENV_MAP_MAX - 1) << 20,
			 0x1000, KSLIDE_MEM_RESERVED);
}

/* ---- malformed information ---- */

static void test_unreadable_or_misplaced_info_is_rejected(void **state)
{
	struct fake *f = *state;
	finish(f);
	assert_int_equal(multiboot2_parse(&f->phys.reader, UNREADABLE, &f->env), KS_EFORMAT);
	assert_non_null(f->env.why);
	memset(&f->env, 0, sizeof(f->env));
	/* Not 8-byte aligned (the specification requires it). */
	memcpy(f->mem + 4, f->mem, 16);
	assert_int_equal(multiboot2_parse(&f->phys.reader, INFO_ADDR + 4, &f->env), KS_EFORMAT);
	assert_non_null(f->env.why);
}

static void test_total_size_past_readable_memory_is_rejected(void **state)
{
	struct fake *f = *state;
	finish(f);
	put32(f->mem, MEM_SIZE + 8);
	assert_rejected(f, KS_EFORMAT);
}

static void test_total_size_too_small_or_unaligned_is_rejected(void **state)
{
	struct fake *f = *state;
	finish(f);
	put32(f->mem, 8); /* no room for the end tag */
	assert_rejected(f, KS_EFORMAT);
	memset(&f->env, 0, sizeof(f->env));
	put32(f->mem, 0);
	assert_rejected(f, KS_EFORMAT);
	memset(&f->env, 0, sizeof(f->env));
	put32(f->mem, 20);
	assert_rejected(f, KS_EFORMAT);
}

static void test_missing_end_tag_is_rejected(void **state)
{
	struct fake *f = *state;
	add_string(f, TAG_CMDLINE, "x");
	put32(f->mem, f->next); /* total_size ends right after the last tag */
	assert_rejected(f, KS_EFORMAT);
}

static void test_tag_sizes_below_the_header_are_rejected(void **state)
{
	struct fake *f = *state;
	uint32_t sizes[] = {0, 4, 7};
	for (size_t i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++) {
		memset(&f->env, 0, sizeof(f->env));
		f->next = 8;
		uint32_t tag = add_tag(f, 0xdead, "abcdefgh", 8);
		finish(f);
		put32(f->mem + (tag - MEM_BASE) + 4, sizes[i]);
		assert_rejected(f, KS_EFORMAT);
	}
}

static void test_tag_running_past_total_size_is_rejected(void **state)
{
	struct fake *f = *state;
	uint32_t tag = add_string(f, TAG_CMDLINE, "kaslr");
	uint32_t total = finish(f);
	/* From the tag to the end of the structure, plus one byte. */
	put32(f->mem + (tag - MEM_BASE) + 4, total - (tag - MEM_BASE) + 1);
	assert_rejected(f, KS_EFORMAT);
}

static void test_end_tag_cut_by_total_size_is_rejected(void **state)
{
	struct fake *f = *state;
	add_string(f, TAG_CMDLINE, "kaslr");
	uint32_t total = finish(f);
	put32(f->mem, total - 8); /* the end tag lies past total_size */
	assert_rejected(f, KS_EFORMAT);
}

static void test_tags_too_short_for_their_type_are_rejected(void **state)
{
	static const struct {
		uint32_t type, size;
	} cases[] = {
		{TAG_CMDLINE, 8},	 {TAG_LOADER_NAME, 8}, {TAG_MODULE, 16},
		{TAG_BASIC_MEMINFO, 12}, {TAG_MMAP, 12},       {TAG_EFI32, 11},
		{TAG_EFI64, 12},	 {TAG_EFI_MMAP, 12},   {TAG_END, 4},
	};
	struct fake *f = *state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		memset(&f->env, 0, sizeof(f->env));
		memset(f->mem, 0, 64);
		f->next = 8;
		uint32_t tag = add_tag(f, cases[i].type, "\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0", 16);
		finish(f);
		put32(f->mem + (tag - MEM_BASE) + 4, cases[i].size);
		assert_rejected(f, KS_EFORMAT);
	}
}

static void test_unterminated_strings_are_rejected(void **state)
{
	struct fake *f = *state;
	add_tag(f, TAG_CMDLINE, "kaslrxxx", 8); /* fills its tag, no NUL */
	finish(f);
	assert_rejected(f, KS_EFORMAT);

	memset(&f->env, 0, sizeof(f->env));
	f->next = 8;
	add_tag(f, TAG_LOADER_NAME, "GRUB", 4);
	finish(f);
	assert_rejected(f, KS_EFORMAT);

	memset(&f->env, 0, sizeof(f->env));
	f->next = 8;
	uint8_t mod[12];
	put32(mod, 0x200000);
	put32(mod + 4, 0x201000);
	memcpy(mod + 8, "abcd", 4);
	add_tag(f, TAG_MODULE, mod, sizeof(mod));
	finish(f);
	assert_rejected(f, KS_EFORMAT);
}

static void test_module_ending_before_it_starts_is_rejected(void **state)
{
	struct fake *f = *state;
	add_module(f, 0x201000, 0x200000, "");
	finish(f);
	assert_rejected(f, KS_EFORMAT);
}

static void test_more_modules_than_the_table_is_no_space(void **state)
{
	struct fake *f = *state;
	for (uint32_t i = 0; i < BOOTENV_MODULES_MAX + 3; i++)
		add_module(f, 0x400000 + i * 0x1000, 0x400000 + i * 0x1000 + 0x10, "");
	finish(f);
	assert_rejected(f, KS_ENOSPC);
	assert_int_equal(f->env.modules_given, BOOTENV_MODULES_MAX + 3); /* all of them counted */
}

static void test_mmap_entries_smaller_than_24_bytes_are_rejected(void **state)
{
	struct fake *f = *state;
	uint32_t tag = add_mmap(f, seabios_map, 2, MMAP_ENTRY_SIZE);
	finish(f);
	uint32_t sizes[] = {0, 16, 20, 23};
	for (size_t i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++) {
		memset(&f->env, 0, sizeof(f->env));
		put32(f->mem + (tag - MEM_BASE) + 8, sizes[i]);
		assert_rejected(f, KS_EFORMAT);
	}
}

static void test_map_tag_ending_inside_an_entry_is_rejected(void **state)
{
	struct fake *f = *state;
	uint32_t tag = add_mmap(f, seabios_map, 2, MMAP_ENTRY_SIZE);
	finish(f);
	put32(f->mem + (tag - MEM_BASE) + 4, 16 + 2 * MMAP_ENTRY_SIZE - 4);
	assert_rejected(f, KS_EFORMAT);

	memset(&f->env, 0, sizeof(f->env));
	f->next = 8;
	tag = add_efi_mmap(f, ovmf_map, 2, EFI_DESC_SIZE);
	finish(f);
	put32(f->mem + (tag - MEM_BASE) + 4, 16 + EFI_DESC_SIZE + 40);
	assert_rejected(f, KS_EFORMAT);
}

static void test_efi_descriptors_smaller_than_40_bytes_are_rejected(void **state)
{
	struct fake *f = *state;
	uint32_t tag = add_efi_mmap(f, ovmf_map, 2, EFI_DESC_SIZE);
	finish(f);
	uint32_t sizes[] = {0, 24, 32, 39};
	for (size_t i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++) {
		memset(&f->env, 0, sizeof(f->env));
		put32(f->mem + (tag - MEM_BASE) + 8, sizes[i]);
		assert_rejected(f, KS_EFORMAT);
	}
}

static void test_efi_descriptor_wrapping_past_2_64_is_rejected(void **state)
{
	struct fake *f = *state;
	static const struct range wraps[] = {{0xfffffffffff00000ull, 0x101, EFI_CONVENTIONAL}};
	add_efi_mmap(f, wraps, 1, EFI_DESC_SIZE);
	finish(f);
	assert_rejected(f, KS_EFORMAT);

	/* Ending one page below 2^64 is fine (an end of exactly 2^64 has no uint64_t). */
	memset(&f->env, 0, sizeof(f->env));
	f->next = 8;
	static const struct range top[] = {{0xfffffffffff00000ull, 0xff, EFI_CONVENTIONAL}};
	add_efi_mmap(f, top, 1, EFI_DESC_SIZE);
	finish(f);
	assert_int_equal(parse(f), KS_OK);
	assert_map_entry(&f->env, 0, 0xfffffffffff00000ull, 0xff000, KSLIDE_MEM_USABLE);
}

/* ---- boot information GRUB really wrote ---- */

/*
 * Captured from GRUB 2.06-13+deb12u2 under QEMU 7.2 with -m 256M, booting the ISOs of
 * scripts/mkiso.sh (one 1 MiB module): the i386 image under SeaBIOS, the x86-64 image under
 * OVMF 2022.11; a temporary dump of the structure from the stub. They double as fuzz seeds;
 * make unit runs from the repository root.
 */
#define SEABIOS_INFO "tests/fuzz/corpus/multiboot2/grub-2.06-seabios-256m"
#define OVMF_INFO    "tests/fuzz/corpus/multiboot2/grub-2.06-ovmf-256m"

static uint32_t load_info(struct fake *f, const char *path)
{
	FILE *in = fopen(path, "rb");
	if (!in)
		fail_msg("%s: cannot open (run from the repository root)", path);
	size_t n = fread(f->mem, 1, sizeof(f->mem), in);
	fclose(in);
	assert_true(n >= 16 && n < sizeof(f->mem));
	return (uint32_t)n;
}

static void assert_one_grub_module(const struct fake *f)
{
	const struct boot_env *env = &f->env;
	assert_string_equal(env->loader_name, "GRUB 2.06-13+deb12u2");
	assert_string_equal(env->cmdline, "");
	assert_int_equal(env->module_count, 1);
	assert_int_equal(env->modules[0].end - env->modules[0].start, 1u << 20);
	assert_memory_equal(phys_string(f, env->modules[0].cmdline), "crc32=0x", 8);
	assert_avoided(env, env->modules[0].start, 1u << 20);
}

static void test_real_seabios_info_gives_seabios_e820_map(void **state)
{
	struct fake *f = *state;
	uint32_t size = load_info(f, SEABIOS_INFO);
	assert_int_equal(parse(f), KS_OK);
	assert_avoided(&f->env, INFO_ADDR, size);
	assert_one_grub_module(f);
	assert_string_equal(f->env.map_source, "mmap");
	assert_int_equal(f->env.efi_bits, 0);
	/* The oracle: SeaBIOS's own e820 table, as it prints it on its debug port (QEMU
	 * -device isa-debugcon,iobase=0x402) in the same configuration. */
	static const struct range e820[] = {
		{0x0, 0x9fc00, KSLIDE_MEM_USABLE},
		{0x9fc00, 0x400, KSLIDE_MEM_RESERVED},
		{0xf0000, 0x10000, KSLIDE_MEM_RESERVED},
		{0x100000, 0xfee0000, KSLIDE_MEM_USABLE},
		{0xffe0000, 0x20000, KSLIDE_MEM_RESERVED},
		{0xfffc0000, 0x40000, KSLIDE_MEM_RESERVED},
	};
	assert_int_equal(f->env.map_count, sizeof(e820) / sizeof(e820[0]));
	for (uint32_t i = 0; i < f->env.map_count; i++)
		assert_map_entry(&f->env, i, e820[i].base, e820[i].length, e820[i].type);
}

/* Whether [base, base + length) lies inside the available ranges of GRUB's mmap tag. */
static bool inside_grub_available(const uint8_t *mmap_tag, uint64_t base, uint64_t length)
{
	uint32_t size =
		mmap_tag[4] | mmap_tag[5] << 8 | mmap_tag[6] << 16 | (uint32_t)mmap_tag[7] << 24;
	uint32_t entry = mmap_tag[8] | mmap_tag[9] << 8;
	/* Walk forward from base through touching available entries. */
	uint64_t covered = base;
	for (int pass = 0; pass < 64 && covered < base + length; pass++)
		for (uint32_t off = 16; off + entry <= size; off += entry) {
			uint64_t b, l;
			uint32_t t;
			memcpy(&b, mmap_tag + off, 8);
			memcpy(&l, mmap_tag + off + 8, 8);
			memcpy(&t, mmap_tag + off + 16, 4);
			if (t == KSLIDE_MEM_USABLE && b <= covered && covered < b + l)
				covered = b + l;
		}
	return covered >= base + length;
}

static void test_real_ovmf_info_keeps_exactly_the_conventional_memory(void **state)
{
	struct fake *f = *state;
	uint32_t size = load_info(f, OVMF_INFO);
	assert_int_equal(parse(f), KS_OK);
	assert_avoided(&f->env, INFO_ADDR, size);
	assert_one_grub_module(f);
	assert_string_equal(f->env.map_source, "efi");
	assert_int_equal(f->env.efi_bits, 64);
	assert_int_not_equal(f->env.efi_system_table, 0);
	assert_int_equal(f->env.map_dropped, 0);

	/* GRUB's e820-style tag was built before ExitBootServices() from the same firmware map,
	 * calling more memory available: every usable range the stub keeps must lie inside it. */
	const uint8_t *mmap_tag = NULL, *efi_tag = NULL;
	for (uint32_t off = 8; off < size;) {
		uint32_t type, tag_size;
		memcpy(&type, f->mem + off, 4);
		memcpy(&tag_size, f->mem + off + 4, 4);
		if (type == TAG_MMAP)
			mmap_tag = f->mem + off;
		if (type == TAG_EFI_MMAP)
			efi_tag = f->mem + off;
		if (type == TAG_END)
			break;
		off += (tag_size + 7) & ~7u;
	}
	assert_non_null(mmap_tag);
	assert_non_null(efi_tag);
	uint64_t usable = 0;
	for (uint32_t i = 0; i < f->env.map_count; i++) {
		if (f->env.map[i].type != KSLIDE_MEM_USABLE)
			continue;
		usable += f->env.map[i].length;
		if (!inside_grub_available(mmap_tag, f->env.map[i].base, f->env.map[i].length))
			fail_msg("usable [%#llx, +%#llx) is not available RAM in GRUB's own map",
				 (unsigned long long)f->env.map[i].base,
				 (unsigned long long)f->env.map[i].length);
	}

	/* And exactly the firmware's conventional memory: no descriptor of another type (GRUB's
	 * heap in loader code, boot services data, ...) overlaps a usable entry. */
	uint32_t tag_size, desc_size;
	memcpy(&tag_size, efi_tag + 4, 4);
	memcpy(&desc_size, efi_tag + 8, 4);
	uint64_t conventional = 0;
	for (uint32_t off = 16; off + desc_size <= tag_size; off += desc_size) {
		uint32_t type;
		uint64_t base, pages;
		memcpy(&type, efi_tag + off, 4);
		memcpy(&base, efi_tag + off + 8, 8);
		memcpy(&pages, efi_tag + off + 24, 8);
		if (type == EFI_CONVENTIONAL) {
			conventional += pages << 12;
			continue;
		}
		for (uint32_t i = 0; i < f->env.map_count; i++)
			if (f->env.map[i].type == KSLIDE_MEM_USABLE &&
			    f->env.map[i].base < base + (pages << 12) &&
			    base < f->env.map[i].base + f->env.map[i].length)
				fail_msg("EFI type %u at %#llx is usable", type,
					 (unsigned long long)base);
	}
	assert_int_equal(usable, conventional);
}

#define T(fn) cmocka_unit_test_setup_teardown(fn, setup, teardown)

int main(void)
{
	const struct CMUnitTest tests[] = {
		T(test_grub_bios_info_fills_map_modules_strings_and_avoid_list),
		T(test_efi_map_wins_and_only_conventional_memory_is_usable),
		T(test_efi_map_wins_whatever_the_tag_order),
		T(test_efi_descriptors_step_by_their_declared_size),
		T(test_efi32_table_and_boot_services_tag_are_noted),
		T(test_acpi_rsdp_copy_prefers_the_new_tag),
		T(test_acpi_rsdp_copy_of_the_old_tag_alone),
		T(test_mmap_entries_step_by_their_declared_size),
		T(test_basic_meminfo_alone_gives_one_range_from_1mib),
		T(test_unknown_tags_of_any_size_are_skipped),
		T(test_empty_list_has_only_the_structure_to_avoid),
		T(test_first_of_duplicate_tags_is_used),
		T(test_string_may_end_at_the_tags_last_byte),
		T(test_exactly_the_module_limit_is_accepted),
		T(test_efi_map_beyond_the_table_keeps_the_first_and_counts_the_rest),
		T(test_unreadable_or_misplaced_info_is_rejected),
		T(test_total_size_past_readable_memory_is_rejected),
		T(test_total_size_too_small_or_unaligned_is_rejected),
		T(test_missing_end_tag_is_rejected),
		T(test_tag_sizes_below_the_header_are_rejected),
		T(test_tag_running_past_total_size_is_rejected),
		T(test_end_tag_cut_by_total_size_is_rejected),
		T(test_tags_too_short_for_their_type_are_rejected),
		T(test_unterminated_strings_are_rejected),
		T(test_module_ending_before_it_starts_is_rejected),
		T(test_more_modules_than_the_table_is_no_space),
		T(test_mmap_entries_smaller_than_24_bytes_are_rejected),
		T(test_map_tag_ending_inside_an_entry_is_rejected),
		T(test_efi_descriptors_smaller_than_40_bytes_are_rejected),
		T(test_efi_descriptor_wrapping_past_2_64_is_rejected),
		T(test_real_seabios_info_gives_seabios_e820_map),
		T(test_real_ovmf_info_keeps_exactly_the_conventional_memory),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
