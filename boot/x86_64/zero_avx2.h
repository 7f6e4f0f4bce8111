/*
 * The zero fill past the payload's file bytes on AVX2 (boot/wide_copy.h picks it with
 * word_sums_copy_avx2): what memset(dst, 0, n) does, a 32-byte store at a time where the
 * plain loop takes four, so that a kernel whose bss the image no longer carries (Linux's, some
 * 12 MB) costs the stub a tenth of what copying it did (docs/results.md).
 */
#ifndef KSLIDE_BOOT_X86_64_ZERO_AVX2_H
#define KSLIDE_BOOT_X86_64_ZERO_AVX2_H

#include <stddef.h>
#include <stdint.h>

/* Bytes a round of the loop clears: eight stores of one register. */
#define ZERO_AVX2_ROUND 256u

/* n zero bytes at dst, any alignment. Uses ymm0 and clears its upper half (VZEROUPPER) before
 * it returns. Only with AVX2 on (boot/wide_copy.h). */
void zero_avx2(uint8_t *dst, size_t n);

#endif
