/*
 * Where every trap lands, on both arches: system calls go to syscall_dispatch, faults in ring 3
 * to proc_user_fault (which kills), and any trap in ring 0 is a kernel bug (panic), except a
 * page fault at the one store try_write32, the one load try_read32 and the one call try_exec
 * expect may fault, and an NMI, which only ever
 * wakes a CPU halted for kernel/smp/smp_call.c and has nothing else to do.
 */
#include "kernel/cpu/trap.h"
#include "kernel/cpu/user_access.h"
#include "arch/x86/sysregs.h"
#include "kernel/arch.h"
#include "kernel/proc/proc.h"
#include "kernel/proc/syscall.h"
#include "kernel/secrecy/oops.h"

static enum fault_kind classify(const struct trapframe *tf, uintptr_t addr)
{
	if (tf->trapno == T_PAGE_FAULT)
		return arch_is_kernel_address(addr) ? FAULT_KERNEL_ADDRESS : FAULT_USER_ADDRESS;
	if (tf->trapno == T_GENERAL_PROTECTION)
		return FAULT_PROTECTION;
	return FAULT_OTHER;
}

void trap(struct trapframe *tf)
{
	/* A gate leaves EFLAGS.AC as ring 3 (or an interrupted user access) had it: without
	 * this, ring 3's POPF would switch SMAP off for the kernel's handling of its trap. */
	user_access_end();
	if (tf->trapno == T_NMI)
		return;
	bool kernel = !trapframe_from_user(tf);
	if (kernel && tf->trapno == T_PAGE_FAULT && tf->ip == (uintptr_t)try_write32_store) {
		tf->ip = (uintptr_t)try_write32_fixup;
		return;
	}
	if (kernel && tf->trapno == T_PAGE_FAULT && tf->ip == (uintptr_t)try_read32_load) {
		tf->ip = (uintptr_t)try_read32_fixup;
		return;
	}
	if (kernel && tf->trapno == T_PAGE_FAULT && try_exec_target && tf->ip == try_exec_target) {
		tf->ip = (uintptr_t)try_exec_fixup;
		return;
	}
	if (kernel)
		panic("trap %llu in the kernel at ip 0x%llx, error 0x%llx, cr2 0x%llx",
		      (unsigned long long)tf->trapno, (unsigned long long)tf->ip,
		      (unsigned long long)tf->err, (unsigned long long)read_cr2());
	if (tf->trapno == T_SYSCALL) {
		uintptr_t args[3];
		trapframe_syscall_args(tf, args);
		tf->ax = (uintptr_t)syscall_dispatch((unsigned)tf->ax, args[0], args[1], args[2]);
		return;
	}
	uintptr_t addr = tf->trapno == T_PAGE_FAULT ? read_cr2() : 0;
	proc_user_fault(classify(tf, addr), addr, tf->ip);
}
