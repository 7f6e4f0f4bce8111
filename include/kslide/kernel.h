/*
 * What a kernel may declare to kslide-pack about itself, in an ELF note of its own file: that
 * it is kslide-aware, which handoff it wants, and the limits of where it can run. Put one of
 * these once in any C file of the kernel (or the assembler macros of the same names in a .S
 * file):
 *
 *   #include <kslide/kernel.h>
 *   KSLIDE_KERNEL_NOTE(KSLIDE_HANDOFF_KSLIDE);
 *   KSLIDE_KERNEL_NOTE_LIMITS(KSLIDE_HANDOFF_KSLIDE, PHYS_END, ALIGN, VIRT_MIN, VIRT_END);
 *
 * The limits (KSLIDE_KERNEL_NOTE leaves them all 0, "no limit"):
 *   PHYS_END  the kernel's last byte must lie below this physical address: the end of what
 *             the kernel can map of itself (an i386 kernel's direct map, say)
 *   ALIGN     the physical (and on x86-64 the virtual) base must be a multiple of this
 *   VIRT_MIN, VIRT_END  x86-64: the kernel's virtual range must lie in [VIRT_MIN, VIRT_END);
 *             VIRT_END 0 is the top of the address space. i386 kernels leave both 0: their
 *             virtual base follows the physical one
 * kslide-pack takes them as its defaults (--max, --align, --virt-range) and refuses options
 * beyond them. The arguments are read by the assembler: integer constants or assembler
 * expressions, without C suffixes such as ULL.
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
/* Version 1: version and handoff only. Version 2 adds the limits. kslide-pack reads both. */
#define KSLIDE_NOTE_VERSION_HANDOFF 1
#define KSLIDE_NOTE_VERSION 2

/* The note's descriptor, little-endian: 32-bit words, then 64-bit limits (version 2). */
#define KSLIDE_NOTE_DESC_VERSION 0   /* KSLIDE_NOTE_VERSION */
#define KSLIDE_NOTE_DESC_HANDOFF 4   /* KSLIDE_HANDOFF_*, or 0 for the packer's choice */
#define KSLIDE_NOTE_DESC_SIZE_V1 8
#define KSLIDE_NOTE_DESC_PHYS_END 8  /* u64: the kernel ends below this physical address */
#define KSLIDE_NOTE_DESC_ALIGN 16    /* u64: the base is a multiple of this */
#define KSLIDE_NOTE_DESC_VIRT_MIN 24 /* u64: x86-64: lowest virtual address of the kernel */
#define KSLIDE_NOTE_DESC_VIRT_END 32 /* u64: x86-64: its virtual range ends at or below this */
#define KSLIDE_NOTE_DESC_SIZE 40

#define KSLIDE_NOTE_STR_(x) #x
#define KSLIDE_NOTE_STR(x) KSLIDE_NOTE_STR_(x)

#ifdef __ASSEMBLER__
.macro KSLIDE_KERNEL_NOTE_LIMITS handoff, phys_end, align, virt_min, virt_end
	.pushsection .kslide.note, "", @note
	.balign 4
	.long 7, KSLIDE_NOTE_DESC_SIZE, KSLIDE_NOTE_KERNEL
	.asciz "kslide"
	.balign 4
	.long KSLIDE_NOTE_VERSION, \handoff
	.quad \phys_end, \align, \virt_min, \virt_end
	.popsection
.endm
.macro KSLIDE_KERNEL_NOTE handoff
	KSLIDE_KERNEL_NOTE_LIMITS \handoff, 0, 0, 0, 0
.endm
#else
#define KSLIDE_KERNEL_NOTE_LIMITS(handoff, phys_end, align, virt_min, virt_end)              \
	__asm__(".pushsection .kslide.note, \"\", @note\n"                                   \
		".balign 4\n"                                                                \
		".long 7, " KSLIDE_NOTE_STR(KSLIDE_NOTE_DESC_SIZE) ", "                      \
		KSLIDE_NOTE_STR(KSLIDE_NOTE_KERNEL) "\n"                                     \
		".asciz \"kslide\"\n"                                                        \
		".balign 4\n"                                                                \
		".long " KSLIDE_NOTE_STR(KSLIDE_NOTE_VERSION) ", " KSLIDE_NOTE_STR(handoff) "\n" \
		".quad " KSLIDE_NOTE_STR(phys_end) ", " KSLIDE_NOTE_STR(align) ", "          \
		KSLIDE_NOTE_STR(virt_min) ", " KSLIDE_NOTE_STR(virt_end) "\n"                \
		".popsection\n")
#define KSLIDE_KERNEL_NOTE(handoff) KSLIDE_KERNEL_NOTE_LIMITS(handoff, 0, 0, 0, 0)
#endif

#endif
