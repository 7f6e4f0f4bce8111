/*
 * Linux's boot protocol (Documentation/x86/boot.rst, "32-bit boot protocol" and "64-bit boot
 * protocol"): what Linux's own decompressor hands the kernel it has placed, handed by the
 * stub to the kernel it has placed. The image's handoff data is the bzImage's setup header
 * (from its offset 0x1f1); the stub builds a zero page around it (include/protocol/linux_boot.h):
 *
 *   - the setup header, with type_of_loader, loadflags (KASLR_FLAG when the base was drawn
 *     at random, so Linux's own memory randomization and "Kernel Offset" follow), the
 *     command line and the initrd (the first Multiboot module);
 *   - an e820 table from the loader's memory map;
 *   - acpi_rsdp_addr, so that Linux finds ACPI without a BIOS area to search: the
 *     firmware's own RSDP where it lies (UEFI's configuration table, a PVH monitor's start
 *     info), as Linux's EFI and PVH entries give it; a Multiboot 2 loader's copy, which lies in
 *     memory Linux may reuse, copied to a page the e820 table marks as ACPI data. Lending that
 *     page only when needed also keeps the map Linux sees the firmware's, the same at every
 *     boot;
 *   - from the UEFI way in, efi_info as Linux's EFI stub fills it: "EL64", the system table
 *     and the EFI memory map ExitBootServices succeeded with, which lies in the stub's image
 *     (loader memory; Linux reserves the map it is given), and secure_boot as its stub
 *     decides it (boot/efi_secure_boot.c).
 *
 * The zero page and the page after it (an empty command line, the RSDP copy) are lent memory
 * below 4 GiB. The kernel is entered at its physical entry point (startup_32 with paging off
 * on i386; startup_64 identity-mapped in long mode on x86-64, where boot/x86_64/mapping.c
 * maps the whole memory_size), with ESI (RSI) = the zero page, EBX = EBP = EDI = 0,
 * interrupts off, CS 0x10 and DS = ES = SS = 0x18 flat (__BOOT_CS, __BOOT_DS), as both
 * protocols require.
 */
#include "boot/handoff.h"
#include "include/protocol/linux_boot.h"
#include "include/protocol/multiboot1.h"
#include "lib/cmdline.h"
#include "lib/errors.h"
#include "lib/string.h"

#define PAGE 4096u
#define E820_ACPI 3 /* "ACPI data": kept until the kernel has read its tables */

static uint32_t get32(const uint8_t *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static void put32(uint8_t *p, uint32_t v)
{
	p[0] = (uint8_t)v;
	p[1] = (uint8_t)(v >> 8);
	p[2] = (uint8_t)(v >> 16);
	p[3] = (uint8_t)(v >> 24);
}

static void put64(uint8_t *p, uint64_t v)
{
	put32(p, (uint32_t)v);
	put32(p + 4, (uint32_t)(v >> 32));
}

static int refuse(struct handoff_context *ctx, const char *why)
{
	ctx->why = why;
	return KS_EFORMAT;
}

/* The image's setup header, copied to its place in the zero page. */
static int copy_setup_header(struct handoff_context *ctx, uint8_t *zp)
{
	uint64_t size = ctx->image->handoff_data_size;
	if (size < HDR_END_MIN - ZP_SETUP_HEADER || size > ZP_E820_TABLE - ZP_SETUP_HEADER)
		return refuse(ctx, "the image's Linux setup header has an impossible size");
	memcpy(zp + ZP_SETUP_HEADER, ctx->data, (size_t)size);
	if (get32(zp + HDR_HEADER) != HDRS_MAGIC)
		return refuse(ctx, "the image's Linux setup header lacks its \"HdrS\" magic");
	return KS_OK;
}

static void add_e820(uint8_t *zp, uint32_t *count, uint64_t base, uint64_t length, uint32_t type)
{
	uint8_t *e = zp + ZP_E820_TABLE + *count * ZP_E820_ENTRY_SIZE;
	put64(e, base);
	put64(e + 8, length);
	put32(e + 16, type);
	(*count)++;
}

/*
 * The loader's map, entry for entry (the KSLIDE_MEM_* types are e820's), and the lent ACPI
 * page on top: Linux sanitizes the table itself, and where entries overlap the higher type
 * wins, so the page is ACPI data inside usable RAM.
 */
static int fill_e820(struct handoff_context *ctx, uint8_t *zp, uint64_t acpi_page)
{
	const struct boot_env *env = ctx->env;
	uint32_t count = 0;
	if (env->map_count + (acpi_page != 0) > ZP_E820_MAX)
		return refuse(ctx, "the memory map has more entries than Linux's zero page holds (128)");
	for (uint32_t i = 0; i < env->map_count; i++)
		add_e820(zp, &count, env->map[i].base, env->map[i].length, env->map[i].type);
	if (acpi_page)
		add_e820(zp, &count, acpi_page, PAGE, E820_ACPI);
	zp[ZP_E820_ENTRIES] = (uint8_t)count;
	return KS_OK;
}

/* Linux's command line is the loader's, without the stub's words (and a Multiboot 1
 * loader's image path), in place (below 4 GiB). */
static int set_cmdline(struct handoff_context *ctx, uint8_t *zp, uint64_t empty_string)
{
	struct boot_env *env = ctx->env;
	uint64_t at = empty_string;
	if (env->cmdline) {
		size_t len = cmdline_remove_stub_words((char *)(uintptr_t)env->cmdline);
		size_t path = env->loader_magic == MB1_BOOTLOADER_MAGIC
				      ? cmdline_image_path_length(env->cmdline) : 0;
		len -= path;
		uint32_t max = get32(zp + HDR_CMDLINE_SIZE);
		if (max && len > max)
			return refuse(ctx, "the command line is longer than the kernel's cmdline_size");
		at = env->cmdline_phys + path;
	}
	put32(zp + HDR_CMD_LINE_PTR, (uint32_t)at);
	put32(zp + ZP_EXT_CMD_LINE_PTR, (uint32_t)(at >> 32));
	return KS_OK;
}

/*
 * The first Multiboot module is the initrd, as GRUB's `linux` + `initrd` would give it. A
 * ramdisk_image of 0 means "no initrd" to Linux, and GRUB under UEFI does put a module at
 * physical 0: such a module is copied to lent memory first.
 */
static int set_initrd(struct handoff_context *ctx, uint8_t *zp)
{
	const struct boot_env *env = ctx->env;
	if (env->module_count == 0)
		return KS_OK;
	const struct kslide_module *m = &env->modules[0];
	uint64_t start = m->start, size = m->end - m->start;
	if (size && start == 0) {
		if (ctx->lend(size, &start) != KS_OK)
			return refuse(ctx, "no free memory below 4 GiB to move the initrd off "
					   "address 0");
		memcpy((void *)(uintptr_t)start, (const void *)(uintptr_t)m->start, (size_t)size);
	}
	if (size && start + size - 1 > get32(zp + HDR_INITRD_ADDR_MAX))
		return refuse(ctx, "the first module (the initrd) ends above the kernel's "
				   "initrd_addr_max");
	put32(zp + HDR_RAMDISK_IMAGE, (uint32_t)start);
	put32(zp + HDR_RAMDISK_SIZE, (uint32_t)size);
	put32(zp + ZP_EXT_RAMDISK_IMAGE, (uint32_t)(start >> 32));
	put32(zp + ZP_EXT_RAMDISK_SIZE, (uint32_t)(size >> 32));
	return KS_OK;
}

static void set_efi_info(const struct boot_env *env, uint8_t *zp)
{
	if (env->efi_bits != 64 || env->efi_boot_services || !env->efi_memmap)
		return;
	put32(zp + ZP_EFI_LOADER_SIGNATURE, EFI64_LOADER_SIGNATURE);
	put32(zp + ZP_EFI_SYSTAB, (uint32_t)env->efi_system_table);
	put32(zp + ZP_EFI_SYSTAB_HI, (uint32_t)(env->efi_system_table >> 32));
	put32(zp + ZP_EFI_MEMDESC_SIZE, env->efi_memdesc_size);
	put32(zp + ZP_EFI_MEMDESC_VERSION, env->efi_memdesc_version);
	put32(zp + ZP_EFI_MEMMAP, (uint32_t)env->efi_memmap);
	put32(zp + ZP_EFI_MEMMAP_HI, (uint32_t)(env->efi_memmap >> 32));
	put32(zp + ZP_EFI_MEMMAP_SIZE, (uint32_t)env->efi_memmap_size);
	zp[ZP_SECURE_BOOT] = env->efi_secure_boot;
}

static int enter(struct handoff_context *ctx, struct entry_regs *regs)
{
	const struct boot_env *env = ctx->env;
	/* Page 0: the zero page. Page 1: an empty command line and the RSDP copy. */
	uint64_t pages;
	if (ctx->lend(2 * PAGE, &pages) != KS_OK)
		return refuse(ctx, "no free memory below 4 GiB for Linux's zero page");
	uint8_t *zp = (uint8_t *)(uintptr_t)pages, *extra = zp + PAGE;
	memset(zp, 0, 2 * PAGE);
	int rc = copy_setup_header(ctx, zp);
	if (rc != KS_OK)
		return rc;
	zp[HDR_TYPE_OF_LOADER] = LOADER_UNDEFINED;
	zp[HDR_LOADFLAGS] |= LOADFLAGS_LOADED_HIGH;
	/* A debug placement is entered as the drawn boot it reproduces was. */
	if (ctx->bootinfo->flags & (KSLIDE_BOOT_RANDOMIZED | KSLIDE_BOOT_DEBUG_PLACEMENT))
		zp[HDR_LOADFLAGS] |= LOADFLAGS_KASLR;
	else
		zp[HDR_LOADFLAGS] &= (uint8_t)~LOADFLAGS_KASLR;
	uint64_t acpi_page = 0;
	if (env->acpi_rsdp_copy && env->acpi_rsdp_kept) {
		put64(zp + ZP_ACPI_RSDP_ADDR, env->acpi_rsdp_copy);
	} else if (env->acpi_rsdp_copy && env->acpi_rsdp_size <= PAGE - 1) {
		acpi_page = pages + PAGE;
		/* The RSDP after the empty command line, 16-byte aligned as the spec wants. */
		memcpy(extra + 16, (const void *)(uintptr_t)env->acpi_rsdp_copy, env->acpi_rsdp_size);
		put64(zp + ZP_ACPI_RSDP_ADDR, acpi_page + 16);
	}
	set_efi_info(env, zp);
	rc = fill_e820(ctx, zp, acpi_page);
	if (rc == KS_OK)
		rc = set_cmdline(ctx, zp, pages + PAGE);
	if (rc == KS_OK)
		rc = set_initrd(ctx, zp);
	if (rc != KS_OK)
		return rc;
	regs->entry = ctx->bootinfo->phys_base + ctx->image->entry_offset;
	regs->esi = (uint32_t)pages;
	regs->eax = regs->ebx = regs->ecx = regs->edx = regs->edi = regs->ebp = 0;
	return KS_OK;
}

const struct kernel_handoff handoff_linux = {
	.name = KSLIDE_HANDOFF_LINUX_NAME,
	.id = KSLIDE_HANDOFF_LINUX,
	.enter = enter,
};
