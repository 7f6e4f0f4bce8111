/*
 * x86-64 kernel entry, from the kslide stub: long mode, paging on with the stub's tables,
 * running at the random virtual base; EDI = KSLIDE_BOOT_MAGIC, RSI = physical address of the
 * boot info (readable there: the stub maps the first 4 GiB one to one). Only RIP-relative
 * addressing here, so the same code serves the -mcmodel=kernel and the PIE build.
 */
#define STACK_BYTES 16384

	.section .text.head, "ax"
	.globl _start
_start:
	cli
	cld
	leaq stack_top(%rip), %rsp
	xorl %ebp, %ebp
	call kernel_main
1:	cli
	hlt
	jmp 1b

/* uintptr_t start_runtime(void): the virtual address _start really has, from RIP. */
	.globl start_runtime
start_runtime:
	leaq _start(%rip), %rax
	ret

	.bss
	.p2align 4
stack_bottom:
	.skip STACK_BYTES
stack_top:
