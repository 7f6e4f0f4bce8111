/*
 * Unit tests for boot/handoff_linux.c: the zero page Linux is entered with, read back through
 * Linux's own offsets (include/protocol/linux_boot.h, from zero-page.rst and boot.rst). The
 * handoff uses 32-bit physical addresses as pointers, so everything it reads or lends is
 * mapped below 2 GiB (MAP_32BIT).
 */
#define _GNU_SOURCE
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <sys/mman.h>

#include <cmocka.h>

#include "boot/handoff.h"
#include "include/protocol/linux_boot.h"
#include "lib/errors.h"
#include "lib/unaligned.h"
#include "tests/unit/support/low_memory.h"

#define PAGE 0x1000u
#define LOW_BYTES 0x10000
#define NEW_BASE 0x4a00000u
#define ENTRY_OFFSET 0x200u /* startup_64, as a 64-bit bzImage's */
#define E820_RAM 1
#define E820_RESERVED 2
#define E820_ACPI 3
#define HEADER_BYTES (HDR_END_MIN - ZP_SETUP_HEADER)
#define RSDP_BYTES 36 /* an ACPI 2.0 RSDP */

static uint8_t *low(void)
{
	return low_memory(LOW_BYTES);
}

static uint8_t *lent_memory;
static uint64_t lent_used; /* as the stub's lender: each loan after the last, 4 KiB aligned */

static int lend(uint64_t size, uint64_t *addr)
{
	if (size > LOW_BYTES - lent_used)
		return KS_ENOSPC;
	*addr = (uintptr_t)lent_memory + lent_used;
	lent_used += (size + PAGE - 1) & ~(uint64_t)(PAGE - 1);
	return KS_OK;
}

struct fixture {
	uint8_t header[HEADER_BYTES];
	uint8_t rsdp[RSDP_BYTES];
	char cmdline[128];
	struct kslide_image_header image;
	struct boot_env env;
	struct kslide_bootinfo bootinfo;
	struct kernel_mapping mapping;
	struct handoff_context ctx;
	struct entry_regs regs;
};

/* What the loader's map says: low memory, the BIOS hole, RAM above 1 MiB, ACPI tables. */
static const struct kslide_mem_entry loader_map[] = {
	{ 0, 0x9fc00, E820_RAM, 0 },
	{ 0xf0000, 0x10000, E820_RESERVED, 0 },
	{ 0x100000, 0x7ee0000, E820_RAM, 0 },
	{ 0x7fe0000, 0x20000, E820_ACPI, 0 },
};
#define LOADER_MAP_COUNT (sizeof(loader_map) / sizeof(loader_map[0]))

static struct fixture *setup(void)
{
	struct fixture *f = (struct fixture *)(void *)low();
	memset(f, 0, sizeof(*f));
	store_le32(f->header + HDR_HEADER - ZP_SETUP_HEADER, HDRS_MAGIC);
	f->header[HDR_LOADFLAGS - ZP_SETUP_HEADER] = LOADFLAGS_KASLR; /* as a bzImage may ship */
	store_le32(f->header + HDR_INITRD_ADDR_MAX - ZP_SETUP_HEADER, 0x7fffffff);
	store_le32(f->header + HDR_CMDLINE_SIZE - ZP_SETUP_HEADER, 2047);
	f->image.entry_offset = ENTRY_OFFSET;
	f->image.handoff_data_size = HEADER_BYTES;
	memcpy(f->env.map, loader_map, sizeof(loader_map));
	f->env.map_count = LOADER_MAP_COUNT;
	for (unsigned i = 0; i < RSDP_BYTES; i++)
		f->rsdp[i] = (uint8_t)(0x40 + i);
	memcpy(f->rsdp, "RSD PTR ", 8);
	f->bootinfo.phys_base = NEW_BASE;
	f->bootinfo.flags = KSLIDE_BOOT_RANDOMIZED;
	f->mapping = (struct kernel_mapping){ .phys = NEW_BASE, .virt = NEW_BASE };
	f->ctx = (struct handoff_context){ .image = &f->image, .data = f->header, .env = &f->env,
					   .bootinfo = &f->bootinfo, .mapping = &f->mapping,
					   .lend = lend };
	lent_memory = low();
	lent_used = 0;
	return f;
}

static void teardown(struct fixture *f)
{
	munmap(lent_memory, LOW_BYTES);
	munmap(f, LOW_BYTES);
}

static const uint8_t *zero_page(const struct fixture *f)
{
	return (const uint8_t *)(uintptr_t)f->regs.esi;
}

/* The e820 table holds exactly the loader's map, entry for entry. */
static void expect_loader_map(const uint8_t *zp, unsigned extra)
{
	assert_int_equal(zp[ZP_E820_ENTRIES], LOADER_MAP_COUNT + extra);
	for (unsigned i = 0; i < LOADER_MAP_COUNT; i++) {
		const uint8_t *e = zp + ZP_E820_TABLE + i * ZP_E820_ENTRY_SIZE;
		assert_int_equal(load_le64(e), loader_map[i].base);
		assert_int_equal(load_le64(e + 8), loader_map[i].length);
		assert_int_equal(load_le32(e + 16), loader_map[i].type);
	}
}

/* Entered as boot.rst's 32- and 64-bit protocols want: ESI the zero page, the others 0. */
static void test_registers_and_header(void **state)
{
	(void)state;
	struct fixture *f = setup();
	assert_int_equal(handoff_linux.enter(&f->ctx, &f->regs), KS_OK);
	assert_int_equal(f->regs.entry, NEW_BASE + ENTRY_OFFSET);
	assert_int_equal(f->regs.esi, addr32(lent_memory));
	assert_int_equal(f->regs.eax | f->regs.ebx | f->regs.ecx | f->regs.edx | f->regs.edi |
				 f->regs.ebp, 0);
	const uint8_t *zp = zero_page(f);
	/* The image's header, but for what a loader writes: type_of_loader, loadflags, the
	 * command line's address. */
	assert_int_equal(zp[HDR_TYPE_OF_LOADER], LOADER_UNDEFINED);
	assert_int_equal(zp[HDR_LOADFLAGS], LOADFLAGS_LOADED_HIGH | LOADFLAGS_KASLR);
	uint8_t expected[HEADER_BYTES];
	memcpy(expected, f->header, sizeof(expected));
	expected[HDR_TYPE_OF_LOADER - ZP_SETUP_HEADER] = zp[HDR_TYPE_OF_LOADER];
	expected[HDR_LOADFLAGS - ZP_SETUP_HEADER] = zp[HDR_LOADFLAGS];
	memcpy(expected + HDR_CMD_LINE_PTR - ZP_SETUP_HEADER, zp + HDR_CMD_LINE_PTR, 4);
	assert_memory_equal(zp + ZP_SETUP_HEADER, expected, sizeof(expected));
	assert_int_equal(load_le64(zp + ZP_ACPI_RSDP_ADDR), 0); /* no RSDP given: Linux searches */
	expect_loader_map(zp, 0);
	/* No command line given: an empty string, not address 0. */
	const char *cmdline = (const char *)(uintptr_t)load_le32(zp + HDR_CMD_LINE_PTR);
	assert_non_null(cmdline);
	assert_string_equal(cmdline, "");
	assert_int_equal(load_le32(zp + HDR_RAMDISK_IMAGE), 0);
	teardown(f);
}

/* KASLR_FLAG says whether the base was drawn: Linux's own randomization follows it. */
static void test_kaslr_flag_follows_the_draw(void **state)
{
	(void)state;
	struct fixture *f = setup();
	f->bootinfo.flags = 0; /* nokaslr */
	assert_int_equal(handoff_linux.enter(&f->ctx, &f->regs), KS_OK);
	assert_int_equal(zero_page(f)[HDR_LOADFLAGS] & LOADFLAGS_KASLR, 0);
	teardown(f);
}

/* A Multiboot 2 loader's RSDP lies in its information, which Linux may reuse: it is copied
 * to a lent page the e820 table marks as ACPI data. */
static void test_loader_rsdp_copied_to_an_acpi_page(void **state)
{
	(void)state;
	struct fixture *f = setup();
	f->env.acpi_rsdp_copy = addr32(f->rsdp);
	f->env.acpi_rsdp_size = RSDP_BYTES;
	assert_int_equal(handoff_linux.enter(&f->ctx, &f->regs), KS_OK);
	const uint8_t *zp = zero_page(f);
	uint64_t rsdp = load_le64(zp + ZP_ACPI_RSDP_ADDR);
	assert_int_not_equal(rsdp, addr32(f->rsdp));
	assert_int_equal(rsdp % 16, 0);
	assert_memory_equal((const void *)(uintptr_t)rsdp, f->rsdp, RSDP_BYTES);
	expect_loader_map(zp, 1);
	const uint8_t *page = zp + ZP_E820_TABLE + LOADER_MAP_COUNT * ZP_E820_ENTRY_SIZE;
	assert_int_equal(load_le64(page), rsdp & ~(uint64_t)(PAGE - 1));
	assert_int_equal(load_le64(page + 8), PAGE);
	assert_int_equal(load_le32(page + 16), E820_ACPI);
	assert_true(rsdp >= addr32(lent_memory) && rsdp + RSDP_BYTES <= addr32(lent_memory) + lent_used);
	teardown(f);
}

/* The firmware's own RSDP (UEFI's configuration table, a PVH monitor's) is given as it lies,
 * as Linux's EFI and PVH entries give it, and the map is the firmware's alone: the same at
 * every boot, whatever the stub lent. */
static void test_firmware_rsdp_given_where_it_lies(void **state)
{
	(void)state;
	struct fixture *f = setup();
	f->env.acpi_rsdp_copy = addr32(f->rsdp);
	f->env.acpi_rsdp_size = RSDP_BYTES;
	f->env.acpi_rsdp_kept = true;
	assert_int_equal(handoff_linux.enter(&f->ctx, &f->regs), KS_OK);
	const uint8_t *zp = zero_page(f);
	assert_int_equal(load_le64(zp + ZP_ACPI_RSDP_ADDR), addr32(f->rsdp));
	expect_loader_map(zp, 0);
	teardown(f);
}

/* The stub's words leave the command line; Linux's stay, in place. */
static void test_cmdline_without_the_stubs_words(void **state)
{
	(void)state;
	struct fixture *f = setup();
	strcpy(f->cmdline, "console=ttyS0 kslide.entropy=pit quiet");
	f->env.cmdline = f->cmdline;
	f->env.cmdline_phys = addr32(f->cmdline);
	assert_int_equal(handoff_linux.enter(&f->ctx, &f->regs), KS_OK);
	const uint8_t *zp = zero_page(f);
	assert_int_equal(load_le32(zp + HDR_CMD_LINE_PTR), addr32(f->cmdline));
	assert_int_equal(load_le32(zp + ZP_EXT_CMD_LINE_PTR), 0);
	assert_string_equal(f->cmdline, "console=ttyS0 quiet");
	teardown(f);
}

/* A command line longer than the kernel's cmdline_size is refused, not cut. */
static void test_cmdline_too_long_refused(void **state)
{
	(void)state;
	struct fixture *f = setup();
	store_le32(f->header + HDR_CMDLINE_SIZE - ZP_SETUP_HEADER, 8);
	strcpy(f->cmdline, "console=ttyS0");
	f->env.cmdline = f->cmdline;
	f->env.cmdline_phys = addr32(f->cmdline);
	assert_int_equal(handoff_linux.enter(&f->ctx, &f->regs), KS_EFORMAT);
	assert_non_null(strstr(f->ctx.why, "cmdline_size"));
	teardown(f);
}

/* The first module is the initrd, where the loader put it. (One at address 0, "no initrd"
 * to Linux, is moved first; a host process cannot map page 0 to show it.) */
static void test_initrd_is_the_first_module(void **state)
{
	(void)state;
	struct fixture *f = setup();
	uint8_t *initrd = low();
	memcpy(initrd, "070701", 6);
	f->env.modules[0] = (struct kslide_module){ addr32(initrd), addr32(initrd) + 6000, 0 };
	f->env.module_count = 1;
	assert_int_equal(handoff_linux.enter(&f->ctx, &f->regs), KS_OK);
	const uint8_t *zp = zero_page(f);
	assert_int_equal(load_le32(zp + HDR_RAMDISK_IMAGE), addr32(initrd));
	assert_int_equal(load_le32(zp + HDR_RAMDISK_SIZE), 6000);
	teardown(f);
	munmap(initrd, LOW_BYTES);
}

static void test_initrd_above_initrd_addr_max_refused(void **state)
{
	(void)state;
	struct fixture *f = setup();
	uint8_t *initrd = low();
	store_le32(f->header + HDR_INITRD_ADDR_MAX - ZP_SETUP_HEADER, addr32(initrd) + 100);
	f->env.modules[0] = (struct kslide_module){ addr32(initrd), addr32(initrd) + 6000, 0 };
	f->env.module_count = 1;
	assert_int_equal(handoff_linux.enter(&f->ctx, &f->regs), KS_EFORMAT);
	assert_non_null(strstr(f->ctx.why, "initrd_addr_max"));
	teardown(f);
	munmap(initrd, LOW_BYTES);
}

/* A header without "HdrS", or a map the zero page cannot hold, is refused with the reason. */
static void test_bad_header_refused(void **state)
{
	(void)state;
	struct fixture *f = setup();
	store_le32(f->header + HDR_HEADER - ZP_SETUP_HEADER, 0);
	assert_int_equal(handoff_linux.enter(&f->ctx, &f->regs), KS_EFORMAT);
	assert_non_null(strstr(f->ctx.why, "HdrS"));
	teardown(f);
}

static void test_map_too_long_refused(void **state)
{
	(void)state;
	struct fixture *f = setup();
	f->env.map_count = ZP_E820_MAX;
	f->env.acpi_rsdp_copy = addr32(f->rsdp); /* and the copy's page would make one more */
	f->env.acpi_rsdp_size = RSDP_BYTES;
	assert_int_equal(handoff_linux.enter(&f->ctx, &f->regs), KS_EFORMAT);
	assert_non_null(strstr(f->ctx.why, "128"));
	/* The firmware's own RSDP needs no page: the same map fits. */
	f->env.acpi_rsdp_kept = true;
	lent_used = 0;
	assert_int_equal(handoff_linux.enter(&f->ctx, &f->regs), KS_OK);
	assert_int_equal(zero_page(f)[ZP_E820_ENTRIES], ZP_E820_MAX);
	teardown(f);
}

/* From UEFI, after ExitBootServices: efi_info as Linux's EFI stub fills it. */
static void test_efi_info(void **state)
{
	(void)state;
	struct fixture *f = setup();
	f->env.efi_bits = 64;
	f->env.efi_system_table = 0x17f6e018ull;
	f->env.efi_memmap = 0x123456789000ull;
	f->env.efi_memmap_size = 48 * 40;
	f->env.efi_memdesc_size = 48;
	f->env.efi_memdesc_version = 1;
	f->env.efi_secure_boot = 3;
	assert_int_equal(handoff_linux.enter(&f->ctx, &f->regs), KS_OK);
	const uint8_t *zp = zero_page(f);
	assert_int_equal(load_le32(zp + ZP_EFI_LOADER_SIGNATURE), EFI64_LOADER_SIGNATURE);
	assert_memory_equal(zp + ZP_EFI_LOADER_SIGNATURE, "EL64", 4);
	assert_int_equal(load_le32(zp + ZP_EFI_SYSTAB), 0x17f6e018u);
	assert_int_equal(load_le32(zp + ZP_EFI_SYSTAB_HI), 0);
	assert_int_equal(load_le32(zp + ZP_EFI_MEMMAP), 0x56789000u);
	assert_int_equal(load_le32(zp + ZP_EFI_MEMMAP_HI), 0x1234);
	assert_int_equal(load_le32(zp + ZP_EFI_MEMMAP_SIZE), 48 * 40);
	assert_int_equal(load_le32(zp + ZP_EFI_MEMDESC_SIZE), 48);
	assert_int_equal(load_le32(zp + ZP_EFI_MEMDESC_VERSION), 1);
	assert_int_equal(zp[ZP_SECURE_BOOT], 3);
	teardown(f);
}

/* Without UEFI (or with boot services still running) efi_info stays empty. */
static void test_no_efi_info_under_boot_services(void **state)
{
	(void)state;
	struct fixture *f = setup();
	f->env.efi_bits = 64;
	f->env.efi_system_table = 0x17f6e018ull;
	f->env.efi_memmap = 0x1000;
	f->env.efi_boot_services = true;
	assert_int_equal(handoff_linux.enter(&f->ctx, &f->regs), KS_OK);
	const uint8_t *zp = zero_page(f);
	for (unsigned at = ZP_EFI_LOADER_SIGNATURE; at < ZP_EFI_MEMMAP_HI + 4; at++)
		assert_int_equal(zp[at], 0);
	teardown(f);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_registers_and_header),
		cmocka_unit_test(test_kaslr_flag_follows_the_draw),
		cmocka_unit_test(test_loader_rsdp_copied_to_an_acpi_page),
		cmocka_unit_test(test_firmware_rsdp_given_where_it_lies),
		cmocka_unit_test(test_cmdline_without_the_stubs_words),
		cmocka_unit_test(test_cmdline_too_long_refused),
		cmocka_unit_test(test_initrd_is_the_first_module),
		cmocka_unit_test(test_initrd_above_initrd_addr_max_refused),
		cmocka_unit_test(test_bad_header_refused),
		cmocka_unit_test(test_map_too_long_refused),
		cmocka_unit_test(test_efi_info),
		cmocka_unit_test(test_no_efi_info_under_boot_services),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
