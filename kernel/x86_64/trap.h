/* The x86-64 trap frame, as kernel/x86_64/vectors.S builds it (lowest address first). */
#ifndef KSLIDE_KERNEL_X86_64_TRAP_H
#define KSLIDE_KERNEL_X86_64_TRAP_H

#include <stdbool.h>
#include <stdint.h>

#define T_PAGE_FAULT 14
#define T_GENERAL_PROTECTION 13
#define T_SYSCALL 0x80

struct trapframe {
	uint64_t r15, r14, r13, r12, r11, r10, r9, r8;
	uint64_t rdi, rsi, rbp, rbx, rdx, rcx, rax;
	uint64_t trapno, err;
	uint64_t rip, cs, rflags, rsp, ss; /* pushed by the CPU, from any ring in long mode */
};
_Static_assert(sizeof(struct trapframe) % 16 == 0, "the frame keeps the stack 16-aligned");

void trap(struct trapframe *tf);

/* kernel/x86_64/try_write.S. The labels are hidden so that the PIE compares against them
 * with a LEA: a CMP through the GOT cannot be relaxed, and a GOT brings GOT[0], a link-time
 * address that no relocation covers. */
bool try_write32(uintptr_t addr, uint32_t value);
__attribute__((visibility("hidden"))) void try_write32_store(void), try_write32_fixup(void);
/* kernel/x86_64/vectors.S */
int user_enter(struct trapframe *tf);

#endif
