/*
 * The Multiboot way in, as far as both arches' entries share it (boot/<arch>/entry.S): both
 * Multiboot headers (boot/x86/multiboot*_header.S) name the same stub_entry, and both protocols
 * enter it in 32-bit protected mode, paging off, with the loader's magic in EAX and the
 * address of its information in EBX. The magic decides the protocol here, once, and
 * struct boot_entry (boot/entry.h) carries it to stub_main. The entries run these first:
 * MULTIBOOT_LOAD_DISTANCE, the self-check, MULTIBOOT_FILL_BOOT_ENTRY, then
 * STUB_RELOCATE_SELF (boot/x86/self_relocate.h).
 */
#ifndef KSLIDE_BOOT_X86_MULTIBOOT_ENTRY_H
#define KSLIDE_BOOT_X86_MULTIBOOT_ENTRY_H

#include "boot/entry.h"
#include "include/protocol/multiboot2.h"
#include "include/protocol/pvh.h"

/*
 * EBP = where the image lies minus where it was linked: 0, unless a Multiboot2 loader moved it
 * (the relocatable tag of boot/x86/multiboot2_header.S), which then says where in its
 * load-base tag (GRUB writes it first). A Multiboot 1 loader always loads at the header's
 * load_addr. Read in registers only, bounded by the information's total_size; 32-bit code,
 * before anything of the stub is trusted. Clobbers ECX, EDX, ESI; keeps EAX, EBX.
 */
.macro MULTIBOOT_LOAD_DISTANCE
	xorl %ebp, %ebp
	cmpl $MB2_BOOTLOADER_MAGIC, %eax
	jne 3f
	movl (%ebx), %edx
	addl %ebx, %edx /* the information's end */
	jc 3f
	leal MB2_INFO_HEADER(%ebx), %esi
1:	leal MB2_TAG_HEADER(%esi), %ecx
	cmpl %edx, %ecx
	ja 3f
	movl (%esi), %ecx
	cmpl $MB2_INFO_TAG_END, %ecx
	je 3f
	cmpl $MB2_INFO_TAG_LOAD_BASE, %ecx
	je 2f
	movl 4(%esi), %ecx
	cmpl $MB2_TAG_HEADER, %ecx
	jb 3f
	addl $(MB2_TAG_ALIGN - 1), %ecx
	andl $-MB2_TAG_ALIGN, %ecx
	addl %ecx, %esi
	jnc 1b
	jmp 3f
2:	cmpl $(MB2_LOAD_BASE_ADDR + 4), 4(%esi)
	jb 3f
	movl MB2_LOAD_BASE_ADDR(%esi), %ebp
	subl $_image_start, %ebp
3:
.endm

/*
 * Fill stub_boot_entry from EAX and EBX (32-bit code, before the stub has moved its addresses:
 * memory is reached as link address + EBP; clobbers ECX). Multiboot 2's magic names
 * Multiboot 2; PVH's start-info magic names PVH, which no Multiboot loader leaves in EAX and
 * x86-64's PVH entry puts there (boot/x86_64/entry.S) to join this path after the self-check;
 * any other value names Multiboot 1, the protocol of every other loader that reads these
 * headers, whose check refuses a magic that is not its own (boot/loader_multiboot1.c), so a
 * stray jump here is told apart from a boot.
 */
.macro MULTIBOOT_FILL_BOOT_ENTRY
	movl $BOOT_PROTOCOL_MULTIBOOT1, %ecx
	cmpl $MB2_BOOTLOADER_MAGIC, %eax
	jne 1f
	movl $BOOT_PROTOCOL_MULTIBOOT2, %ecx
1:	cmpl $PVH_START_MAGIC, %eax
	jne 2f
	movl $BOOT_PROTOCOL_PVH, %ecx
2:	movl %ecx, stub_boot_entry + BOOT_ENTRY_PROTOCOL(%ebp)
	movl %eax, stub_boot_entry + BOOT_ENTRY_MAGIC(%ebp)
	movl %ebx, stub_boot_entry + BOOT_ENTRY_INFO(%ebp)
	movl $0, stub_boot_entry + BOOT_ENTRY_INFO + 4(%ebp)
	leal _image_start(%ebp), %ecx
	movl %ecx, stub_boot_entry + BOOT_ENTRY_IMAGE_START(%ebp)
	movl $0, stub_boot_entry + BOOT_ENTRY_IMAGE_START + 4(%ebp)
	.pushsection .bss
	.p2align 3
stub_boot_entry:
	.skip BOOT_ENTRY_SIZE
	.popsection
.endm

#endif
