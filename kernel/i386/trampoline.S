/*
 * The i386 AP trampoline (kernel/smp/trampoline.h): real mode, then protected mode with paging on
 * the kernel's page directory (which maps the trampoline one to one while APs start), then the
 * kernel's entry(cpu) on its stack. Copied below 1 MiB; refers to nothing outside its page.
 */
#include "kernel/layout.h"
#include "kernel/smp/trampoline.h"

#define TD(field) (trampoline_data - trampoline_start + field)

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
	shll $4, %ebx			/* the page's physical address, for the 32-bit part */
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
	movw %ax, %fs
	movw %ax, %gs
	movl TD(TD_CR3)(%ebx), %eax
	movl %eax, %cr3
	movl %cr0, %eax
	orl $(CR0_PG | CR0_WP), %eax
	movl %eax, %cr0
	movl TD(TD_STACK)(%ebx), %esp
	pushl TD(TD_CPU)(%ebx)
	pushl $0			/* entry never returns */
	jmp *TD(TD_ENTRY)(%ebx)
trampoline_lm64:			/* no long mode on i386 */

	.p2align 3
trampoline_data:
	.skip TD_BYTES
trampoline_end:
