/*
 * x86-64 user-mode start and system calls. The kernel enters at USER_BASE with the stack at
 * USER_TOP (16-byte aligned) and user_main's two arguments already in RDI and RSI.
 */
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

	.section .note.GNU-stack, "", @progbits
