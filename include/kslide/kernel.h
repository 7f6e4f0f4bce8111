/*
 * What a kernel may declare to kslide-pack about itself, in an ELF note of its own file: that
 * it is kslide-aware and which handoff it wants. Put KSLIDE_KERNEL_NOTE(handoff) once in any
 * C file of the kernel (or the assembler macro of the same name in a .S file):
 *
 *   #include <kslide/kernel.h>
 *   KSLIDE_KERNEL_NOTE(KSLIDE_HANDOFF_KSLIDE);
 *
 * The note lives in a section of its own, `.kslide.note` (SHT_NOTE, not allocated), so it
 * costs the loaded kernel nothing and survives linker scripts that discard `.note.*`.
 * `readelf -n` shows it: owner "kslide", type KSLIDE_NOTE_KERNEL. A kernel without the note
 * gets the Multiboot pass-through when it has a Multiboot header, kslide's boot info
 * otherwise (docs/kernel-authors.md).
 */
#ifndef KSLIDE_KERNEL_H
#define KSLIDE_KERNEL_H

#include "image.h"

#define KSLIDE_NOTE_OWNER "kslide"
#define KSLIDE_NOTE_KERNEL 1 /* the note's type */
#define KSLIDE_NOTE_VERSION 1

/* The note's descriptor: 32-bit little-endian words. */
#define KSLIDE_NOTE_DESC_VERSION 0 /* KSLIDE_NOTE_VERSION */
#define KSLIDE_NOTE_DESC_HANDOFF 4 /* KSLIDE_HANDOFF_*, or 0 for the packer's choice */
#define KSLIDE_NOTE_DESC_SIZE 8

#define KSLIDE_NOTE_STR_(x) #x
#define KSLIDE_NOTE_STR(x) KSLIDE_NOTE_STR_(x)

#ifdef __ASSEMBLER__
.macro KSLIDE_KERNEL_NOTE handoff
	.pushsection .kslide.note, "", @note
	.balign 4
	.long 7, KSLIDE_NOTE_DESC_SIZE, KSLIDE_NOTE_KERNEL
	.asciz "kslide"
	.balign 4
	.long KSLIDE_NOTE_VERSION, \handoff
	.popsection
.endm
#else
#define KSLIDE_KERNEL_NOTE(handoff)                                                          \
	__asm__(".pushsection .kslide.note, \"\", @note\n"                                   \
		".balign 4\n"                                                                \
		".long 7, " KSLIDE_NOTE_STR(KSLIDE_NOTE_DESC_SIZE) ", "                      \
		KSLIDE_NOTE_STR(KSLIDE_NOTE_KERNEL) "\n"                                     \
		".asciz \"kslide\"\n"                                                        \
		".balign 4\n"                                                                \
		".long " KSLIDE_NOTE_STR(KSLIDE_NOTE_VERSION) ", " KSLIDE_NOTE_STR(handoff) "\n" \
		".popsection\n")
#endif

#endif
