/*
 * x86-64 kernel entry, from the kslide stub: long mode, paging on with the stub's tables,
 * running at the random virtual base; EDI = KSLIDE_BOOT_MAGIC, RSI = physical address of the
 * boot info (readable there: the stub maps the first 4 GiB one to one). We switch to the
 * kernel's own tables (paging.c), then call kernel_main with the same two values; it reads
 * the boot info through the direct map. Only RIP-relative addressing here, so the same code
 * serves the -mcmodel=kernel and the PIE build.
 */
#define STACK_BYTES 16384

	.section .text.head, "ax"
	.globl _start
_start:
	cli
	cld
	leaq stack_top(%rip), %rsp
	xorl %ebp, %ebp
	movl %edi, %r12d		/* callee-saved across paging_init */
	movq %rsi, %r13
	movq %rsi, %rdi
	call paging_init		/* off the stub's tables; on failure they stay */
	movl %r12d, %edi
	movq %r13, %rsi
	testl %eax, %eax
	jnz 1f
	call kernel_main
	jmp 2f
1:	movl %eax, %edi
	call paging_failed
2:	cli
	hlt
	jmp 2b

/* uintptr_t start_runtime(void): the virtual address _start really has, from RIP. */
	.globl start_runtime
start_runtime:
	leaq _start(%rip), %rax
	ret

/* The Multiboot pass-through is i386's only (kernel/boot_entry.h): nothing to keep here. */
	.section .rodata
	.globl boot_ecx, boot_edx
	.p2align 2
boot_ecx:
	.long 0
boot_edx:
	.long 0

	.bss
	.p2align 4
stack_bottom:
	.skip STACK_BYTES
stack_top:
