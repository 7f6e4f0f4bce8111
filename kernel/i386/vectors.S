/*
 * The kernel's side of traps, and the way into and out of ring 3 (the entry area's stubs in
 * kernel/i386/entry.S come first and last).
 *
 * kernel_entry is where every stub jumps, with the kernel's CR3, ring 3's EAX, the stub's
 * vector and error code on top of the CPU's frame. A trap from ring 3 is on the CPU's entry
 * stack: its frame moves to the top of the CPU's kernel stack (entry_percpu.kernel_stack_top,
 * the struct DR0 points at), so the entry stack only ever holds what ring 3 gave. alltraps
 * saves the segment registers and pusha's, switches to the kernel data segment and calls
 * trap(struct trapframe *) (kernel/i386/trap.h has the layout). trapret undoes it.
 *
 * user_enter(tf) saves the kernel's callee-saved registers and stack pointer (in the CPU's
 * entry_percpu) and "returns" through trapret into the frame tf describes: ring 3.
 * arch_user_exit(status), called from a trap taken in ring 3, drops that trap's stack and
 * returns status from user_enter.
 *
 * Until alltraps reloads them, and again once trapret has put them back, DS and ES are ring
 * 3's: whatever it loaded before the trap (a null selector, USER_CS, which is readable), so
 * nothing here goes through them. Every memory operand in between names %ss:, the kernel's
 * data segment since the CPU took SS from the TSS (or the kernel's already, for a trap in
 * ring 0); on hardware a store through a null or code segment is a #GP in ring 0.
 */
#include "kernel/secrecy/entry_area.h"
#include "kernel/cpu/frame_move.h"
#include "kernel/layout.h"

#define ENTRY_FRAME_WORDS 7 /* EIP, CS, EFLAGS, ESP, SS and the stub's error code, vector */
#define OFFSET_OF_CS 16 /* EAX, vector, error code, EIP, then CS */

	.text
	.globl kernel_entry
kernel_entry:
	testb $3, OFFSET_OF_CS(%esp)
	jz 2f
	/* From ring 3, on the entry stack: note where, then move the frame to the kernel stack
	 * with EAX (saved by the stub) and ECX (saved here, on the entry stack) as scratch. */
	pushl %ecx
	movl %dr0, %ecx
	leal 4(%esp), %eax
	movl %eax, %ss:PERCPU_USER_ENTRY_SP(%ecx)
	MOVE_FRAME ENTRY_FRAME_WORDS, %ss:PERCPU_KERNEL_STACK(%ecx)
	jmp alltraps
2:	popl %eax
alltraps:
	cld /* ring 3 may have left DF set; the C ABI wants it clear */
	pushl %ds
	pushl %es
	pushl %fs
	pushl %gs
	pushal
	movw $KERNEL_DS, %ax
	movw %ax, %ds
	movw %ax, %es
	movw %ax, %fs
	movw %ax, %gs
	pushl %esp
	call trap
	addl $4, %esp
trapret:
	popal
	popl %gs
	popl %fs
	popl %es
	popl %ds
	addl $8, %esp /* vector number and error code */
	/* The exit stub is in the code page every CPU shares: the boot CPU's word for it holds
	 * every CPU's. */
	RETURN_FROM_TRAP %ss:PERCPU_ENTRY_STACK(%eax), %ss:entry_percpu + PERCPU_EXIT_STUB, \
		"movl %dr0, %eax"

/* int user_enter(struct trapframe *tf) */
	.globl user_enter
user_enter:
	pushl %ebp
	pushl %ebx
	pushl %esi
	pushl %edi
	movl %dr0, %eax
	movl %esp, PERCPU_KERNEL_SAVED_SP(%eax)
	movl 20(%esp), %esp
	jmp trapret

/* void arch_user_exit(int status): back into user_enter's caller. */
	.globl arch_user_exit
arch_user_exit:
	movl 4(%esp), %eax
	movl %dr0, %ecx
	movl PERCPU_KERNEL_SAVED_SP(%ecx), %esp
	popl %edi
	popl %esi
	popl %ebx
	popl %ebp
	ret

	.section .note.GNU-stack, "", @progbits
