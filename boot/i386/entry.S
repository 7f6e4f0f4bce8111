/*
 * i386 stub entry, named by boot/x86/multiboot1_header.S. We only set up a stack and call
 * stub_main(magic, info); it returns the kernel's physical entry point, or 0 if the kernel
 * must not be started, in which case we halt.
 */
#define KSLIDE_BOOT_MAGIC 0x6b534c44
#define STACK_BYTES 16384

	.text
	.globl stub_entry
stub_entry:
	cli
	cld
	movl $stack_top, %esp
	pushl $0
	popfl
	pushl %ebx
	pushl %eax
	call stub_main
	testl %eax, %eax
	jz 1f
	movl %eax, %ecx
	movl $KSLIDE_BOOT_MAGIC, %eax
	movl $boot_info, %ebx
	jmp *%ecx
1:	cli
	hlt
	jmp 1b

	.data
	.globl stub_version
stub_version:
	.asciz "kslide stub (i386, Multiboot)"

	.bss
	.p2align 4
stack_bottom:
	.skip STACK_BYTES
stack_top:
