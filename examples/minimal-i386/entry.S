/*
 * Example kernel entry. The kslide stub jumps here in 32-bit protected mode, paging off, at
 * wherever it moved us: EAX = KSLIDE_BOOT_MAGIC, EBX = physical address of the boot info.
 * The stack below is addressed absolutely; the stub has already added the slide to it.
 */
#define STACK_BYTES 16384

	.text
	.globl _start
_start:
	movl $stack_top, %esp
	pushl %ebx            /* main(magic, bootinfo) */
	pushl %eax
	call main
1:	cli                   /* main must not return; if it does, stop here */
	hlt
	jmp 1b

/*
 * void *marker_address_from_eip(void): where `marker` really is, computed from EIP. No
 * relocation touches this (the difference to 2: is PC-relative), so it is right wherever
 * the stub put us; main compares it with an absolute pointer that only relocation fixes.
 */
	.globl marker_address_from_eip
marker_address_from_eip:
	call 2f
2:	popl %eax
	addl $(marker - 2b), %eax
	ret

	.bss
	.p2align 4
stack_bottom:
	.skip STACK_BYTES
stack_top:
