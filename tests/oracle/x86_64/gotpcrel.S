/*
 * The GOTPCRELX variant of the oracle kernel: position-independent-style references that a
 * linker relaxes. GNU ld relabels what it relaxed (PC32, 32S); lld keeps the GOTPCRELX label,
 * so the packer must read the instruction to find the absolute ones. Never run; only linked.
 */
	.text
	.globl	gotpcrel_refs
gotpcrel_refs:
	movq	kernel_main@GOTPCREL(%rip), %rax	/* -> lea kernel_main(%rip), %rax */
	addq	counter_ptr@GOTPCREL(%rip), %rcx	/* -> add $counter_ptr, %rcx (32S) */
	subq	greeting@GOTPCREL(%rip), %rax		/* -> sub $greeting, %rax: modrm 0xe8 */
	testq	%rdx, hook@GOTPCREL(%rip)		/* -> test $hook, %rdx */
	call	*kernel_main@GOTPCREL(%rip)		/* -> addr32 call kernel_main */
	jmp	*gotpcrel_tail@GOTPCREL(%rip)		/* -> jmp gotpcrel_tail; nop */
gotpcrel_tail:
	ret
