/*
 * The x86-64 AP trampoline (kernel/smp/trampoline.h): real mode, protected mode, then long mode on
 * the temporary root the boot CPU built below 4 GiB (the trampoline one to one and the
 * kernel's upper half), then the kernel's entry(cpu) on its stack; entry moves to the
 * kernel's own root. Copied below 1 MiB; refers to nothing outside its page.
 */
#include "kernel/layout.h"
#include "kernel/smp/trampoline.h"

#define TD(field) (trampoline_data - trampoline_start + field)
#define CR0_PG 0x80000000

	.section .rodata, "a"
	.globl trampoline_start, trampoline_end, trampoline_data, trampoline_pm32, trampoline_lm64
	.hidden trampoline_start, trampoline_end, trampoline_data, trampoline_pm32, trampoline_lm64
	.code16
trampoline_start:
	cli
	cld
	movw %cs, %ax
	movw %ax, %ds
	xorl %ebx, %ebx
	movw %ax, %bx
	shll $4, %ebx			/* the page's physical address, for what follows */
	lgdtl %ds:TD(TD_GDT_PTR)
	movl %cr0, %eax
	orl $CR0_PE, %eax
	movl %eax, %cr0
	ljmpl *%ds:TD(TD_FAR32)

	.code32
trampoline_pm32:
	movw $TRAMPOLINE_DS, %ax
	movw %ax, %ds
	movw %ax, %es
	movw %ax, %ss
	movl %cr4, %eax
	orl $CR4_PAE, %eax
	movl %eax, %cr4
	movl TD(TD_CR3)(%ebx), %eax
	movl %eax, %cr3
	movl $MSR_EFER, %ecx
	movl TD(TD_EFER)(%ebx), %eax
	xorl %edx, %edx
	wrmsr
	movl %cr0, %eax
	orl $(CR0_PG | CR0_WP), %eax
	movl %eax, %cr0
	ljmpl *TD(TD_FAR64)(%ebx)

	.code64
trampoline_lm64:
	movl %ebx, %ebx			/* zero the upper half */
	movq TD(TD_STACK)(%rbx), %rsp
	movl TD(TD_CPU)(%rbx), %edi
	jmpq *TD(TD_ENTRY)(%rbx)

	.p2align 3
trampoline_data:
	.skip TD_BYTES
trampoline_end:
