/*
 * void *address_from_eip(void): where `here` really is, computed from EIP (call, pop, then a
 * PC-relative difference), so no relocation touches it wherever the kernel was loaded; a
 * kernel compares it with an absolute pointer to `here` that only relocation makes right.
 */
	.text
	.globl address_from_eip
address_from_eip:
	call 2f
2:	popl %eax
	addl $(here - 2b), %eax
	ret
	.globl here
here:
	ret
