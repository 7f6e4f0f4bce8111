/*
 * The single slide of a Multiboot kernel (--handoff multiboot): physical and virtual bases
 * move by one delta, so virtual = physical + the kernel's own constant keeps holding, and an
 * x86-64 kernel is run by the i386 stub, which enters it in 32-bit protected mode as its
 * loader would. What that allows (segments of different offsets, an entry without PF_X) and
 * what it bounds (the window its boot tables map, its segments' alignment, the top of the
 * address space). Pure, as policy.h: messages to the caller.
 */
#ifndef KSLIDE_TOOLS_PACK_SINGLE_SLIDE_H
#define KSLIDE_TOOLS_PACK_SINGLE_SLIDE_H

#include <stddef.h>

#include "tools/pack/kernel_elf.h"
#include "tools/pack/policy.h"

/* An x86-64 Multiboot kernel's physical window: what its boot page tables usually map at its
 * higher half, the first 1 GiB (single_slide.c says why). */
#define SINGLE_SLIDE_MAX_X86_64 0x40000000ull

/* Make k single-slide, with its window and its segments' alignment in opt. 0, or -1 with a
 * message for an --align below the segments' p_align. */
int single_slide_choose(struct kernel_elf *k, struct pack_options *opt,
			const struct pack_choices *ch, char *err, size_t err_cap);

/* At the window's highest base every segment must still end inside the address space. 0, or
 * -1 with the --max that keeps it. */
int single_slide_check_window(const struct kernel_elf *k, const struct pack_options *opt,
			      char *err, size_t err_cap);

/* Segments with different virtual-to-physical offsets need a single slide: 0, or -1 with a
 * message naming the segments and the way forward. */
int single_slide_check_offsets(const struct kernel_elf *k, char *err, size_t err_cap);

/* An e_entry in a segment without PF_X: refused, or for a single-slide kernel (a Multiboot
 * entry, run with paging off) warned of. 0, or -1 with a message about the kernel. */
int single_slide_check_entry(const char *in, const struct kernel_elf *k,
			     const struct pack_log *log, char *err, size_t err_cap);

#endif
