/*
 * An x86-64 Multiboot kernel entry as the tutorials write it: 32-bit protected-mode code in a
 * low, identity-linked section (.boot), the rest of the kernel linked in the higher half at
 * KERNEL_VMA + physical. The entry builds its own boot page tables mapping the first 1 GiB
 * twice (identity, for the switch, and at KERNEL_VMA), enters long mode and jumps to the
 * higher half, which calls kernel_main(magic, info). Nothing here knows of kslide.
 *
 * Two headers: Multiboot 2 for GRUB's multiboot2, and Multiboot 1 with the address fields
 * (the a.out kludge), the only way QEMU's -kernel loads an ELF64 file. Built with
 * MULTIBOOT2_ONLY (the Makefile's kernel-mb2) it has the first only, as kernels such as
 * Dreamos64: QEMU's -kernel cannot load it, but it loads its packed image.
 */
#define KERNEL_VMA 0xffffffff80000000
#define MB2_MAGIC 0xE85250D6
#define MB2_ARCH_I386 0
#define MB2_LENGTH (mb2_end - mb2_start)
#define MB1_MAGIC 0x1BADB002
#define MB1_FLAGS ((1 << 0) | (1 << 1) | (1 << 16)) /* page-aligned modules, memory, addresses */
#define STACK_BYTES 16384
#define PAGE_PRESENT_WRITABLE 0x3
#define PAGE_LARGE 0x80 /* a PD entry maps 2 MiB */
#define LARGE_PAGE 0x200000
#define CR4_PAE (1 << 5)
#define CR0_PG (1 << 31)
#define MSR_EFER 0xc0000080
#define EFER_LME (1 << 8)
#define CPUID_LONG_MODE (1 << 29) /* CPUID 0x80000001 EDX */
#define PHYS(sym) ((sym) - KERNEL_VMA)
/* 2 MiB pages the boot tables map, identity and at KERNEL_VMA: the tutorials' 1 GiB, or what
 * the build says (the Makefile's kernel-4m maps 4 MiB, as kernels that map only low memory). */
#ifndef BOOT_MAP_PAGES
#define BOOT_MAP_PAGES 512
#endif

	.section .multiboot, "a"
	.p2align 3
mb2_start:
	.long MB2_MAGIC, MB2_ARCH_I386, MB2_LENGTH, -(MB2_MAGIC + MB2_ARCH_I386 + MB2_LENGTH)
	/* Information request: command line, loader name, modules, memory map. */
	.short 1, 0
	.long 8 + 4 * 4
	.long 1, 2, 3, 6
	.p2align 3
	/* Modules on page boundaries. */
	.short 6, 0
	.long 8
	/* End. */
	.short 0, 0
	.long 8
mb2_end:

#ifndef MULTIBOOT2_ONLY
	.p2align 2
mb1_header:
	.long MB1_MAGIC, MB1_FLAGS, -(MB1_MAGIC + MB1_FLAGS)
	.long mb1_header        /* header_addr */
	.long _load_start       /* load_addr: the file from here is loaded */
	.long _load_end_phys    /* load_end_addr */
	.long _bss_end_phys     /* bss_end_addr */
	.long _start            /* entry_addr */
#endif

	.section .boot.text, "ax"
	.code32
	.globl _start
_start:
	movl $PHYS(boot_stack_top), %esp
	movl %eax, %edi /* the loader's magic and info, for kernel_main */
	movl %ebx, %esi
	movl $0x80000001, %eax
	cpuid
	testl $CPUID_LONG_MODE, %edx
	jz no_long_mode

	/* pml4[0] and pml4[511] -> their PDPTs; both PDPTs -> one PD of 512 large pages. */
	movl $PHYS(boot_pdpt_low) + PAGE_PRESENT_WRITABLE, PHYS(boot_pml4)
	movl $PHYS(boot_pdpt_high) + PAGE_PRESENT_WRITABLE, PHYS(boot_pml4) + 511 * 8
	movl $PHYS(boot_pd) + PAGE_PRESENT_WRITABLE, PHYS(boot_pdpt_low)
	movl $PHYS(boot_pd) + PAGE_PRESENT_WRITABLE, PHYS(boot_pdpt_high) + 510 * 8
	xorl %ecx, %ecx
1:	movl %ecx, %eax
	shll $21, %eax
	orl $(PAGE_LARGE | PAGE_PRESENT_WRITABLE), %eax
	movl %eax, PHYS(boot_pd)(, %ecx, 8)
	incl %ecx
	cmpl $BOOT_MAP_PAGES, %ecx
	jne 1b

	movl $PHYS(boot_pml4), %eax
	movl %eax, %cr3
	movl %cr4, %eax
	orl $CR4_PAE, %eax
	movl %eax, %cr4
	movl $MSR_EFER, %ecx
	rdmsr
	orl $EFER_LME, %eax
	wrmsr
	movl %cr0, %eax
	orl $CR0_PG, %eax
	movl %eax, %cr0
	lgdt PHYS(gdt64_pointer)
	ljmp $0x08, $long_mode_low

no_long_mode:
	hlt
	jmp no_long_mode

	.code64
long_mode_low:
	movabsq $higher_half, %rax
	jmp *%rax

	.text
higher_half:
	movabsq $boot_stack_top, %rsp
	xorl %eax, %eax
	movw %ax, %ds
	movw %ax, %es
	movw %ax, %ss
	call kernel_main /* (magic in EDI, info in ESI) */
	cli
2:	hlt
	jmp 2b

	.section .rodata
	.p2align 3
gdt64:
	.quad 0
	.quad 0x00209a0000000000 /* 0x08: 64-bit code */
gdt64_end:
gdt64_pointer:
	.short gdt64_end - gdt64 - 1
	.long PHYS(gdt64)

	.bss
	.p2align 12
	.globl boot_pml4
boot_pml4:
	.skip 4096
boot_pdpt_low:
	.skip 4096
boot_pdpt_high:
	.skip 4096
boot_pd:
	.skip 4096
	.p2align 4
	.skip STACK_BYTES
boot_stack_top:
