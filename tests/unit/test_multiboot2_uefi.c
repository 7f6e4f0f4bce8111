/*
 * Unit tests for boot/multiboot2_uefi.c: the Multiboot 2 information a Multiboot kernel
 * started from UEFI gets, read against the specification (Multiboot2 2.0, 3.6: the header's
 * total_size and reserved zero, tags 8-byte aligned, sizes without padding; 3.6.11 the EFI
 * 64-bit system table tag, type 12, size 16; 3.6.15 the EFI memory map tag, type 17:
 * descriptor size, version, the map as the firmware gave it) and GRUB's order on UEFI after
 * ExitBootServices (grub-core/loader/multiboot_mbi2.c). The boot parser (boot/multiboot2.c)
 * reads it back into the same facts. The information is built where the lender says, mapped
 * below 2 GiB (MAP_32BIT) since its address is handed over in EBX.
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
#include "boot/multiboot2.h"
#include "boot/multiboot2_uefi.h"
#include "boot/uefi.h"
#include "include/protocol/multiboot2.h"
#include "include/protocol/uefi.h"
#include "lib/errors.h"
#include "lib/unaligned.h"

#define LENT_BYTES		  0x10000u
#define SYSTEM_TABLE		  0x7fb6e018ull /* where OVMF at -m 256M puts it, above 4 GiB or not */
#define DESC_SIZE		  48u		/* OVMF's descriptors: 40 bytes and 8 of padding */
#define DESC_VERSION		  1u
#define DESCRIPTORS		  3u
#define KERNEL_PHYS		  0x4600000u /* where the stub put the kernel */
#define RSDP_V2_BYTES		  36u
#define CMDLINE			  "\\EFI\\BOOT\\BOOTX64.EFI hello=world"
#define LOADER			  "UEFI"
#define MODULE_STRING		  "initrd"
#define EFI_RUNTIME_SERVICES_CODE 5 /* UEFI 2.10, 7.2: EfiRuntimeServicesCode */

/* Multiboot2 2.0, 3.6: the tags, in the order GRUB writes them on UEFI with boot services
 * exited: load base, cmdline, loader name, modules, mmap, basic meminfo, EFI64, ACPI old and new,
 * EFI mmap, end (GRUB's load base, ELF sections, network, boot device and framebuffer tags have no
 * source here). */
static const uint32_t grub_order[] = {
	MB2_INFO_TAG_LOAD_BASE,	    MB2_INFO_TAG_CMDLINE,  MB2_INFO_TAG_LOADER_NAME,
	MB2_INFO_TAG_MODULE,	    MB2_INFO_TAG_MODULE,   MB2_INFO_TAG_MMAP,
	MB2_INFO_TAG_BASIC_MEMINFO, MB2_INFO_TAG_EFI64,	   MB2_INFO_TAG_ACPI_OLD,
	MB2_INFO_TAG_ACPI_NEW,	    MB2_INFO_TAG_EFI_MMAP, MB2_INFO_TAG_END,
};
#define TAGS (sizeof(grub_order) / sizeof(grub_order[0]))

static uint8_t *lent;
static uint32_t lent_used;
static int lend_calls;
static bool lend_refuses;

static int lend(uint64_t size, uint64_t *addr)
{
	lend_calls++;
	if (lend_refuses || size > LENT_BYTES - lent_used)
		return KS_ENOENT;
	*addr = (uintptr_t)lent + lent_used;
	lent_used += (uint32_t)((size + 0xfff) & ~0xfffull);
	return KS_OK;
}

static const void *read_phys(void *ctx, uint64_t addr, uint64_t len)
{
	(void)ctx;
	uint64_t start = (uintptr_t)lent;
	return addr >= start && len <= start + LENT_BYTES - addr ? (const void *)(uintptr_t)addr
								 : NULL;
}

static const struct phys_reader mem = {read_phys, NULL};

struct fixture {
	struct boot_env env;
	uint8_t efi_map[DESCRIPTORS * DESC_SIZE];
	uint8_t rsdp[RSDP_V2_BYTES];
	char cmdline[64];
};

static void descriptor(uint8_t *d, uint32_t type, uint64_t base, uint64_t pages)
{
	memset(d, 0, DESC_SIZE);
	store_le32(d + EFI_MD_TYPE, type);
	store_le64(d + EFI_MD_PHYSICAL_START, base);
	store_le64(d + EFI_MD_NUMBER_OF_PAGES, pages);
}

static int setup(void **state)
{
	struct fixture *f = calloc(1, sizeof(*f));
	lent = mmap(NULL, LENT_BYTES, PROT_READ | PROT_WRITE,
		    MAP_PRIVATE | MAP_ANONYMOUS | MAP_32BIT, -1, 0);
	if (!f || lent == MAP_FAILED)
		return -1;
	memset(lent, 0xee, LENT_BYTES);
	lent_used = 0;
	lend_calls = 0;
	lend_refuses = false;
	/* The map as ExitBootServices gave it: low conventional memory, loader data from 1 MiB
	 * (the stub), runtime code above. */
	descriptor(f->efi_map, EFI_CONVENTIONAL_MEMORY, 0, 0xa0);
	descriptor(f->efi_map + DESC_SIZE, EFI_LOADER_DATA, 0x100000, 0x7f00);
	descriptor(f->efi_map + 2 * DESC_SIZE, EFI_RUNTIME_SERVICES_CODE, 0x8000000, 0x10);
	struct boot_env *env = &f->env;
	assert_int_equal(uefi_parse_memory_map(f->efi_map, sizeof(f->efi_map), DESC_SIZE, env),
			 KS_OK);
	strcpy(f->cmdline, CMDLINE);
	env->cmdline = f->cmdline;
	env->loader_name = LOADER;
	env->modules[0] = (struct kslide_module){0x3000000, 0x3000400, (uintptr_t)MODULE_STRING};
	env->modules[1] = (struct kslide_module){0x3001000, 0x3001010, 0};
	env->module_count = 2;
	env->efi_system_table = SYSTEM_TABLE;
	env->efi_bits = 64;
	env->efi_memmap = (uintptr_t)f->efi_map;
	env->efi_memmap_size = sizeof(f->efi_map);
	env->efi_memdesc_size = DESC_SIZE;
	env->efi_memdesc_version = DESC_VERSION;
	for (unsigned i = 0; i < RSDP_V2_BYTES; i++)
		f->rsdp[i] = (uint8_t)(0x40 + i);
	f->rsdp[15] = 2; /* revision */
	env->acpi_rsdp_copy = (uintptr_t)f->rsdp;
	env->acpi_rsdp_size = RSDP_V2_BYTES;
	*state = f;
	return 0;
}

static int teardown(void **state)
{
	munmap(lent, LENT_BYTES);
	free(*state);
	return 0;
}

static const uint8_t *build(struct fixture *f)
{
	uint64_t at = 0;
	const char *why = NULL;
	assert_int_equal(multiboot2_from_uefi(&f->env, KERNEL_PHYS, lend, &at, &why), KS_OK);
	assert_null(why);
	assert_int_equal(at % MB2_TAG_ALIGN, 0);
	assert_true(at < 0x100000000ull);
	return (const uint8_t *)(uintptr_t)at;
}

/* The tag of this type (the first), or NULL; every tag checked for alignment and bounds. */
static const uint8_t *find_tag(const uint8_t *info, uint32_t type)
{
	uint32_t total = load_le32(info);
	for (uint32_t off = MB2_INFO_HEADER; off + MB2_TAG_HEADER <= total;) {
		const uint8_t *tag = info + off;
		uint32_t size = load_le32(tag + 4);
		assert_int_equal(off % MB2_TAG_ALIGN, 0);
		assert_true(size >= MB2_TAG_HEADER && size <= total - off);
		if (load_le32(tag) == type)
			return tag;
		if (load_le32(tag) == MB2_INFO_TAG_END)
			return NULL;
		off += (size + MB2_TAG_ALIGN - 1) & ~(MB2_TAG_ALIGN - 1);
	}
	return NULL;
}

static void test_tags_in_grubs_order(void **state)
{
	const uint8_t *info = build(*state);
	uint32_t total = load_le32(info), off = MB2_INFO_HEADER, n = 0;
	assert_int_equal(load_le32(info + 4), 0); /* reserved */
	while (off < total) {
		const uint8_t *tag = info + off;
		assert_int_equal(off % MB2_TAG_ALIGN, 0);
		assert_true(n < TAGS);
		assert_int_equal(load_le32(tag), grub_order[n++]);
		off += (load_le32(tag + 4) + MB2_TAG_ALIGN - 1) & ~(MB2_TAG_ALIGN - 1);
	}
	assert_int_equal(n, TAGS);
	assert_int_equal(off, total); /* the end tag is the last 8 bytes */
	assert_int_equal(load_le32(info + total - 4), MB2_TAG_HEADER);
	assert_int_equal(lend_calls, 1);
}

static void test_load_base_is_the_kernels_new_base(void **state)
{
	const uint8_t *tag = find_tag(build(*state), MB2_INFO_TAG_LOAD_BASE);
	assert_non_null(tag);
	assert_int_equal(load_le32(tag + 4), 12);
	assert_int_equal(load_le32(tag + MB2_LOAD_BASE_ADDR), KERNEL_PHYS);
}

static void test_efi64_tag_names_the_system_table(void **state)
{
	const uint8_t *tag = find_tag(build(*state), MB2_INFO_TAG_EFI64);
	assert_non_null(tag);
	assert_int_equal(load_le32(tag + 4), 16);
	assert_int_equal(load_le64(tag + 8), SYSTEM_TABLE);
}

static void test_efi_mmap_tag_holds_the_exit_map(void **state)
{
	struct fixture *f = *state;
	const uint8_t *tag = find_tag(build(f), MB2_INFO_TAG_EFI_MMAP);
	assert_non_null(tag);
	assert_int_equal(load_le32(tag + 4), MB2_MAP_ENTRIES + sizeof(f->efi_map));
	assert_int_equal(load_le32(tag + MB2_MAP_ENTRY_SIZE), DESC_SIZE);
	assert_int_equal(load_le32(tag + MB2_MAP_ENTRY_SIZE + 4), DESC_VERSION);
	assert_memory_equal(tag + MB2_MAP_ENTRIES, f->efi_map, sizeof(f->efi_map));
}

static void test_strings_modules_and_acpi(void **state)
{
	struct fixture *f = *state;
	const uint8_t *info = build(f);
	const uint8_t *tag = find_tag(info, MB2_INFO_TAG_CMDLINE);
	assert_string_equal((const char *)tag + MB2_STRING_AT, CMDLINE);
	assert_int_equal(load_le32(tag + 4), MB2_STRING_AT + sizeof(CMDLINE));
	tag = find_tag(info, MB2_INFO_TAG_LOADER_NAME);
	assert_string_equal((const char *)tag + MB2_STRING_AT, LOADER);
	tag = find_tag(info, MB2_INFO_TAG_MODULE);
	assert_int_equal(load_le32(tag + MB2_MODULE_START), 0x3000000);
	assert_int_equal(load_le32(tag + MB2_MODULE_START + 4), 0x3000400);
	assert_string_equal((const char *)tag + MB2_MODULE_STRING, MODULE_STRING);
	tag = find_tag(info, MB2_INFO_TAG_ACPI_OLD);
	assert_int_equal(load_le32(tag + 4), MB2_TAG_HEADER + 20);
	assert_memory_equal(tag + MB2_TAG_HEADER, f->rsdp, 20);
	tag = find_tag(info, MB2_INFO_TAG_ACPI_NEW);
	assert_int_equal(load_le32(tag + 4), MB2_TAG_HEADER + RSDP_V2_BYTES);
	assert_memory_equal(tag + MB2_TAG_HEADER, f->rsdp, RSDP_V2_BYTES);
}

/* The map in Multiboot's 24-byte entries, neighbours of a type merged as env holds them;
 * mem_lower the 640 KiB from 0, mem_upper the usable KiB from 1 MiB. */
static void test_mmap_and_meminfo(void **state)
{
	struct fixture *f = *state;
	const uint8_t *info = build(f);
	const uint8_t *tag = find_tag(info, MB2_INFO_TAG_MMAP);
	assert_int_equal(load_le32(tag + MB2_MAP_ENTRY_SIZE), MB2_MMAP_ENTRY_MIN);
	assert_int_equal(load_le32(tag + 4), MB2_MAP_ENTRIES + 3 * MB2_MMAP_ENTRY_MIN);
	const uint8_t *e = tag + MB2_MAP_ENTRIES;
	assert_int_equal(load_le64(e), 0);
	assert_int_equal(load_le64(e + 8), 0xa0000);
	assert_int_equal(load_le32(e + 16), 1);
	e += 2 * MB2_MMAP_ENTRY_MIN;
	assert_int_equal(load_le64(e), 0x8000000);
	assert_int_equal(load_le32(e + 16), 2); /* runtime code: reserved */
	tag = find_tag(info, MB2_INFO_TAG_BASIC_MEMINFO);
	assert_int_equal(load_le32(tag + 4), 16);
	assert_int_equal(load_le32(tag + 8), 640);
	assert_int_equal(load_le32(tag + MB2_MEMINFO_UPPER), 0x7f00 * 4);
}

static void test_rsdp_revision_0_gets_the_old_tag_only(void **state)
{
	struct fixture *f = *state;
	f->rsdp[15] = 0;
	f->env.acpi_rsdp_size = 20;
	const uint8_t *info = build(f);
	assert_non_null(find_tag(info, MB2_INFO_TAG_ACPI_OLD));
	assert_null(find_tag(info, MB2_INFO_TAG_ACPI_NEW));
	f->env.acpi_rsdp_copy = 0;
	info = build(f);
	assert_null(find_tag(info, MB2_INFO_TAG_ACPI_OLD));
	assert_non_null(find_tag(info, MB2_INFO_TAG_EFI_MMAP));
}

/* What the stub's Multiboot 2 parser reads back: the system table, the EFI map, modules. */
static void test_read_back_by_the_parser(void **state)
{
	struct fixture *f = *state;
	const uint8_t *info = build(f);
	struct boot_env *back = calloc(1, sizeof(*back));
	assert_non_null(back);
	assert_int_equal(multiboot2_parse(&mem, (uint32_t)(uintptr_t)info, back), KS_OK);
	assert_int_equal(back->efi_system_table, SYSTEM_TABLE);
	assert_int_equal(back->efi_bits, 64);
	assert_false(back->efi_boot_services);
	/* The firmware's map is the one it reads (its own types for loader memory). */
	assert_string_equal(back->map_source, "efi");
	assert_true(back->map_count >= 2);
	assert_memory_equal(&back->map[0], &f->env.map[0], sizeof(back->map[0]));
	assert_int_equal(back->module_count, 2);
	assert_int_equal(back->modules[1].end, 0x3001010);
	assert_string_equal(back->cmdline, CMDLINE);
	free(back);
}

/* No map from ExitBootServices, or boot services still running: nothing is built. */
static void test_refused_without_the_exit_map(void **state)
{
	struct fixture *f = *state;
	uint64_t at = 0;
	const char *why = NULL;
	f->env.efi_boot_services = true;
	assert_int_not_equal(multiboot2_from_uefi(&f->env, KERNEL_PHYS, lend, &at, &why), KS_OK);
	assert_non_null(why);
	f->env.efi_boot_services = false;
	f->env.efi_memmap = 0;
	why = NULL;
	assert_int_not_equal(multiboot2_from_uefi(&f->env, KERNEL_PHYS, lend, &at, &why), KS_OK);
	assert_non_null(why);
	assert_int_equal(lend_calls, 0);
}

static void test_no_memory(void **state)
{
	uint64_t at = 0;
	const char *why = NULL;
	lend_refuses = true;
	assert_int_equal(multiboot2_from_uefi(&((struct fixture *)*state)->env, KERNEL_PHYS, lend,
					      &at, &why),
			 KS_ENOENT);
	assert_non_null(why);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_tags_in_grubs_order, setup, teardown),
		cmocka_unit_test_setup_teardown(test_load_base_is_the_kernels_new_base, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_efi64_tag_names_the_system_table, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_efi_mmap_tag_holds_the_exit_map, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_strings_modules_and_acpi, setup, teardown),
		cmocka_unit_test_setup_teardown(test_mmap_and_meminfo, setup, teardown),
		cmocka_unit_test_setup_teardown(test_rsdp_revision_0_gets_the_old_tag_only, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_read_back_by_the_parser, setup, teardown),
		cmocka_unit_test_setup_teardown(test_refused_without_the_exit_map, setup, teardown),
		cmocka_unit_test_setup_teardown(test_no_memory, setup, teardown),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
