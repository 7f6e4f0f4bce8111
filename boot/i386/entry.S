/*
 * i386 stub entry, named by the Multiboot headers (boot/x86/). The loader leaves us in 32-bit
 * protected mode, paging off, with its magic in EAX and its information in EBX; we note both
 * in struct boot_entry (boot/x86/multiboot_entry.h). We load a GDT of our own (the loader's
 * may lie where the kernel is about to go; Linux also wants its selectors), set a stack and
 * call stub_main(&stub_boot_entry). It returns the registers to enter
 * the kernel with (boot/handoff.h) or NULL, in which case we reset the machine after a few
 * seconds (boot/x86/refuse.h).
 */
#include "boot/handoff.h"
#include "boot/x86/multiboot_entry.h"
#include "boot/x86/self_check.h"
#include "boot/x86/self_relocate.h"

#define STACK_BYTES 16384
#define CODE_SELECTOR 0x10 /* Linux's __BOOT_CS and __BOOT_DS (Documentation/x86/boot.rst) */
#define DATA_SELECTOR 0x18

	.section .text.entry, "ax"
	.globl stub_entry
stub_entry:
	cli
	cld
	MULTIBOOT_LOAD_DISTANCE
	STUB_SELF_CHECK
	MULTIBOOT_FILL_BOOT_ENTRY
	STUB_RELOCATE_SELF
	lgdt gdt_pointer
	ljmp $CODE_SELECTOR, $1f
1:	movl $DATA_SELECTOR, %ecx
	movl %ecx, %ds
	movl %ecx, %es
	movl %ecx, %fs
	movl %ecx, %gs
	movl %ecx, %ss
	movl $stack_top, %esp
	pushl $0
	popfl
	pushl $stub_boot_entry
	call stub_main
	testl %eax, %eax
	jz refused
	/* Load what C chose, ESI (the pointer) last, and "return" to the entry point. */
	movl %eax, %esi
	pushl ENTRY_REGS_ENTRY(%esi)
	WIPE_STUB_STATE %esi, stack_bottom
	LOAD_ENTRY_REGS %esi
	ret
refused:
	jmp refuse_and_reset32 /* boot/x86/self_check.h */

	.section .rodata
	.p2align 3
gdt:
	.quad 0
	.quad 0
	.quad 0x00cf9a000000ffff /* 0x10: flat 32-bit code, execute/read */
	.quad 0x00cf92000000ffff /* 0x18: flat data, read/write */
gdt_end:
gdt_pointer:
	.word gdt_end - gdt - 1
	.long gdt

	.bss
	.p2align 4
stack_bottom:
	.skip STACK_BYTES
stack_top:
