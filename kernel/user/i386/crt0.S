/*
 * i386 user-mode start and system calls. The kernel enters at USER_BASE with the stack at
 * USER_TOP and user_main's two arguments in EAX and EBX.
 */
#include "kernel/user/syscall_check.h"

	.section .text.start, "ax"
	.globl _start
_start:
	pushl %ebx
	pushl %eax
	call user_main
	pushl %eax
	call sys_exit_status
1:	jmp 1b

/* long syscall3(long nr, long a0, long a1, long a2): int $0x80, EAX = nr, EBX/ECX/EDX. */
	.text
	.globl syscall3
syscall3:
	pushl %ebx
	movl 8(%esp), %eax
	movl 12(%esp), %ebx
	movl 16(%esp), %ecx
	movl 20(%esp), %edx
	int $0x80
	popl %ebx
	ret

/*
 * long syscall3_checked(long nr, long a0, long a1, long a2, unsigned long *changed):
 * syscall3 with every other register set to a marker (values no kernel would leave behind),
 * then *changed gets a bit for each register, argument, segment register or EFLAGS that did
 * not come back as it went in. ESP is checked by the pops at the end working at all.
 */
.macro CHECK_SEGMENT sreg, offset, bit
	movw \sreg, %cx
	cmpw \offset(%esp), %cx
	je 1f
	orl $(1 << \bit), %eax
1:
.endm

	.globl syscall3_checked
syscall3_checked:
	pushl %ebx
	pushl %esi
	pushl %edi
	pushl %ebp
	movl 20(%esp), %eax
	movl 24(%esp), %ebx
	movl 28(%esp), %ecx
	movl 32(%esp), %edx
	pushl %ds
	pushl %es
	pushl %fs
	pushl %gs
	pushfl
	movl $MARK(0), %esi
	movl $MARK(1), %edi
	movl $MARK(2), %ebp
	int $0x80
	pushfl
	pushl %eax
	/* result, EFLAGS after, EFLAGS before, GS, FS, ES, DS, 4 saved registers, return
	 * address, nr, a0, a1, a2, changed */
	xorl %eax, %eax
	CHECK %esi, 0
	CHECK %edi, 1
	CHECK %ebp, 2
	CHECK_SAVED %ebx, 52(%esp), 3
	CHECK_SAVED %ecx, 56(%esp), 4
	CHECK_SAVED %edx, 60(%esp), 5
	CHECK_SEGMENT %gs, 12, 6
	CHECK_SEGMENT %fs, 16, 7
	CHECK_SEGMENT %es, 20, 8
	CHECK_SEGMENT %ds, 24, 9
	CHECK_FLAGS_AND_STORE 4(%esp), 8(%esp), 64(%esp), %ecx
	popl %eax
	addl $24, %esp
	popl %ebp
	popl %edi
	popl %esi
	popl %ebx
	ret

/*
 * long syscall_on_segment(long nr, unsigned selector, unsigned *seen): system call nr (no
 * arguments) made with DS and ES both holding selector, which need not lead anywhere ring 3
 * could read; *seen gets DS (low half) and ES (high half) as the call left them. Between the
 * loads and the restores nothing goes through DS or ES.
 */
	.globl syscall_on_segment
syscall_on_segment:
	movl 4(%esp), %eax
	movl 8(%esp), %ecx
	pushl %ds
	pushl %es
	movw %cx, %ds
	movw %cx, %es
	int $0x80
	xorl %ecx, %ecx
	xorl %edx, %edx
	movw %ds, %cx
	movw %es, %dx
	popl %es
	popl %ds
	shll $16, %edx
	orl %ecx, %edx
	movl 12(%esp), %ecx
	movl %edx, (%ecx)
	ret

	.section .note.GNU-stack, "", @progbits
