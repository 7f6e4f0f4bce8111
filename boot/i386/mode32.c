/* i386: the stub already runs in the Multiboot machine state (boot/mode32.h). */
#include "boot/mode32.h"
#include "lib/errors.h"

int mode32_enter(struct entry_regs *regs, uint64_t entry, memory_lender lend, const char **why)
{
	(void)lend;
	(void)why;
	regs->entry = entry;
	return KS_OK;
}
