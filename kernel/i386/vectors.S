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
#include "kernel/i386/layout.h"

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

/* Intel SDM Vol. 3A, table 6-1: these vectors push an error code. */
	VECTOR 0, 0
	VECTOR 1, 0
	VECTOR 2, 0
	VECTOR 3, 0
	VECTOR 4, 0
	VECTOR 5, 0
	VECTOR 6, 0
	VECTOR 7, 0
	VECTOR 8, 1
	VECTOR 9, 0
	VECTOR 10, 1
	VECTOR 11, 1
	VECTOR 12, 1
	VECTOR 13, 1
	VECTOR 14, 1
	VECTOR 15, 0
	VECTOR 16, 0
	VECTOR 17, 1
	VECTOR 18, 0
	VECTOR 19, 0
	VECTOR 20, 0
	VECTOR 21, 1
	VECTOR 22, 0
	VECTOR 23, 0
	VECTOR 24, 0
	VECTOR 25, 0
	VECTOR 26, 0
	VECTOR 27, 0
	VECTOR 28, 0
	VECTOR 29, 1
	VECTOR 30, 1
	VECTOR 31, 0

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
	.irp n, 0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15
	.long trap_vector_\n
	.endr
	.irp n, 16,17,18,19,20,21,22,23,24,25,26,27,28,29,30,31
	.long trap_vector_\n
	.endr

	.bss
	.p2align 2
kernel_saved_esp:
	.skip 4
