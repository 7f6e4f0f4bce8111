/*
 * The arch's copy-and-sum for the payload's move (relocate_kernel): the widest registers this
 * CPU lets the stub use. On x86-64 with AVX2 that is word_sums_copy_avx2, after turning on
 * what it needs (CR4.OSFXSR, CR4.OSXSAVE, XCR0's SSE and AVX state); elsewhere the scalar
 * word_sums_copy. wide_copy_end puts CR0, CR4 and XCR0 back as the loader left them, so every
 * handoff enters its kernel with the control registers it would have had without this.
 */
#ifndef KSLIDE_BOOT_WIDE_COPY_H
#define KSLIDE_BOOT_WIDE_COPY_H

#include <stdbool.h>
#include <stdint.h>

#include "lib/word_sums.h"

struct wide_copy_saved {
	bool changed; /* the registers below were changed and must be restored */
	uintptr_t cr0, cr4;
	uint64_t xcr0;
};

/* The routine to copy with; turns on what it needs and notes in *saved what to undo. */
word_sums_copy_fn *wide_copy_begin(struct wide_copy_saved *saved);

/* Undo wide_copy_begin. */
void wide_copy_end(const struct wide_copy_saved *saved);

#endif
