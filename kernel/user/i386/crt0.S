/*
 * i386 user-mode start and system calls. The kernel enters at USER_BASE with the stack at
 * USER_TOP and user_main's two arguments in EAX and EBX.
 */
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

	.section .note.GNU-stack, "", @progbits
