/*
 * Linux's x86-64 layout for the relocation oracle: a per-CPU section linked at virtual 0 and
 * loaded inside the image (tests/oracle/x86_64/percpu.ld). Moving the kernel leaves per-CPU
 * offsets alone, so a PC-relative reference from the kernel to them loses the slide (Linux's
 * inverse 32-bit relocation, RELOC_SUB32S), an absolute one stays, and pointers kept in the
 * per-CPU section move. Undefined weak symbols stay at 0 the same way. Never run; only linked.
 */
	.section .text.head, "ax"
	.globl _start
	.weak missing, missing_fn
_start:
	movl	pcpu_counter(%rip), %eax	/* R_X86_64_PC32 to a per-CPU symbol: inverse */
	addl	%eax, pcpu_counter + 4(%rip)	/* the same, with an addend */
	movq	$pcpu_counter, %rbx		/* R_X86_64_32S to a per-CPU offset: stays */
	movq	$table, %rcx			/* R_X86_64_32S to the kernel: moves */
	movq	$__per_cpu_load, %rsi		/* a kernel address ld puts in the per-CPU section */
	movq	$missing, %rdx			/* an undefined weak symbol: stays 0 */
	call	missing_fn			/* a call to one: keeps aiming at 0 */
1:	hlt
	jmp	1b

	.section .data..percpu, "aw"
	.balign 8
pcpu_counter:
	.quad	0
	.quad	_start				/* R_X86_64_64 in the per-CPU section: moves */
	.quad	pcpu_counter			/* its own offset: stays */

	.section .rodata
	.balign 8
table:
	.quad	_start, table			/* R_X86_64_64 */
	.quad	pcpu_counter + 8		/* R_X86_64_64 to a per-CPU offset: stays */
	.quad	missing				/* R_X86_64_64 to an undefined weak symbol: stays */
