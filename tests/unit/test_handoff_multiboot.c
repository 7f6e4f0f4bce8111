/*
 * Unit tests for boot/handoff_multiboot.c, the pass-through: what the kernel is entered with,
 * and what of the loader's information changes (only what the move made false) when the
 * loader was Multiboot 1 or Multiboot 2; from UEFI, what GRUB would have built. The handoff uses 32-bit physical addresses as
 * pointers, so the loader's memory, the lent memory and the stub's own structures are mapped
 * below 2 GiB (MAP_32BIT).
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
#include "boot/mode32.h"
#include "boot/multiboot1.h"
#include "boot/multiboot2.h"
#include "include/kslide/multiboot.h"
#include "lib/errors.h"
#include "lib/unaligned.h"
#include "tests/unit/support/low_memory.h"

#define LOW_BYTES 0x10000 /* each low buffer: room for the info and its copy */

/* Multiboot2 2.0, 3.6: the tags the test writes. */
#define TAG_END 0
#define TAG_CMDLINE 1
#define TAG_MMAP 6
#define TAG_ELF_SECTIONS 9
#define TAG_LOAD_BASE 21
/* Multiboot 0.6.96, 3.3: flags bits, and the cmdline field's offset. */
#define MB1_FLAG_MEM (1u << 0)
#define MB1_FLAG_CMDLINE (1u << 2)
#define MB1_FLAGS_SYMBOLS ((1u << 4) | (1u << 5))
#define MB1_FLAG_MMAP (1u << 6)
#define MB1_CMDLINE 16

#define OLD_BASE 0x200000u   /* where the loader put the packed image */
#define NEW_BASE 0x4a00000u  /* where the stub moved the kernel */
#define ENTRY_OFFSET 0x1234u /* the kernel's entry, from its first byte */
#define CMDLINE "nokaslr hello=world kslide.entropy=pit kaslr last"
#define KERNEL_WORDS "hello=world last"

static uint8_t *low(void)
{
	return low_memory(LOW_BYTES);
}

/* The way into 32-bit mode, as boot/i386/mode32.c has it: the jump is to the entry. */
int mode32_enter(struct entry_regs *regs, uint64_t entry, memory_lender lend, const char **why)
{
	(void)lend;
	(void)why;
	regs->entry = entry;
	return KS_OK;
}

static uint8_t *lent_memory;
static unsigned lend_calls;
static uint64_t lent_used; /* as the stub's lender, each loan after the last, 4 KiB aligned */

static int lend(uint64_t size, uint64_t *addr)
{
	lend_calls++;
	if (!lent_memory || size > LOW_BYTES - lent_used)
		return KS_ENOSPC;
	*addr = (uintptr_t)lent_memory + lent_used;
	lent_used += (size + 0xfff) & ~(uint64_t)0xfff;
	return KS_OK;
}

/* Physical memory as the stub reads it, one to one; nothing below 1 MiB (no EBDA or BIOS ROM
 * here: the RSDP search finds none). */
static const void *read_phys(void *ctx, uint64_t addr, uint64_t len)
{
	(void)ctx;
	return addr >= 0x100000 && len < 0x100000000 ? (const void *)(uintptr_t)addr : NULL;
}

static const struct phys_reader physical_memory = { read_phys, NULL };

struct fixture {
	struct kslide_image_header image;
	struct boot_env env;
	struct kslide_bootinfo bootinfo;
	struct kernel_mapping mapping;
	struct handoff_context ctx;
	struct entry_regs regs;
};

static void setup(struct fixture *f, uint32_t magic, uint8_t *info, char *cmdline)
{
	memset(f, 0, sizeof(*f));
	f->image.entry_offset = ENTRY_OFFSET;
	f->env.loader_magic = magic;
	f->env.loader_info = addr32(info);
	f->env.cmdline = cmdline;
	f->env.cmdline_phys = addr32(cmdline);
	memset(&f->bootinfo, 0x5a, sizeof(f->bootinfo));
	f->bootinfo.phys_base = NEW_BASE;
	f->mapping = (struct kernel_mapping){ .phys = NEW_BASE, .virt = NEW_BASE };
	f->ctx = (struct handoff_context){ .image = &f->image, .env = &f->env,
					   .bootinfo = &f->bootinfo, .mapping = &f->mapping,
					   .lend = lend, .mem = &physical_memory };
	lend_calls = 0;
	lent_used = 0;
}

static void expect_registers(const struct fixture *f, uint32_t magic, uint32_t info)
{
	assert_int_equal(f->regs.entry, NEW_BASE + ENTRY_OFFSET);
	assert_int_equal(f->regs.eax, magic);
	assert_int_equal(f->regs.ebx, info);
	assert_int_equal(f->regs.ecx, addr32(&f->bootinfo));
	assert_int_equal(f->regs.edx, KSLIDE_BOOT_MAGIC);
	assert_int_equal(f->regs.esi | f->regs.edi | f->regs.ebp, 0);
}

static void test_multiboot1_in_place(void **state)
{
	(void)state;
	uint8_t *mem = low(), *info = mem;
	char *cmdline = (char *)mem + 0x1000;
	strcpy(cmdline, CMDLINE);
	const uint32_t flags = MB1_FLAG_MEM | MB1_FLAG_CMDLINE | MB1_FLAGS_SYMBOLS | MB1_FLAG_MMAP;
	store_le32(info, flags);
	store_le32(info + MB1_CMDLINE, addr32(cmdline));
	uint8_t before[128];
	memcpy(before, info, sizeof(before));
	lent_memory = NULL;
	struct fixture *f = (struct fixture *)(void *)low();
	setup(f, MB1_BOOTLOADER_MAGIC, info, cmdline);
	assert_int_equal(handoff_multiboot.enter(&f->ctx, &f->regs), KS_OK);
	expect_registers(f, MB1_BOOTLOADER_MAGIC, addr32(info));
	/* The symbol fields described the packed image: their flags go, nothing else changes. */
	assert_int_equal(load_le32(info), flags & ~MB1_FLAGS_SYMBOLS);
	assert_memory_equal(info + 4, before + 4, sizeof(before) - 4);
	assert_string_equal(cmdline, KERNEL_WORDS);
	assert_int_equal(lend_calls, 0);
	munmap(mem, LOW_BYTES);
	munmap(f, LOW_BYTES);
}

/* A Multiboot 2-only kernel started by a Multiboot 1 loader: the Multiboot 2 magic and
 * information translated from the loader's, its command line without the stub's words nor
 * the image path; the loader's information is left as it was, but for the stub's words. */
static void test_multiboot2_kernel_under_multiboot1(void **state)
{
	(void)state;
	uint8_t *mem = low(), *info = mem;
	char *cmdline = (char *)mem + 0x1000;
	strcpy(cmdline, "/boot/kernel.img " CMDLINE);
	store_le32(info, MB1_FLAG_CMDLINE);
	store_le32(info + MB1_CMDLINE, addr32(cmdline));
	lent_memory = low();
	struct fixture *f = (struct fixture *)(void *)low();
	setup(f, MB1_BOOTLOADER_MAGIC, info, cmdline);
	f->image.flags = KSLIDE_IMAGE_MULTIBOOT2_KERNEL;
	assert_int_equal(handoff_multiboot.enter(&f->ctx, &f->regs), KS_OK);
	assert_int_equal(f->regs.eax, MB2_BOOTLOADER_MAGIC);
	assert_int_equal(f->regs.edx, KSLIDE_BOOT_MAGIC);
	assert_true(f->regs.ebx >= addr32(lent_memory) && f->regs.ebx < addr32(lent_memory) + LOW_BYTES);
	static struct boot_env seen;
	memset(&seen, 0, sizeof(seen));
	assert_int_equal(multiboot2_parse(&physical_memory, f->regs.ebx, &seen), KS_OK);
	assert_string_equal(seen.cmdline, KERNEL_WORDS);
	assert_int_equal(seen.map_count, 0);
	assert_int_equal(load_le32(info), MB1_FLAG_CMDLINE);
	munmap(mem, LOW_BYTES);
	munmap(lent_memory, LOW_BYTES);
	munmap(f, LOW_BYTES);
}

/* Appends a tag of the given type and payload; returns the offset after it (8-aligned). */
static uint32_t add_tag(uint8_t *info, uint32_t at, uint32_t type, const void *payload,
			uint32_t len)
{
	store_le32(info + at, type);
	store_le32(info + at + 4, 8 + len);
	if (len)
		memcpy(info + at + 8, payload, len);
	return (at + 8 + len + 7) & ~7u;
}

/* The copy of a Multiboot 2 information; kslide's tag in it only when the image asks. */
static void check_multiboot2_copy(bool kslide_tag)
{
	uint8_t *mem = low(), *info = mem, *copy = low();
	uint8_t sections[20] = { 3, 0, 0, 0, 40, 0, 0, 0, 1 }; /* num, entsize, shndx + one byte */
	uint8_t mmap_entries[8 + 24] = { 24 };
	uint32_t load_base[1] = { OLD_BASE };
	uint32_t at = 8, cmdline_at;
	at = add_tag(info, at, TAG_ELF_SECTIONS, sections, sizeof(sections));
	cmdline_at = at + 8;
	at = add_tag(info, at, TAG_CMDLINE, CMDLINE, sizeof(CMDLINE));
	at = add_tag(info, at, TAG_LOAD_BASE, load_base, sizeof(load_base));
	uint32_t mmap_at = at;
	at = add_tag(info, at, TAG_MMAP, mmap_entries, sizeof(mmap_entries));
	at = add_tag(info, at, TAG_END, NULL, 0);
	store_le32(info, at);
	store_le32(info + 4, 0);
	uint8_t mmap_tag[8 + sizeof(mmap_entries)];
	memcpy(mmap_tag, info + mmap_at, sizeof(mmap_tag));

	lent_memory = copy;
	struct fixture *f = (struct fixture *)(void *)low();
	setup(f, MB2_BOOTLOADER_MAGIC, info, (char *)info + cmdline_at);
	if (kslide_tag)
		f->image.flags |= KSLIDE_IMAGE_KSLIDE_TAG;
	assert_int_equal(handoff_multiboot.enter(&f->ctx, &f->regs), KS_OK);
	expect_registers(f, MB2_BOOTLOADER_MAGIC, addr32(copy));

	/* The copy: no ELF sections, the command line stripped, the load base moved, the map as
	 * the loader wrote it, kslide's tag last before the end tag if asked for, else none. */
	bool seen_cmdline = false, seen_base = false, seen_mmap = false, seen_kslide = false;
	uint32_t total = load_le32(copy), pos = 8, type = TAG_END;
	assert_true(total <= LOW_BYTES);
	while (pos + 8 <= total) {
		type = load_le32(copy + pos);
		uint32_t size = load_le32(copy + pos + 4);
		assert_false(seen_kslide && type != TAG_END);
		switch (type) {
		case TAG_ELF_SECTIONS:
			fail_msg("the ELF sections tag, which described the packed image, was kept");
			break;
		case TAG_CMDLINE:
			assert_string_equal((const char *)copy + pos + 8, KERNEL_WORDS);
			seen_cmdline = true;
			break;
		case TAG_LOAD_BASE:
			assert_int_equal(load_le32(copy + pos + 8), NEW_BASE);
			seen_base = true;
			break;
		case TAG_MMAP:
			assert_memory_equal(copy + pos, mmap_tag, sizeof(mmap_tag));
			seen_mmap = true;
			break;
		case KSLIDE_MULTIBOOT2_TAG_BOOTINFO:
			assert_int_equal(size, 8 + sizeof(f->bootinfo));
			assert_memory_equal(copy + pos + 8, &f->bootinfo, sizeof(f->bootinfo));
			seen_kslide = true;
			break;
		}
		if (type == TAG_END) {
			assert_int_equal(size, 8);
			assert_int_equal(pos + 8, total);
			break;
		}
		pos += (size + 7) & ~7u;
	}
	assert_int_equal(type, TAG_END);
	assert_true(seen_cmdline && seen_base && seen_mmap);
	assert_int_equal(seen_kslide, kslide_tag);
	munmap(mem, LOW_BYTES);
	munmap(copy, LOW_BYTES);
	munmap(f, LOW_BYTES);
}

static void test_multiboot2_copy_has_no_tag_of_kslides_by_default(void **state)
{
	(void)state;
	check_multiboot2_copy(false);
}

static void test_multiboot2_copy_has_kslides_tag_when_the_image_asks(void **state)
{
	(void)state;
	check_multiboot2_copy(true);
}

/* Find the first tag of this type in Multiboot 2 information, or NULL. */
static const uint8_t *find_tag(const uint8_t *info, uint32_t type)
{
	for (uint32_t off = 8; off + 8 <= load_le32(info);) {
		if (load_le32(info + off) == type)
			return info + off;
		if (load_le32(info + off) == TAG_END)
			return NULL;
		off += (load_le32(info + off + 4) + 7) & ~7u;
	}
	return NULL;
}

/* Started by UEFI firmware (no loader magic, the exit's EFI map): the Multiboot 2 magic and
 * information built as GRUB gives it on UEFI, the system table tag and the kernel's new base
 * in it, the command line without the stub's words. */
static void test_uefi_way_in_gets_grubs_information(void **state)
{
	(void)state;
	uint8_t *mem = low();
	char *cmdline = (char *)mem + 0x1000;
	strcpy(cmdline, CMDLINE);
	uint8_t *efi_map = mem + 0x2000; /* one conventional descriptor of 48 bytes */
	memset(efi_map, 0, 48);
	store_le32(efi_map, 7);
	store_le64(efi_map + 24, 0x100);
	lent_memory = low();
	struct fixture *f = (struct fixture *)(void *)low();
	setup(f, 0, (uint8_t *)&f->env, cmdline);
	f->env.loader_name = "UEFI";
	f->env.efi_system_table = 0x7fb6e018;
	f->env.efi_bits = 64;
	f->env.efi_memmap = (uintptr_t)efi_map;
	f->env.efi_memmap_size = 48;
	f->env.efi_memdesc_size = 48;
	f->env.efi_memdesc_version = 1;
	assert_int_equal(handoff_multiboot.enter(&f->ctx, &f->regs), KS_OK);
	assert_int_equal(f->regs.entry, NEW_BASE + ENTRY_OFFSET);
	assert_int_equal(f->regs.eax, MB2_BOOTLOADER_MAGIC);
	const uint8_t *info = (const uint8_t *)(uintptr_t)f->regs.ebx;
	assert_true(info >= lent_memory && info < lent_memory + LOW_BYTES);
	const uint8_t *tag = find_tag(info, 12);
	assert_non_null(tag);
	assert_int_equal(load_le64(tag + 8), 0x7fb6e018);
	assert_non_null(find_tag(info, 17));
	tag = find_tag(info, TAG_LOAD_BASE);
	assert_non_null(tag);
	assert_int_equal(load_le32(tag + 8), NEW_BASE);
	tag = find_tag(info, TAG_CMDLINE);
	assert_string_equal((const char *)tag + 8, KERNEL_WORDS);
	munmap(mem, LOW_BYTES);
	munmap(lent_memory, LOW_BYTES);
	munmap(f, LOW_BYTES);
}

/* Neither a Multiboot loader nor UEFI (PVH's magic): refused, nothing built. */
static void test_other_loaders_refused(void **state)
{
	(void)state;
	lent_memory = NULL;
	struct fixture *f = (struct fixture *)(void *)low();
	setup(f, 0x336ec578, (uint8_t *)&f->env, NULL);
	assert_int_not_equal(handoff_multiboot.enter(&f->ctx, &f->regs), KS_OK);
	assert_non_null(f->ctx.why);
	assert_int_equal(lend_calls, 0);
	munmap(f, LOW_BYTES);
}

static void test_multiboot2_no_memory(void **state)
{
	(void)state;
	uint8_t *info = low();
	uint32_t at = add_tag(info, 8, TAG_END, NULL, 0);
	store_le32(info, at);
	lent_memory = NULL;
	struct fixture *f = (struct fixture *)(void *)low();
	setup(f, MB2_BOOTLOADER_MAGIC, info, NULL);
	assert_int_not_equal(handoff_multiboot.enter(&f->ctx, &f->regs), KS_OK);
	assert_non_null(f->ctx.why);
	assert_int_equal(lend_calls, 1);
	munmap(info, LOW_BYTES);
	munmap(f, LOW_BYTES);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_multiboot1_in_place),
		cmocka_unit_test(test_multiboot2_kernel_under_multiboot1),
		cmocka_unit_test(test_multiboot2_copy_has_no_tag_of_kslides_by_default),
		cmocka_unit_test(test_multiboot2_copy_has_kslides_tag_when_the_image_asks),
		cmocka_unit_test(test_multiboot2_no_memory),
		cmocka_unit_test(test_uefi_way_in_gets_grubs_information),
		cmocka_unit_test(test_other_loaders_refused),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
