/*
 * i386 kernel entry, from the kslide stub: 32-bit protected mode, paging off, running at the
 * random physical base; EAX = KSLIDE_BOOT_MAGIC, EBX = physical address of the boot info (or,
 * packed with --handoff multiboot, the loader's magic and information, with the boot info in
 * ECX or a Multiboot 2 tag: kernel/boot_entry.c).
 *
 * Every absolute address below is written as "sym - KERNEL_VIRT_OFFSET" while paging is off;
 * the stub has already added the slide to each of them. We map physical [0, LOWMEM_LIMIT)
 * both at 0 (only until we jump high) and at KERNEL_VIRT_OFFSET, then call kernel_main.
 */
#include "kernel/layout.h"

#define PA(sym) ((sym) - KERNEL_VIRT_OFFSET)
#define STACK_BYTES 16384

	.section .text.head, "ax"
	.globl _start
_start:
	cli
	cld
	movl %eax, PA(boot_magic)
	movl %ebx, PA(boot_info_phys)
	movl %ecx, PA(boot_ecx)
	movl %edx, PA(boot_edx)

	/* Where are we really? Kept for the self-check: it must match the boot info. */
	call 1f
1:	popl %ecx
	subl $(1b - _start), %ecx
	movl %ecx, PA(start_phys_at_entry)

	/* One PTE per page of lowmem, in order. */
	movl $PA(boot_page_tables), %edi
	movl $(PTE_PRESENT | PTE_WRITABLE), %eax
	movl $(LOWMEM_TABLES * 1024), %ecx
2:	stosl
	addl $PAGE_SIZE, %eax
	loop 2b

	/* Each table appears twice in the directory: identity and high. */
	movl $PA(boot_page_dir), %edi
	movl $PA(boot_page_tables), %eax
	orl $(PTE_PRESENT | PTE_WRITABLE), %eax
	movl $LOWMEM_TABLES, %ecx
3:	movl %eax, (%edi)
	movl %eax, (PDE_INDEX_OF_OFFSET * 4)(%edi)
	addl $4, %edi
	addl $PAGE_SIZE, %eax
	loop 3b

	movl $PA(boot_page_dir), %eax
	movl %eax, %cr3
	movl %cr0, %eax
	orl $CR0_PG, %eax
	movl %eax, %cr0
	movl $high, %eax
	jmp *%eax

high:
	movl $stack_top, %esp
	/* Drop the identity half: from here on only the high mapping exists. */
	movl $boot_page_dir, %edi
	xorl %eax, %eax
	movl $LOWMEM_TABLES, %ecx
	rep stosl
	movl %cr3, %eax
	movl %eax, %cr3
	pushl boot_info_phys
	pushl boot_magic
	call kernel_main
4:	cli
	hlt
	jmp 4b

/* uintptr_t start_runtime(void): the virtual address _start really has, found from EIP. */
	.globl start_runtime
start_runtime:
	call 5f
5:	popl %eax
	subl $(5b - _start), %eax
	ret

/* uintptr_t start_phys_runtime(void): where _start was in physical memory, seen at entry. */
	.globl start_phys_runtime
start_phys_runtime:
	movl start_phys_at_entry, %eax
	ret

	.data
	.globl boot_magic, boot_info_phys, boot_ecx, boot_edx
boot_magic:
	.long 0
boot_info_phys:
	.long 0
boot_ecx:
	.long 0
boot_edx:
	.long 0
start_phys_at_entry:
	.long 0

	.bss
	.p2align 12
	.globl boot_page_dir
boot_page_dir:
	.skip PAGE_SIZE
boot_page_tables:
	.skip LOWMEM_TABLES * PAGE_SIZE
	.p2align 4
stack_bottom:
	.skip STACK_BYTES
stack_top:
