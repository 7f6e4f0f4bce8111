/*
 * Trap entry and exit, and the way into and out of ring 3 (as kernel/i386/vectors.S).
 *
 * Every vector pushes an error code (0 when the CPU pushes none) and its number, then
 * alltraps saves the general registers and calls trap(struct trapframe *)
 * (kernel/x86_64/trap.h has the layout); trapret undoes it and IRETQs. Long mode pushes SS
 * and RSP on every trap and aligns the stack to 16 bytes first, so the frame has one shape.
 * The segment registers are not saved: long mode ignores DS and ES, IRETQ to ring 3 clears
 * kernel selectors from them, and nothing uses FS or GS.
 *
 * user_enter(tf) saves the kernel's callee-saved registers and stack pointer and "returns"
 * through trapret into the frame tf describes: ring 3. arch_user_exit(status), called from a
 * trap taken in ring 3, drops that trap's stack and returns status from user_enter.
 *
 * RIP-relative addressing only, so the same code serves the kernel-model and the PIE build.
 */
#include "kernel/trap_vectors.h"

	.text
.macro VECTOR n, cpu_pushes_error
	.globl trap_vector_\n
trap_vector_\n:
	.if \cpu_pushes_error == 0
	pushq $0
	.endif
	pushq $\n
	jmp alltraps
.endm

#define V(n, cpu_pushes_error) VECTOR n, cpu_pushes_error;
	TRAP_VECTORS(V)
#undef V

	.globl syscall_vector
syscall_vector:
	pushq $0
	pushq $0x80
	jmp alltraps

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
	iretq

/* int user_enter(struct trapframe *tf) */
	.globl user_enter
user_enter:
	pushq %rbp
	pushq %rbx
	pushq %r12
	pushq %r13
	pushq %r14
	pushq %r15
	movq %rsp, kernel_saved_rsp(%rip)
	movq %rdi, %rsp
	jmp trapret

/* void arch_user_exit(int status): back into user_enter's caller. */
	.globl arch_user_exit
arch_user_exit:
	movl %edi, %eax
	movq kernel_saved_rsp(%rip), %rsp
	popq %r15
	popq %r14
	popq %r13
	popq %r12
	popq %rbx
	popq %rbp
	ret

/* A PIE keeps relocated constants in .data.rel.ro, as the compiler does for const pointers. */
#ifdef __PIE__
	.section .data.rel.ro, "aw"
#else
	.section .rodata
#endif
	.p2align 3
	.globl trap_vector_table
trap_vector_table:
#define V(n, cpu_pushes_error) .quad trap_vector_##n;
	TRAP_VECTORS(V)
#undef V

	.bss
	.p2align 3
kernel_saved_rsp:
	.skip 8

	.section .note.GNU-stack, "", @progbits
