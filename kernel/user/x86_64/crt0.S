/*
 * x86-64 user-mode start and system calls. The kernel enters at USER_BASE with the stack at
 * USER_TOP (16-byte aligned) and user_main's two arguments already in RDI and RSI.
 */
#include "kernel/user/syscall_check.h"

	.section .text.start, "ax"
	.globl _start
_start:
	call user_main
	movl %eax, %edi
	call sys_exit_status
1:	jmp 1b

/* long syscall3(long nr, long a0, long a1, long a2): int $0x80, RAX = nr, RDI/RSI/RDX. */
	.text
	.globl syscall3
syscall3:
	movq %rdi, %rax
	movq %rsi, %rdi
	movq %rdx, %rsi
	movq %rcx, %rdx
	int $0x80
	ret

/*
 * long syscall3_checked(long nr, long a0, long a1, long a2, unsigned long *changed):
 * syscall3 with every other register set to a marker (values no kernel would leave behind),
 * then *changed gets a bit for each register, argument or RFLAGS that did not come back as it
 * went in. RSP is checked by the pops at the end working at all.
 */
	.globl syscall3_checked
syscall3_checked:
	pushq %rbx
	pushq %rbp
	pushq %r12
	pushq %r13
	pushq %r14
	pushq %r15
	pushq %r8 /* changed */
	movq %rdi, %rax
	movq %rsi, %rdi
	movq %rdx, %rsi
	movq %rcx, %rdx
	pushq %rdi
	pushq %rsi
	pushq %rdx
	pushfq
	movq $MARK(0), %rbx
	movq $MARK(1), %rcx
	movq $MARK(2), %rbp
	movq $MARK(3), %r8
	movq $MARK(4), %r9
	movq $MARK(5), %r10
	movq $MARK(6), %r11
	movq $MARK(7), %r12
	movq $MARK(8), %r13
	movq $MARK(9), %r14
	movq $MARK(10), %r15
	int $0x80
	pushfq
	pushq %rax
	/* result, RFLAGS after, RFLAGS before, RDX, RSI, RDI, changed */
	xorl %eax, %eax
	CHECK %rbx, 0
	CHECK %rcx, 1
	CHECK %rbp, 2
	CHECK %r8, 3
	CHECK %r9, 4
	CHECK %r10, 5
	CHECK %r11, 6
	CHECK %r12, 7
	CHECK %r13, 8
	CHECK %r14, 9
	CHECK %r15, 10
	CHECK_SAVED %rdx, 24(%rsp), 11
	CHECK_SAVED %rsi, 32(%rsp), 12
	CHECK_SAVED %rdi, 40(%rsp), 13
	CHECK_FLAGS_AND_STORE 8(%rsp), 16(%rsp), 48(%rsp), %rcx
	popq %rax
	addq $48, %rsp
	popq %r15
	popq %r14
	popq %r13
	popq %r12
	popq %rbp
	popq %rbx
	ret

	.section .note.GNU-stack, "", @progbits
