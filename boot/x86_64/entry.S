/*
 * x86-64 stub entry, named by the Multiboot headers (boot/x86/) and the PVH note
 * (boot/x86_64/pvh_header.S, pvh_entry below): the loader leaves us in
 * 32-bit protected mode, paging off. We enter long mode the shortest way (Intel SDM Vol. 3A,
 * 10.8.5 "Initializing IA-32e Mode"): identity-map the first 4 GiB with 2 MiB pages, set
 * CR4.PAE, EFER.LME, then CR0.PG, and far-jump into a 64-bit code segment. Then the C policy
 * runs: stub_main(&stub_boot_entry), filled from the loader's EAX and EBX before anything else
 * (boot/x86/multiboot_entry.h) and after the stub has moved its addresses to where the loader
 * put it (boot/x86/self_relocate.h; the identity map covers it: the headers keep the image
 * below 2 GiB), returns the registers to enter the kernel with
 * (boot/handoff.h; it has already switched to the tables the kernel is entered with), or NULL
 * when it refused: then, as when the CPU has no long mode, we reset the machine after a few
 * seconds (boot/x86/refuse.h).
 */
#include "boot/handoff.h"
#include "boot/x86/multiboot_entry.h"
#include "boot/x86/refuse.h"
#include "boot/x86/self_check.h"
#include "boot/x86/self_relocate.h"

#define STACK_BYTES 16384
#define PAGE_SIZE 4096
#define TABLE_PRESENT_WRITABLE 0x3
#define PAGE_2M_PRESENT_WRITABLE 0x83 /* P | R/W | PS */
#define IDENTITY_GIB 4
#define CR0_PG (1 << 31)
#define CR4_PAE (1 << 5)
#define MSR_EFER 0xC0000080
#define EFER_LME (1 << 8)
#define CPUID_EXT_FEATURES 0x80000001
#define CPUID_EXT_LM (1 << 29)
#define COM1 0x3f8
#define CODE64_SELECTOR 0x10 /* Linux's __BOOT_CS and __BOOT_DS (Documentation/x86/boot.rst) */
#define DATA_SELECTOR 0x18

	.code32
	.section .text.entry, "ax"
	.globl stub_entry
stub_entry:
	cli
	cld
	MULTIBOOT_LOAD_DISTANCE
entry_self_check: /* the PVH entry joins here (below) */
	STUB_SELF_CHECK
	MULTIBOOT_FILL_BOOT_ENTRY
	STUB_RELOCATE_SELF
	movl $stack_top, %esp

	/* Without long mode there is nothing we can start: say so on COM1 and reset. */
	movl $CPUID_EXT_FEATURES, %eax
	cpuid
	testl $CPUID_EXT_LM, %edx
	jz no_long_mode

	/* PML4[0] -> PDPT; PDPT[0..3] -> four PDs; each PD: 512 2 MiB pages. */
	movl $(pdpt + TABLE_PRESENT_WRITABLE), pml4
	movl $pdpt, %edi
	movl $(pds + TABLE_PRESENT_WRITABLE), %eax
	movl $IDENTITY_GIB, %ecx
1:	movl %eax, (%edi)
	addl $PAGE_SIZE, %eax
	addl $8, %edi
	loop 1b
	movl $pds, %edi
	movl $PAGE_2M_PRESENT_WRITABLE, %eax
	xorl %edx, %edx
	movl $(IDENTITY_GIB * 512), %ecx
2:	movl %eax, (%edi)
	movl %edx, 4(%edi)
	addl $0x200000, %eax
	adcl $0, %edx
	addl $8, %edi
	loop 2b

	movl %cr4, %eax
	orl $CR4_PAE, %eax
	movl %eax, %cr4
	movl $pml4, %eax
	movl %eax, %cr3
	movl $MSR_EFER, %ecx
	rdmsr
	orl $EFER_LME, %eax
	wrmsr
	movl %cr0, %eax
	orl $CR0_PG, %eax
	movl %eax, %cr0
	lgdt gdt_pointer
	ljmp $CODE64_SELECTOR, $long_mode

/*
 * The PVH way in (boot/x86_64/pvh_header.S names it): the same machine state as Multiboot's,
 * 32-bit protected mode, paging off, with EBX = the hvm_start_info and no magic register. The
 * monitor loaded the image where its PT_LOAD says, the link address, so the distance is 0; EAX
 * takes PVH's magic, which names the protocol in MULTIBOOT_FILL_BOOT_ENTRY, and the path is
 * Multiboot's from the self-check on. PVH promises no stack: none is used before stack_top.
 */
	.globl pvh_entry
pvh_entry:
	cli
	cld
	xorl %ebp, %ebp
	movl $PVH_START_MAGIC, %eax
	jmp entry_self_check

no_long_mode:
	movl $no_long_mode_message, %esi
	movw $COM1, %dx
3:	lodsb
	testb %al, %al
	jz 4f
	outb %al, %dx
	jmp 3b
4:	jmp refuse_and_reset32 /* boot/x86/self_check.h */

	.code64
long_mode:
	movl $DATA_SELECTOR, %eax
	movl %eax, %ds
	movl %eax, %es
	movl %eax, %ss
	xorl %eax, %eax
	movl %eax, %fs
	movl %eax, %gs
	movq $stack_top, %rsp
	pushq $0
	popfq
	leaq stub_boot_entry(%rip), %rdi
	call stub_main
	/* The EFI entry joins here (boot/x86_64/efi_entry.S): long mode, the stub's GDT and
	 * stack, interrupts off, RAX = stub_main's answer. */
	.globl stub_enter_kernel
stub_enter_kernel:
	testq %rax, %rax
	jz refused
	/* Load what C chose (32-bit moves zero-extend), RSI (the pointer) last, and jump to the
	 * entry point through R11, which no handoff defines: unlike a pushed return address, a
	 * register leaves no copy of the kernel's address in the stub's memory. */
	movq %rax, %rsi
	movq ENTRY_REGS_ENTRY(%rsi), %r11
	WIPE_STUB_STATE %rsi, stack_bottom
	LOAD_ENTRY_REGS %rsi
	jmp *%r11
refused:
	REFUSE_AND_RESET

	.section .rodata
	.p2align 3
gdt:
	.quad 0
	.quad 0
	.quad 0x00af9a000000ffff /* 0x10: 64-bit code: L, P, DPL 0, execute/read */
	.quad 0x00cf92000000ffff /* 0x18: flat data: P, DPL 0, read/write */
gdt_end:
	/* A 64-bit base, for the EFI entry's lgdt in long mode; 32-bit mode reads its low half. */
	.globl stub_gdt_pointer
stub_gdt_pointer:
gdt_pointer:
	.word gdt_end - gdt - 1
	.quad gdt
no_long_mode_message:
	.asciz "kslide: error: this CPU has no long mode; an x86-64 kernel cannot run\n"

	.bss
	.p2align 12
	/* Also the EFI way in's identity map, once it leaves the firmware's (boot/efi_main.c). */
	.globl stub_page_tables, stub_page_tables_end
stub_page_tables:
pml4:
	.skip PAGE_SIZE
pdpt:
	.skip PAGE_SIZE
pds:
	.skip IDENTITY_GIB * PAGE_SIZE
stub_page_tables_end:
	.p2align 4
	.globl stack_top
stack_bottom:
	.skip STACK_BYTES
stack_top:
