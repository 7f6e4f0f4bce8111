/*
 * kslide's own handoff: the kernel learns everything from struct kslide_bootinfo, whose header
 * (include/kslide/bootinfo.h) is the whole contract. EAX = KSLIDE_BOOT_MAGIC and EBX = the
 * struct's physical address; on x86-64 also EDI and ESI, so that the entry may be a C function
 * kernel_entry(uint32_t magic, uint64_t boot_info). The entry is the kernel's address where the
 * stub jumps from: physical on i386, virtual on x86-64.
 */
#include "boot/handoff.h"
#include "lib/errors.h"

static int enter(struct handoff_context *ctx, struct entry_regs *regs)
{
	regs->entry = mapping_address(ctx->mapping, ctx->image->entry_offset);
	regs->eax = regs->edi = KSLIDE_BOOT_MAGIC;
	regs->ebx = regs->esi = (uint32_t)(uintptr_t)ctx->bootinfo;
	return KS_OK;
}

const struct kernel_handoff handoff_kslide = {
	.name = KSLIDE_HANDOFF_KSLIDE_NAME,
	.id = KSLIDE_HANDOFF_KSLIDE,
	.enter = enter,
	.bootinfo_in_place = true,
};
