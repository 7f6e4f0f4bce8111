/*
 * Absolute references of each x86-64 width for the relocation oracle; _start calls one C
 * function and halts if it returns. Never run; only linked.
 */
/* The base of the kernel's virtual map, as in the linker script. */
#define KERNEL_MAP 0xffffffff80000000

	.section .text.head, "ax"
	.globl _start
_start:
	movabs	$stack_top, %rsp		/* R_X86_64_64 */
	mov	$_kernel_end, %rax		/* R_X86_64_32S: sign-extended imm32 */
	mov	table(,%rcx,8), %rdx		/* R_X86_64_32S: disp32 addressing */
	movl	$(boot_pml4 - KERNEL_MAP), %eax	/* R_X86_64_32: physical-style offset */
	lea	table(%rip), %rsi		/* R_X86_64_PC32 */
	movabs	$kernel_link_phys, %rbx		/* R_X86_64_64 to an absolute symbol */
	call	kernel_main			/* R_X86_64_PLT32 */
1:	hlt
	jmp	1b

	.section .rodata
	.balign 8
table:
	.quad	_start, kernel_main		/* R_X86_64_64 */
	.long	_kernel_start - KERNEL_MAP	/* R_X86_64_32 */
	.quad	kernel_link_phys		/* absolute: left alone */
	.quad	1b - _start			/* link-independent: no relocation */

	.bss
	.balign 4096
boot_pml4:
	.skip	4096
	.skip	4096
stack_top:
