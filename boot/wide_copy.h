/*
 * The arch's routines for the payload's move (relocate_kernel): the copy-and-sum and the zero
 * fill past the file's bytes, on the widest registers this CPU lets the stub use. On x86-64
 * with AVX2 those are word_sums_copy_avx2 and zero_avx2, after turning on what they need
 * (CR4.OSFXSR, CR4.OSXSAVE, XCR0's SSE and AVX state); elsewhere the plain ones
 * (move_routines_plain). wide_copy_end puts CR0, CR4 and XCR0 back as the loader left them,
 * so every handoff enters its kernel with the control registers it would have had without
 * this.
 */
#ifndef KSLIDE_BOOT_WIDE_COPY_H
#define KSLIDE_BOOT_WIDE_COPY_H

#include <stdbool.h>
#include <stdint.h>

#include "lib/crc32.h"
#include "lib/reloc.h"

struct wide_copy_saved {
	bool changed; /* the registers below were changed and must be restored */
	uintptr_t cr0, cr4;
	uint64_t xcr0;
};

/* The routines to move with; turns on what they need and notes in *saved what to undo. */
const struct move_routines *wide_copy_begin(struct wide_copy_saved *saved);

/* The same for the image checksum: crc32_update, or on x86-64 with AVX and PCLMULQDQ
 * crc32_pclmul. */
crc32_fn *wide_crc32_begin(struct wide_copy_saved *saved);

/* Undo wide_copy_begin or wide_crc32_begin. */
void wide_copy_end(const struct wide_copy_saved *saved);

#endif
