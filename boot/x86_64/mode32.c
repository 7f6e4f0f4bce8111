/*
 * x86-64: out of long mode for a kernel entered in the Multiboot machine state
 * (boot/mode32.h). The trampoline (boot/x86_64/mode32_trampoline.S) is position-independent
 * and copied to a lent page: the stub itself may lie above 4 GiB under UEFI, and the code
 * that turns paging off must run where virtual = physical, below 4 GiB to stay reachable in
 * 32-bit mode. The page holds its GDT and, at its end, the stack ESP points to; after the jump
 * the kernel may reuse it.
 */
#include "boot/mode32.h"
#include "lib/errors.h"
#include "lib/string.h"

#define PAGE_SIZE      4096
#define ADDRESS_32_END 0x100000000ull

extern const uint8_t mode32_trampoline[], mode32_trampoline_end[];

int mode32_enter(struct entry_regs *regs, uint64_t entry, memory_lender lend, const char **why)
{
	uint64_t page;
	if (entry >= ADDRESS_32_END) {
		*why = "the kernel's 32-bit entry lies above 4 GiB";
		return KS_ERANGE;
	}
	if (lend(PAGE_SIZE, &page) != KS_OK) {
		*why = "no free memory below 4 GiB to leave long mode from";
		return KS_ENOENT;
	}
	memcpy((void *)(uintptr_t)page, mode32_trampoline,
	       (size_t)(mode32_trampoline_end - mode32_trampoline));
	regs->entry = page;
	regs->esi = (uint32_t)page;
	regs->edi = (uint32_t)entry;
	return KS_OK;
}
