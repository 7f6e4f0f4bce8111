/*
 * Traps: the arch-neutral handler (kernel/cpu/trap.c) over each arch's frame (kernel/<arch>/trap.h,
 * built by kernel/<arch>/vectors.S), and the ring-0 store that may fault (kernel/cpu/try_write.c).
 */
#ifndef KSLIDE_KERNEL_CPU_TRAP_H
#define KSLIDE_KERNEL_CPU_TRAP_H

#include <stdbool.h>
#include <stdint.h>

#ifdef __x86_64__
#include "kernel/x86_64/trap.h"
#else
#include "kernel/i386/trap.h"
#endif

#define FLAGS_RESERVED 0x2 /* bit 1 is always set; IF stays clear: no interrupts in ring 3 */

/* Vector numbers (Intel SDM Vol. 3A, table 6-1), and the system call's (kernel/proc/uapi.h). */
#define T_NMI 2
#define T_GENERAL_PROTECTION 13
#define T_PAGE_FAULT 14
#define T_SYSCALL 0x80

/* Both arches' frames name the CPU's part and the result register alike: ip, cs, ax. */
static inline bool trapframe_from_user(const struct trapframe *tf)
{
	return (tf->cs & 3) == 3;
}

void trap(struct trapframe *tf);

/*
 * Store value at addr from ring 0; false instead of a panic when the store faults (trap()
 * resumes a page fault at try_write32_store at try_write32_fixup). The selftests prove the
 * descriptor aliases read-only with it: the CPU's own write protection, not a PTE read. The
 * labels are hidden so that a PIE compares against them with a LEA: a CMP through the GOT
 * cannot be relaxed, and a GOT brings GOT[0], a link-time address no relocation covers.
 */
bool try_write32(uintptr_t addr, uint32_t value);
__attribute__((visibility("hidden"))) void try_write32_store(void), try_write32_fixup(void);

/* The same for a load: true and the value in *value, or false when the load faults. */
bool try_read32(uintptr_t addr, uint32_t *value);
__attribute__((visibility("hidden"))) void try_read32_load(void), try_read32_fixup(void);

/* Call the code at addr from ring 0 (it must be a lone RET); false instead of a panic when the
 * fetch faults (kernel/cpu/try_exec.c): how the selftests see SMEP and NX at work. */
bool try_exec(uintptr_t addr);
extern uintptr_t try_exec_target; /* addr while try_exec runs, else 0 */
__attribute__((visibility("hidden"))) void try_exec_fixup(void);

/* kernel/<arch>/vectors.S: "return" through the trap exit into tf, in ring 3; comes back with
 * the status arch_user_exit is given. */
int user_enter(struct trapframe *tf);

#endif
