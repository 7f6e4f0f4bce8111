/*
 * What examples/shuffle-x86_64 keeps in place beside ../multiboot2-x86_64/boot.S: fixed_sum in
 * plain .text, which the moving functions call back (a PC-relative reference from a unit to
 * fixed code), and kernel_main's physical address as the 32-bit boot code would hold it (an
 * R_X86_64_32 naming a unit, in .rodata).
 */
#define KERNEL_VMA 0xffffffff80000000

	.text
/* int fixed_sum(int a, int b): a + b, from code that stays where it was linked. */
	.globl fixed_sum
fixed_sum:
	leal (%rdi, %rsi), %eax
	ret

	.section .rodata
	.p2align 2
	.globl kernel_main_phys
kernel_main_phys:
	.long kernel_main - KERNEL_VMA
