/*
 * The Multiboot 1 entry, in plain .text: the part of the kernel that never moves. It calls
 * kernel_main (a function section that does) and offers fixed_sum, which the moving functions
 * call back (a PC-relative reference from a unit to fixed code).
 */
#define MULTIBOOT_MAGIC 0x1BADB002
#define MULTIBOOT_PAGE_ALIGN (1 << 0)
#define MULTIBOOT_MEMORY_INFO (1 << 1)
#define MULTIBOOT_FLAGS (MULTIBOOT_PAGE_ALIGN | MULTIBOOT_MEMORY_INFO)
#define STACK_BYTES 16384

	.section .multiboot, "a"
	.p2align 2
	.long MULTIBOOT_MAGIC
	.long MULTIBOOT_FLAGS
	.long -(MULTIBOOT_MAGIC + MULTIBOOT_FLAGS)

	.text
	.globl _start
_start:
	movl $stack_top, %esp
	pushl %ebx /* the Multiboot information */
	pushl %eax /* the loader's magic */
	call kernel_main
	cli
1:	hlt
	jmp 1b

/* int fixed_sum(int a, int b): a + b, from code that stays where it was linked. */
	.globl fixed_sum
fixed_sum:
	movl 4(%esp), %eax
	addl 8(%esp), %eax
	ret

	.bss
	.p2align 4
stack_bottom:
	.skip STACK_BYTES
stack_top:
