/* The i386 trap frame, as kernel/i386/vectors.S builds it (lowest address first), and the
 * parts of it only this arch knows. Include kernel/cpu/trap.h. */
#ifndef KSLIDE_KERNEL_I386_TRAP_H
#define KSLIDE_KERNEL_I386_TRAP_H

#include <stdbool.h>
#include <stdint.h>

#include "kernel/layout.h"

/* Fields named as on x86-64 (kernel/x86_64/trap.h), so kernel/cpu/trap.c reads either. */
struct trapframe {
	uint32_t di, si, bp, sp_ignored, bx, dx, cx, ax; /* pushal */
	uint32_t gs, fs, es, ds;
	uint32_t trapno, err;
	uint32_t ip, cs, flags; /* pushed by the CPU */
	uint32_t sp, ss;        /* and these only when coming from ring 3 */
};

/* System calls (kernel/proc/uapi.h): the number in EAX, arguments in EBX, ECX, EDX, result in EAX.
 */
static inline void trapframe_syscall_args(const struct trapframe *tf, uintptr_t args[3])
{
	args[0] = tf->bx, args[1] = tf->cx, args[2] = tf->dx;
}

/* What a frame entering ring 3 needs besides kernel/mm/space.c's part: user_main's two
 * arguments in EAX and EBX (kernel/user/i386/crt0.S), and the data segments, which the trap
 * exit restores too. */
static inline void trapframe_user_args(struct trapframe *tf, uintptr_t a0, uintptr_t a1)
{
	tf->ds = tf->es = tf->fs = tf->gs = USER_DS;
	tf->ax = a0;
	tf->bx = a1;
}

#endif
