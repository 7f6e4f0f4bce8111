/*
 * i386 half of kernel/acpi/wakeup.h: wake_save, and wake_entry, where the trampoline lands on
 * waking (protected mode, paging on the kernel's directory, wake_stack). The i386 kernel
 * sets no CR4 bit but UMIP and has no EFER: CR0 and CR3 are all there is.
 */
#include "kernel/acpi/wakeup.h"

	.text
	.globl wake_save, wake_entry
	.hidden wake_save, wake_entry
wake_save:
	movl $wake_context, %edx
	movl (%esp), %eax
	movl %eax, WC(WC_IP)(%edx)
	leal 4(%esp), %eax		/* as it will be after the return */
	movl %eax, WC(WC_SP)(%edx)
	movl %cr0, %eax
	movl %eax, WC(WC_CR0)(%edx)
	movl %cr3, %eax
	movl %eax, WC(WC_CR3)(%edx)
	movl %ebx, WC(WC_SAVED)(%edx)
	movl %esi, WC(WC_SAVED + 1)(%edx)
	movl %edi, WC(WC_SAVED + 2)(%edx)
	movl %ebp, WC(WC_SAVED + 3)(%edx)
	xorl %eax, %eax
	ret

wake_entry:
	movl $wake_context, %edx
	movl WC(WC_CR3)(%edx), %eax
	movl %eax, %cr3
	movl WC(WC_CR0)(%edx), %eax	/* the reset's CD and NW go: caching as before */
	movl %eax, %cr0
	movl WC(WC_SP)(%edx), %esp
	movl WC(WC_SAVED)(%edx), %ebx
	movl WC(WC_SAVED + 1)(%edx), %esi
	movl WC(WC_SAVED + 2)(%edx), %edi
	movl WC(WC_SAVED + 3)(%edx), %ebp
	movl $1, %eax
	jmp *WC(WC_IP)(%edx)

	.section .note.GNU-stack, "", @progbits
