/* The x86-64 trap frame, as kernel/x86_64/vectors.S builds it (lowest address first), and the
 * parts of it only this arch knows. Include kernel/cpu/trap.h. */
#ifndef KSLIDE_KERNEL_X86_64_TRAP_H
#define KSLIDE_KERNEL_X86_64_TRAP_H

#include <stdbool.h>
#include <stdint.h>

#include "kernel/layout.h"

struct trapframe {
	uint64_t r15, r14, r13, r12, r11, r10, r9, r8;
	uint64_t di, si, bp, bx, dx, cx, ax;
	uint64_t trapno, err;
	uint64_t ip, cs, flags, sp, ss; /* pushed by the CPU, from any ring in long mode */
};
_Static_assert(sizeof(struct trapframe) % 16 == 0, "the frame keeps the stack 16-aligned");

/* System calls (kernel/proc/uapi.h): the number in RAX, arguments in RDI, RSI, RDX (the C calling
 * convention's first registers), result in RAX. */
static inline void trapframe_syscall_args(const struct trapframe *tf, uintptr_t args[3])
{
	args[0] = tf->di, args[1] = tf->si, args[2] = tf->dx;
}

/* What a frame entering ring 3 needs besides kernel/mm/space.c's part: user_main's two
 * arguments in RDI and RSI (kernel/user/x86_64/crt0.S). */
static inline void trapframe_user_args(struct trapframe *tf, uintptr_t a0, uintptr_t a1)
{
	tf->di = a0;
	tf->si = a1;
}

#endif
