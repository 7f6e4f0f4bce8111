/*
 * A Multiboot 1 kernel entry as the tutorials write it ("Bare Bones"): the header, a stack,
 * and a call to kernel_main(magic, info). Nothing here knows of kslide.
 */
#define MULTIBOOT_MAGIC 0x1BADB002
#define MULTIBOOT_PAGE_ALIGN (1 << 0) /* modules on page boundaries */
#define MULTIBOOT_MEMORY_INFO (1 << 1) /* mem_* and the memory map, please */
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

	.bss
	.p2align 4
stack_bottom:
	.skip STACK_BYTES
stack_top:
