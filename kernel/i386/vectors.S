/*
 * Trap entry and exit, and the way into and out of ring 3.
 *
 * Every vector pushes an error code (0 when the CPU pushes none) and its number, then
 * alltraps saves the segment registers and pusha's, switches to the kernel data segment and
 * calls trap(struct trapframe *) (kernel/i386/trap.h has the layout). trapret undoes it.
 *
 * user_enter(tf) saves the kernel's callee-saved registers and stack pointer and "returns"
 * through trapret into the frame tf describes: ring 3. arch_user_exit(status), called from a
 * trap taken in ring 3, drops that trap's stack and returns status from user_enter.
 */
#include "kernel/layout.h"
#include "kernel/trap_vectors.h"

	.text
.macro VECTOR n, cpu_pushes_error
	.globl trap_vector_\n
trap_vector_\n:
	.if \cpu_pushes_error == 0
	pushl $0
	.endif
	pushl $\n
	jmp alltraps
.endm

#define V(n, cpu_pushes_error) VECTOR n, cpu_pushes_error;
	TRAP_VECTORS(V)
#undef V

	.globl syscall_vector
syscall_vector:
	pushl $0
	pushl $0x80
	jmp alltraps

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
	iret

/* int user_enter(struct trapframe *tf) */
	.globl user_enter
user_enter:
	pushl %ebp
	pushl %ebx
	pushl %esi
	pushl %edi
	movl %esp, kernel_saved_esp
	movl 20(%esp), %esp
	jmp trapret

/* void arch_user_exit(int status): back into user_enter's caller. */
	.globl arch_user_exit
arch_user_exit:
	movl 4(%esp), %eax
	movl kernel_saved_esp, %esp
	popl %edi
	popl %esi
	popl %ebx
	popl %ebp
	ret

	.section .rodata
	.p2align 2
	.globl trap_vector_table
trap_vector_table:
#define V(n, cpu_pushes_error) .long trap_vector_##n;
	TRAP_VECTORS(V)
#undef V

	.bss
	.p2align 2
kernel_saved_esp:
	.skip 4
