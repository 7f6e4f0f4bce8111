/* User programs, built by kernel/user/ for this arch and embedded as flat images. */
	.section .rodata
	.globl user_leak_start, user_leak_end
	.p2align 4
user_leak_start:
	.incbin USER_LEAK_BIN
user_leak_end:
	.section .note.GNU-stack, "", @progbits
