/*
 * Where every trap lands: system calls go to syscall_dispatch, faults in ring 3 to
 * proc_user_fault (which kills), and any trap in ring 0 is a kernel bug (panic), except a page
 * fault at the one store try_write32 expects may fault.
 */
#include "arch/x86/sysregs.h"
#include "kernel/arch.h"
#include "kernel/oops.h"
#include "kernel/proc.h"
#include "kernel/syscall.h"
#include "kernel/x86_64/trap.h"

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
	bool kernel = (tf->cs & 3) != 3;
	if (kernel && tf->trapno == T_PAGE_FAULT && tf->rip == (uintptr_t)try_write32_store) {
		tf->rip = (uintptr_t)try_write32_fixup;
		return;
	}
	if (kernel)
		panic("trap %llu in the kernel at rip 0x%llx, error 0x%llx, cr2 0x%llx",
		      (unsigned long long)tf->trapno, (unsigned long long)tf->rip,
		      (unsigned long long)tf->err, (unsigned long long)read_cr2());
	if (tf->trapno == T_SYSCALL) {
		/* The C calling convention's first registers: RDI, RSI, RDX (kernel/uapi.h). */
		tf->rax = (uint64_t)syscall_dispatch((unsigned)tf->rax, tf->rdi, tf->rsi, tf->rdx);
		return;
	}
	uintptr_t addr = tf->trapno == T_PAGE_FAULT ? read_cr2() : 0;
	proc_user_fault(classify(tf, addr), addr, tf->rip);
}
