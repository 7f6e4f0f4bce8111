/*
 * Selftest suite "bootinfo": what the stub handed over is consistent with where the kernel
 * runs and with the memory the kernel was placed in.
 */
#include <stddef.h>
#include <stdint.h>

#include "kernel/console.h"
#include "kernel/layout.h"
#include "kernel/memory.h"
#include "kernel/selftest/selftest.h"
#include "lib/cmdline.h"
#include "lib/crc32.h"
#include "lib/string.h"

extern char _kernel_start[], _kernel_end[];

#define MIN_BASE 0x01000000ull /* kslide-pack's default lower bound for i386: 16 MiB */
/* A base drawn, or chosen by kslide.phys= on an image packed for it: a slot either way. */
#define PLACED (KSLIDE_BOOT_RANDOMIZED | KSLIDE_BOOT_DEBUG_PLACEMENT)

static bool header_valid(const struct kslide_bootinfo *bi)
{
	if (bi->magic != KSLIDE_BOOT_MAGIC)
		return check_fail("magic", bi->magic, KSLIDE_BOOT_MAGIC);
	if (bi->version != KSLIDE_BOOTINFO_VERSION)
		return check_fail("version", bi->version, KSLIDE_BOOTINFO_VERSION);
	if (bi->size != sizeof(*bi))
		return check_fail("size", bi->size, sizeof(*bi));
	return true;
}

#if VIRT_FOLLOWS_PHYS
static bool virtual_base_valid(const struct kslide_bootinfo *bi)
{
	if (bi->virt_base - bi->phys_base != KERNEL_VIRT_OFFSET)
		return check_fail("virt_base - phys_base", bi->virt_base - bi->phys_base,
				  KERNEL_VIRT_OFFSET);
	if (kslide_phys_slide(bi) != kslide_virt_slide(bi))
		return check_fail("virtual slide", kslide_virt_slide(bi), kslide_phys_slide(bi));
	if (bi->virt_slots != 0 || bi->virt_align != 0)
		return check_fail("virtual slots where the virtual base follows", bi->virt_slots, 0);
	return true;
}
#else
/* Drawn on its own: aligned, in the upper half, clear of the fixed area at the top. */
static bool virtual_base_valid(const struct kslide_bootinfo *bi)
{
	if (!(bi->flags & PLACED))
		return bi->virt_base == bi->link_virt_base ||
		       check_fail("unrandomized virtual base", bi->virt_base, bi->link_virt_base);
	if (bi->virt_slots == 0 || bi->virt_align == 0)
		return check_fail("virtual slots", bi->virt_slots, 1);
	if (bi->virt_base & (bi->virt_align - 1))
		return check_fail("virtual base alignment", bi->virt_base & (bi->virt_align - 1), 0);
	if (bi->virt_base < 0xffff800000000000ull)
		return check_fail("virtual base below the upper half", bi->virt_base,
				  0xffff800000000000ull);
	if (bi->virt_base + bi->image_size > FIXED_AREA)
		return check_fail("kernel reaches into the fixed area", bi->virt_base + bi->image_size,
				  FIXED_AREA);
	return true;
}
#endif

static bool slide_consistent(const struct kslide_bootinfo *bi)
{
	if (!virtual_base_valid(bi))
		return false;
	uint64_t size = (uintptr_t)(_kernel_end - _kernel_start);
	if (bi->image_size != size)
		return check_fail("image_size", bi->image_size, size);
	return true;
}

static bool base_within_bounds(const struct kslide_bootinfo *bi)
{
	if (!(bi->flags & PLACED))
		return bi->phys_base == bi->link_phys_base ||
		       check_fail("unrandomized base", bi->phys_base, bi->link_phys_base);
	if (bi->phys_slots == 0)
		return check_fail("slots", 0, 1);
	if (bi->phys_base & (bi->align - 1))
		return check_fail("base alignment", bi->phys_base & (bi->align - 1), 0);
	if (bi->phys_base < MIN_BASE)
		return check_fail("base below the minimum", bi->phys_base, MIN_BASE);
	if (bi->phys_base + bi->image_size > KERNEL_PHYS_LIMIT)
		return check_fail("kernel end above its physical limit", bi->phys_base + bi->image_size,
				  KERNEL_PHYS_LIMIT);
	return true;
}

static bool in_usable_ram(const struct kslide_bootinfo *bi)
{
	const struct kslide_mem_entry *map = phys_to_virt(bi->mmap);
	uint64_t first = bi->phys_base, last = bi->phys_base + bi->image_size - 1;
	/* Merge touching usable entries as the stub does: walk until the kernel is covered. */
	uint64_t covered = first;
	for (int pass = 0; pass < (int)bi->mmap_count && covered <= last; pass++)
		for (uint32_t i = 0; i < bi->mmap_count; i++)
			if (map[i].type == KSLIDE_MEM_USABLE && map[i].base <= covered &&
			    covered - map[i].base < map[i].length)
				covered = map[i].base + map[i].length;
	return covered > last || check_fail("kernel outside usable RAM", covered, last);
}

static bool overlaps(uint64_t a, uint64_t a_end, uint64_t b, uint64_t b_end)
{
	return a < b_end && b < a_end;
}

static bool boot_data_intact(const struct kslide_bootinfo *bi)
{
	uint64_t start = bi->phys_base, end = bi->phys_base + bi->image_size;
	if (overlaps(start, end, bi->bootinfo_start, bi->bootinfo_end))
		return check_fail("kernel overlaps the stub", start, bi->bootinfo_start);
	if (bi->cmdline && overlaps(start, end, bi->cmdline, bi->cmdline + 1))
		return check_fail("kernel overlaps the command line", start, bi->cmdline);
	const struct kslide_module *mods = phys_to_virt(bi->modules);
	for (uint32_t i = 0; i < bi->module_count; i++)
		if (overlaps(start, end, mods[i].start, mods[i].end))
			return check_fail("kernel overlaps a module", start, mods[i].start);
	return true;
}

#define MODULE_CRC_KEY "crc32" /* a module given as "file crc32=0x..." is checked */
#define HEX_MAX 16

static uint32_t parse_hex(const char *s)
{
	uint32_t v = 0;
	if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X'))
		s += 2;
	for (; *s; s++) {
		unsigned d = *s >= '0' && *s <= '9'   ? (unsigned)(*s - '0')
			     : *s >= 'a' && *s <= 'f' ? (unsigned)(*s - 'a' + 10)
			     : *s >= 'A' && *s <= 'F' ? (unsigned)(*s - 'A' + 10)
						      : 16;
		if (d == 16)
			break;
		v = v << 4 | d;
	}
	return v;
}

/* Modules the boot loader placed must survive the kernel's move byte for byte. */
static bool modules_intact(const struct kslide_bootinfo *bi)
{
	const struct kslide_module *mods = phys_to_virt(bi->modules);
	for (uint32_t i = 0; i < bi->module_count; i++) {
		const char *args = mods[i].cmdline ? phys_to_virt(mods[i].cmdline) : "";
		char want[HEX_MAX + 3];
		if (cmdline_get(args, strlen(args), MODULE_CRC_KEY, want, sizeof(want)) != 0)
			continue;
		uint32_t got = crc32_update(0, phys_to_virt(mods[i].start), mods[i].end - mods[i].start);
		if (got != parse_hex(want))
			return check_fail("module checksum", got, parse_hex(want));
		kprintf("# module %u at 0x%llx, %llu bytes: crc32 0x%08x intact\n", i,
			(unsigned long long)mods[i].start,
			(unsigned long long)(mods[i].end - mods[i].start), got);
	}
	return true;
}

static bool seed_present(const struct kslide_bootinfo *bi)
{
	unsigned nonzero = 0;
	for (size_t i = 0; i < sizeof(bi->seed); i++)
		nonzero += bi->seed[i] != 0;
	/* 32 random bytes all but a few zero has probability far below 2^-200. */
	return nonzero > 16 || check_fail("non-zero seed bytes", nonzero, 16);
}

/* What the loader said of UEFI arrives whole: a width exactly when there is a system table. */
static bool efi_facts_consistent(const struct kslide_bootinfo *bi)
{
	if (bi->efi_bits != 0 && bi->efi_bits != 32 && bi->efi_bits != 64)
		return check_fail("EFI width", bi->efi_bits, 64);
	if ((bi->efi_bits == 0) != (bi->efi_system_table == 0))
		return check_fail("EFI system table without a width", bi->efi_system_table,
				  bi->efi_bits);
	if (bi->efi_bits)
		kprintf("# efi: %u-bit firmware, system table at 0x%llx%s\n", (unsigned)bi->efi_bits,
			(unsigned long long)bi->efi_system_table,
			(bi->flags & KSLIDE_BOOT_EFI_BOOT_SERVICES) ? ", boot services running" : "");
	else
		kprintf("# efi: none\n");
	return true;
}

static const struct selftest_case cases[] = {
	{ "boot info has the right magic, version and size", header_valid },
	{ "physical and virtual slides agree with the link layout", slide_consistent },
	{ "base is aligned and within the allowed window", base_within_bounds },
	{ "kernel lies in usable RAM", in_usable_ram },
	{ "kernel overlaps neither the stub, the command line nor a module", boot_data_intact },
	{ "stub handed over a random seed", seed_present },
	{ "modules with a crc32= argument are intact", modules_intact },
	{ "EFI facts from the loader are consistent", efi_facts_consistent },
};

const struct selftest_suite selftest_bootinfo = SELFTEST_SUITE("bootinfo", cases);
