/*
 * A Multiboot2 kernel entry as the tutorials write it: the header with its tags (what we
 * want to be told, a framebuffer, page-aligned modules), a stack, and a call to
 * kernel_main(magic, info). Nothing here knows of kslide. (Multiboot2 2.0, section 3.1.)
 */
#define MULTIBOOT2_MAGIC 0xE85250D6
#define ARCH_I386 0
#define TAG_OPTIONAL 1
#define HEADER_LENGTH (header_end - header_start)
#define STACK_BYTES 16384

	.section .multiboot, "a"
	.p2align 3
header_start:
	.long MULTIBOOT2_MAGIC
	.long ARCH_I386
	.long HEADER_LENGTH
	.long -(MULTIBOOT2_MAGIC + ARCH_I386 + HEADER_LENGTH)

	/* Information request: command line, loader name, modules, memory map. */
	.p2align 3
	.short 1, 0
	.long 8 + 4 * 4
	.long 1, 2, 3, 6
	/* ... and a framebuffer if there is one. */
	.p2align 3
	.short 1, TAG_OPTIONAL
	.long 8 + 4
	.long 8
	/* Framebuffer: 1024x768, 32 bits per pixel, if the loader can. */
	.p2align 3
	.short 5, TAG_OPTIONAL
	.long 20
	.long 1024, 768, 32
	/* Modules on page boundaries. */
	.p2align 3
	.short 6, 0
	.long 8
	/* End. */
	.p2align 3
	.short 0, 0
	.long 8
header_end:

	.text
	.globl _start
_start:
	movl $stack_top, %esp
	pushl %ebx /* the boot information */
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
