/*
 * The kernel's side of traps, and the way into and out of ring 3 (the entry area's stubs in
 * kernel/x86_64/entry.S come first and last).
 *
 * kernel_entry is where every stub jumps, with the kernel's CR3 and GS, the stub's error code
 * and vector on top of the CPU's frame. A trap from ring 3 is on the CPU's entry stack: its
 * frame moves to the top of the CPU's kernel stack (entry_percpu.kernel_stack_top, at the GS
 * base), so the entry stack only ever holds what ring 3 gave. alltraps saves the general
 * registers and calls trap(struct trapframe *) (kernel/x86_64/trap.h has the layout); trapret
 * undoes it. Long mode pushes SS and RSP on every trap and aligns the stack to 16 bytes first,
 * so the frame has one shape. The segment registers are not saved: long mode ignores DS and ES,
 * IRETQ to ring 3 clears kernel selectors from them, and FS and GS are only bases.
 *
 * user_enter(tf) saves the kernel's callee-saved registers and stack pointer (in the CPU's
 * entry_percpu) and "returns" through trapret into the frame tf describes: ring 3.
 * arch_user_exit(status), called from a trap taken in ring 3, drops that trap's stack and
 * returns status from user_enter.
 *
 * RIP-relative addressing only, so the same code serves the kernel-model and the PIE build.
 */
#include "kernel/secrecy/entry_area.h"
#include "kernel/cpu/frame_move.h"

#define ENTRY_FRAME_WORDS 7 /* RIP, CS, RFLAGS, RSP, SS and the stub's error code, vector */
#define OFFSET_OF_CS 24 /* in the entry frame */

	.text
	.globl kernel_entry
	.hidden kernel_entry
kernel_entry:
	testb $3, OFFSET_OF_CS(%rsp)
	jz alltraps
	/* From ring 3, on the entry stack: note where, then move the frame to the kernel stack
	 * with RAX and RCX as scratch, saved on the entry stack (they are ring 3's). */
	movq %rsp, %gs:PERCPU_USER_ENTRY_SP
	pushq %rax
	pushq %rcx
	MOVE_FRAME ENTRY_FRAME_WORDS, %gs:PERCPU_KERNEL_STACK
alltraps:
	cld /* ring 3 may have left DF set; the C ABI wants it clear */
	pushq %rax
	pushq %rcx
	pushq %rdx
	pushq %rbx
	pushq %rbp
	pushq %rsi
	pushq %rdi
	pushq %r8
	pushq %r9
	pushq %r10
	pushq %r11
	pushq %r12
	pushq %r13
	pushq %r14
	pushq %r15
	movq %rsp, %rdi
	call trap
trapret:
	popq %r15
	popq %r14
	popq %r13
	popq %r12
	popq %r11
	popq %r10
	popq %r9
	popq %r8
	popq %rdi
	popq %rsi
	popq %rbp
	popq %rbx
	popq %rdx
	popq %rcx
	popq %rax
	addq $16, %rsp /* vector number and error code */
	RETURN_FROM_TRAP %gs:PERCPU_ENTRY_STACK, %gs:PERCPU_EXIT_STUB

/* int user_enter(struct trapframe *tf) */
	.globl user_enter
user_enter:
	pushq %rbp
	pushq %rbx
	pushq %r12
	pushq %r13
	pushq %r14
	pushq %r15
	movq %rsp, %gs:PERCPU_KERNEL_SAVED_SP
	movq %rdi, %rsp
	jmp trapret

/* void arch_user_exit(int status): back into user_enter's caller. */
	.globl arch_user_exit
arch_user_exit:
	movl %edi, %eax
	movq %gs:PERCPU_KERNEL_SAVED_SP, %rsp
	popq %r15
	popq %r14
	popq %r13
	popq %r12
	popq %rbx
	popq %rbp
	ret

	.section .note.GNU-stack, "", @progbits
