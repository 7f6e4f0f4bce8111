/*
 * The stub where the loader put it: a loader may load the image somewhere other than its link
 * address (GRUB does with the Multiboot2 relocatable tag), and the entry code learns how far
 * from its protocol (boot/x86/multiboot_entry.h). Until the stub has moved its own addresses,
 * the entry reaches memory only as link address + EBP, the distance; STUB_RELOCATE_SELF then
 * adds the distance to every field that holds one of the stub's addresses, the fields
 * kslide-stub-relocs listed from the linker's relocations (tools/kslide-stub-relocs.c), and
 * sets EBP to 0: from there on the code runs as linked, C included, and a path shared by both
 * sides (refuse_and_reset32) still finds its data as link address + EBP.
 *
 * The table, .stub_relocs, lies inside the self-checked part of the stub, so the self-check
 * (boot/x86/self_check.h), which runs first, has seen it whole: a u32 count, then the offsets
 * from _image_start of the 32-bit words to move. x86-64's 64-bit fields appear as their low
 * halves: the stub lies below 4 GiB at its link address and wherever it is loaded (the
 * Multiboot2 header keeps it below 2 GiB), so their high halves are 0 before and after, and a
 * 32-bit add, wrapping, moves an address down as well as up. The loop's own instructions hold
 * no addresses, so it never rewrites itself as it runs.
 */
#ifndef KSLIDE_BOOT_X86_SELF_RELOCATE_H
#define KSLIDE_BOOT_X86_SELF_RELOCATE_H

/* 32-bit code, paging off; EBP = the distance. Clobbers ECX, EDX, ESI, EDI. */
.macro STUB_RELOCATE_SELF
	testl %ebp, %ebp
	jz 2f
	leal stub_relocs(%ebp), %esi
	leal _image_start(%ebp), %edi
	movl (%esi), %ecx
	jecxz 2f
1:	addl $4, %esi
	movl (%esi), %edx
	addl %ebp, (%edi,%edx)
	loop 1b
2:	xorl %ebp, %ebp
.endm

/* The same in long mode, for the EFI entry (boot/x86_64/efi_entry.S), which finds the table
 * and the image RIP-relative; still 32-bit adds, so the image must lie below 4 GiB. EBP =
 * the distance. Clobbers RCX, RDX, RSI, RDI. */
.macro STUB_RELOCATE_SELF64
	testl %ebp, %ebp
	jz 2f
	leaq stub_relocs(%rip), %rsi
	leaq _image_start(%rip), %rdi
	movl (%rsi), %ecx
	jrcxz 2f
1:	addq $4, %rsi
	movl (%rsi), %edx
	addl %ebp, (%rdi,%rdx)
	loop 1b
2:	xorl %ebp, %ebp
.endm

#endif
