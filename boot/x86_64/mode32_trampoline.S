/*
 * From long mode to the Multiboot machine state (boot/mode32.h; Intel SDM Vol. 3A, 10.8.5.4
 * "Leaving IA-32e Mode"): to compatibility mode by a far return to a 32-bit code segment,
 * paging off (this code runs where virtual = physical), EFER.LME and CR4.PAE clear, then the
 * kernel's registers and a jump to its entry. Position-independent: boot/x86_64/mode32.c
 * copies it to the start of a page below 4 GiB and stub_enter_kernel jumps to the copy with
 * the kernel's registers loaded, ESI = the page, EDI = the kernel's entry (physical).
 */
#define CODE32_SELECTOR 0x10 /* as the i386 stub's: flat 32-bit code */
#define DATA_SELECTOR	0x18 /* flat data */
#define CR0_PG		(1 << 31)
#define CR4_PAE		(1 << 5)
#define MSR_EFER	0xC0000080
#define EFER_LME	(1 << 8)
#define PAGE_SIZE	4096
#define AT(label)	(label - mode32_trampoline)

	.section .rodata
	.p2align 4
	.globl mode32_trampoline, mode32_trampoline_end
	.code64
mode32_trampoline:
	/* What the kernel gets in the registers the switch needs. */
	movl %eax, AT(saved_eax)(%rsi)
	movl %ecx, AT(saved_ecx)(%rsi)
	movl %edx, AT(saved_edx)(%rsi)
	leaq AT(gdt)(%rsi), %rax
	movq %rax, AT(gdt_pointer) + 2(%rsi)
	lgdt AT(gdt_pointer)(%rsi)
	leaq AT(compatibility)(%rsi), %rax
	pushq $CODE32_SELECTOR
	pushq %rax
	lretq

	.code32
compatibility:
	movl $DATA_SELECTOR, %eax
	movl %eax, %ds
	movl %eax, %es
	movl %eax, %fs
	movl %eax, %gs
	movl %eax, %ss
	leal PAGE_SIZE(%esi), %esp
	movl %cr0, %eax
	andl $~CR0_PG, %eax
	movl %eax, %cr0
	movl $MSR_EFER, %ecx
	rdmsr
	andl $~EFER_LME, %eax
	wrmsr
	movl %cr4, %eax
	andl $~CR4_PAE, %eax
	movl %eax, %cr4
	movl AT(saved_eax)(%esi), %eax
	movl AT(saved_ecx)(%esi), %ecx
	movl AT(saved_edx)(%esi), %edx
	xorl %esi, %esi
	jmp *%edi

	.p2align 3
gdt:
	.quad 0
	.quad 0
	.quad 0x00cf9a000000ffff /* 0x10: flat 32-bit code, execute/read */
	.quad 0x00cf92000000ffff /* 0x18: flat data, read/write */
gdt_end:
	.p2align 3
gdt_pointer:
	.word gdt_end - gdt - 1
	.quad 0 /* the copy's gdt, written above */
saved_eax:
	.long 0
saved_ecx:
	.long 0
saved_edx:
	.long 0
mode32_trampoline_end:
