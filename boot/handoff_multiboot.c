/*
 * The Multiboot pass-through: the kernel is entered as its own Multiboot loader would have
 * entered it had it loaded the kernel at the random base, with the loader's magic in EAX and
 * the loader's information in EBX; only what the move made false changes, and kslide's own
 * boot info rides along where the specifications leave room: in registers, and in a Multiboot
 * 2 tag of its own only when the image asks (kslide-pack --kslide-tag), since a kernel may
 * trip on a tag it does not know (include/kslide/multiboot.h has the whole contract). The
 * i386 stub's state is the one both specifications promise: 32-bit protected mode, paging
 * off, flat segments, A20 on, interrupts off. An x86-64 Multiboot kernel is run by this stub
 * too: its entry is 32-bit code, and it moves by one delta (kslide-pack's single slide). So is
 * the x86-64 stub, for such a kernel packed --format efi: it enters the same state from long
 * mode through a trampoline (boot/mode32.h).
 *
 * A Multiboot 2-only kernel started through the image's Multiboot 1 header (QEMU's -kernel)
 * gets Multiboot 2 information translated from the loader's (boot/multiboot1_to_2.c), then
 * passed on as a Multiboot 2 loader's would be. One started by UEFI firmware (the x86-64
 * stub's PE) gets what GRUB's multiboot2 gives on UEFI after ExitBootServices, with the EFI
 * system table and memory map tags (boot/multiboot2_uefi.c), passed on the same way.
 *
 * Multiboot 1 information is changed in place. Multiboot 2 information is copied into lent
 * memory, since the copy may grow by kslide's tag:
 *
 *   loader's:  | total | rsvd | tag | tag (ELF sections) | tag (load base) | ... | end |
 *   copy:      | total | rsvd | tag |                    | tag (new base)  | ... | [kslide] | end |
 */
#include "boot/handoff.h"
#include "boot/mode32.h"
#include "boot/multiboot1.h"
#include "boot/multiboot1_to_2.h"
#include "boot/multiboot2.h"
#include "boot/multiboot2_uefi.h"
#include "include/kslide/multiboot.h"
#include "lib/cmdline.h"
#include "lib/errors.h"
#include "lib/string.h"
#include "lib/unaligned.h"

/* Multiboot 0.6.96, 3.3: flags bits 4 and 5 say the a.out or ELF symbol fields are valid. */
#define MB1_FLAGS_SYMBOLS (MB1_INFO_AOUT_SYMS | MB1_INFO_ELF_SHDR)

static uint32_t padded(uint32_t size)
{
	return (size + MB2_TAG_ALIGN - 1) & ~(uint32_t)(MB2_TAG_ALIGN - 1);
}

/*
 * The loader's Multiboot 2 information, already walked and checked by multiboot2_parse,
 * copied to dst tag by tag. Returns the bytes written before the end tag.
 */
static uint32_t copy_mb2_tags(uint8_t *dst, const uint8_t *info, uint64_t kernel_phys)
{
	uint32_t total = load_le32(info), in = MB2_INFO_HEADER, out = MB2_INFO_HEADER;
	while (in + MB2_TAG_HEADER <= total) {
		const uint8_t *tag = info + in;
		uint32_t type = load_le32(tag), size = load_le32(tag + 4);
		if (type == MB2_INFO_TAG_END)
			break;
		in += padded(size);
		if (type == MB2_INFO_TAG_ELF_SECTIONS)
			continue; /* they described the packed image, not the kernel */
		memcpy(dst + out, tag, size);
		if (type == MB2_INFO_TAG_LOAD_BASE && size >= MB2_LOAD_BASE_ADDR + 4)
			store_le32(dst + out + MB2_LOAD_BASE_ADDR, (uint32_t)kernel_phys);
		out += padded(size);
	}
	return out;
}

static int pass_mb2(struct handoff_context *ctx, struct entry_regs *regs, uint32_t info_addr)
{
	const uint8_t *info = (const uint8_t *)(uintptr_t)info_addr;
	const uint32_t bootinfo_tag = MB2_TAG_HEADER + sizeof(*ctx->bootinfo);
	uint64_t size = load_le32(info) + padded(bootinfo_tag) + MB2_TAG_HEADER;
	uint64_t copy;
	if (ctx->lend(size, &copy) != KS_OK) {
		ctx->why = "no free memory below 4 GiB for the Multiboot 2 information";
		return KS_ENOENT;
	}
	uint8_t *dst = (uint8_t *)(uintptr_t)copy;
	uint32_t at = copy_mb2_tags(dst, info, ctx->bootinfo->phys_base);
	if (ctx->image->flags & KSLIDE_IMAGE_KSLIDE_TAG) {
		store_le32(dst + at, KSLIDE_MULTIBOOT2_TAG_BOOTINFO);
		store_le32(dst + at + 4, bootinfo_tag);
		memcpy(dst + at + MB2_TAG_HEADER, ctx->bootinfo, sizeof(*ctx->bootinfo));
		at += padded(bootinfo_tag);
	}
	store_le32(dst + at, MB2_INFO_TAG_END);
	store_le32(dst + at + 4, MB2_TAG_HEADER);
	at += MB2_TAG_HEADER;
	store_le32(dst, at);
	store_le32(dst + 4, 0);
	regs->ebx = (uint32_t)copy;
	return KS_OK;
}

/* The information the kernel is handed, in EBX (EAX the magic that goes with it). */
static int pass_info(struct handoff_context *ctx, struct entry_regs *regs)
{
	struct boot_env *env = ctx->env;
	if (env->loader_magic == MB2_BOOTLOADER_MAGIC)
		return pass_mb2(ctx, regs, env->loader_info);
	if (env->efi_memmap) {
		/* UEFI firmware, no Multiboot loader: what GRUB would have given. */
		uint64_t mb2;
		int rc = multiboot2_from_uefi(env, ctx->bootinfo->phys_base, ctx->lend, &mb2,
					      &ctx->why);
		if (rc != KS_OK)
			return rc;
		regs->eax = MB2_BOOTLOADER_MAGIC;
		return pass_mb2(ctx, regs, (uint32_t)mb2);
	}
	if (env->loader_magic != MB1_BOOTLOADER_MAGIC) {
		ctx->why = "a Multiboot kernel starts only from a Multiboot loader or UEFI firmware";
		return KS_EINVAL;
	}
	if (ctx->image->flags & KSLIDE_IMAGE_MULTIBOOT2_KERNEL) {
		/* A Multiboot 2-only kernel, started through the image's Multiboot 1 header: it
		 * gets what GRUB's multiboot2 would have given it, then as from such a loader. */
		uint64_t mb2;
		int rc = multiboot1_to_2(ctx->mem, env->loader_info, ctx->lend, &mb2, &ctx->why);
		if (rc != KS_OK)
			return rc;
		regs->eax = MB2_BOOTLOADER_MAGIC;
		return pass_mb2(ctx, regs, (uint32_t)mb2);
	}
	uint8_t *info = (uint8_t *)(uintptr_t)env->loader_info;
	store_le32(info, load_le32(info) & ~MB1_FLAGS_SYMBOLS);
	return KS_OK;
}

static int enter(struct handoff_context *ctx, struct entry_regs *regs)
{
	struct boot_env *env = ctx->env;
	/* In the loader's memory, so the copy below and the boot info see the same words. */
	if (env->cmdline)
		cmdline_remove_stub_words((char *)(uintptr_t)env->cmdline);
	regs->eax = env->loader_magic;
	regs->ebx = env->loader_info;
	/* The boot info lies in the stub, which UEFI may have loaded above 4 GiB: then no
	 * register can name it. */
	uint64_t bootinfo = (uintptr_t)ctx->bootinfo;
	regs->ecx = bootinfo >> 32 ? 0 : (uint32_t)bootinfo;
	regs->edx = bootinfo >> 32 ? 0 : KSLIDE_BOOT_MAGIC;
	regs->esi = regs->edi = regs->ebp = 0;
	int rc = pass_info(ctx, regs);
	if (rc != KS_OK)
		return rc;
	/* Paging off: the entry's physical address (the single slide moves both alike). */
	return mode32_enter(regs, ctx->bootinfo->phys_base + ctx->image->entry_offset, ctx->lend,
			    &ctx->why);
}

const struct kernel_handoff handoff_multiboot = {
	.name = KSLIDE_HANDOFF_MULTIBOOT_NAME,
	.id = KSLIDE_HANDOFF_MULTIBOOT,
	.enter = enter,
	.bootinfo_in_place = true, /* ECX names it, Multiboot 2's tag or not */
};
