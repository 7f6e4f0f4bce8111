/*
 * x86-64 half of kernel/acpi/wakeup.h: wake_save, and wake_entry, where the trampoline lands on
 * waking (long mode, the trampoline's root, wake_stack). RIP-relative only (kernel model and
 * PIE alike).
 */
#include "kernel/layout.h"
#include "kernel/smp/trampoline.h"
#include "kernel/acpi/wakeup.h"

	.text
	.globl wake_save, wake_entry
	.hidden wake_save, wake_entry
wake_save:
	leaq wake_context(%rip), %rdi
	movq (%rsp), %rax
	movq %rax, WC(WC_IP)(%rdi)
	leaq 8(%rsp), %rax		/* as it will be after the return */
	movq %rax, WC(WC_SP)(%rdi)
	movq %cr0, %rax
	movq %rax, WC(WC_CR0)(%rdi)
	movq %cr3, %rax
	movq %rax, WC(WC_CR3)(%rdi)
	movq %cr4, %rax
	andq $~CR4_FROM_CPUID, %rax	/* cpu_load sets them, from CPUID, as on every start */
	movq %rax, WC(WC_CR4)(%rdi)
	movl $MSR_EFER, %ecx
	rdmsr
	movl %eax, WC(WC_EFER)(%rdi)
	movl %edx, WC(WC_EFER) + 4(%rdi)
	movq %rbx, WC(WC_SAVED)(%rdi)
	movq %rbp, WC(WC_SAVED + 1)(%rdi)
	movq %r12, WC(WC_SAVED + 2)(%rdi)
	movq %r13, WC(WC_SAVED + 3)(%rdi)
	movq %r14, WC(WC_SAVED + 4)(%rdi)
	movq %r15, WC(WC_SAVED + 5)(%rdi)
	xorl %eax, %eax
	ret

wake_entry:
	leaq wake_context(%rip), %rdi
	movq WC(WC_CR3)(%rdi), %rax	/* off the trampoline's root, whose tables are low */
	movq %rax, %cr3
	movq WC(WC_CR4)(%rdi), %rax
	movq %rax, %cr4
	movl $MSR_EFER, %ecx
	movl WC(WC_EFER)(%rdi), %eax
	movl WC(WC_EFER) + 4(%rdi), %edx
	wrmsr
	movq WC(WC_CR0)(%rdi), %rax	/* the reset's CD and NW go: caching as before */
	movq %rax, %cr0
	movq WC(WC_SP)(%rdi), %rsp
	movq WC(WC_SAVED)(%rdi), %rbx
	movq WC(WC_SAVED + 1)(%rdi), %rbp
	movq WC(WC_SAVED + 2)(%rdi), %r12
	movq WC(WC_SAVED + 3)(%rdi), %r13
	movq WC(WC_SAVED + 4)(%rdi), %r14
	movq WC(WC_SAVED + 5)(%rdi), %r15
	movl $1, %eax
	jmpq *WC(WC_IP)(%rdi)

	.section .note.GNU-stack, "", @progbits
