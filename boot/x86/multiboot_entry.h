/*
 * The Multiboot way in, as far as both arches' entries share it (boot/<arch>/entry.S): both
 * Multiboot headers (boot/x86/multiboot*_header.S) name the same stub_entry, and both protocols
 * enter it in 32-bit protected mode, paging off, with the loader's magic in EAX and the
 * address of its information in EBX. The magic decides the protocol here, once, and
 * struct boot_entry (boot/entry.h) carries it to stub_main.
 */
#ifndef KSLIDE_BOOT_X86_MULTIBOOT_ENTRY_H
#define KSLIDE_BOOT_X86_MULTIBOOT_ENTRY_H

#include "boot/entry.h"
#include "include/protocol/multiboot2.h"

/*
 * Fill stub_boot_entry from EAX and EBX (32-bit code; clobbers ECX). Multiboot 2's magic names
 * Multiboot 2; any other value names Multiboot 1, the protocol of every other loader that reads
 * these headers, whose check refuses a magic that is not its own (boot/loader_multiboot1.c),
 * so a stray jump here is told apart from a boot. The image lies at its link address: both
 * headers ask to be loaded there.
 */
.macro MULTIBOOT_FILL_BOOT_ENTRY
	movl $BOOT_PROTOCOL_MULTIBOOT1, %ecx
	cmpl $MB2_BOOTLOADER_MAGIC, %eax
	jne 1f
	movl $BOOT_PROTOCOL_MULTIBOOT2, %ecx
1:	movl %ecx, stub_boot_entry + BOOT_ENTRY_PROTOCOL
	movl %eax, stub_boot_entry + BOOT_ENTRY_MAGIC
	movl %ebx, stub_boot_entry + BOOT_ENTRY_INFO
	movl $0, stub_boot_entry + BOOT_ENTRY_INFO + 4
	movl $_image_start, stub_boot_entry + BOOT_ENTRY_IMAGE_START
	movl $0, stub_boot_entry + BOOT_ENTRY_IMAGE_START + 4
	.pushsection .bss
	.p2align 3
stub_boot_entry:
	.skip BOOT_ENTRY_SIZE
	.popsection
.endm

#endif
