/*
 * The image checksum (lib/crc32.h) on PCLMULQDQ, which boot/wide_copy.h picks with the AVX2
 * copy: crc32_update's result, bit for bit, at about a twentieth of its instructions over the
 * relocation table the stub checks at every boot (docs/results.md).
 */
#ifndef KSLIDE_BOOT_X86_64_CRC32_PCLMUL_H
#define KSLIDE_BOOT_X86_64_CRC32_PCLMUL_H

#include <stddef.h>
#include <stdint.h>

/* The fewest bytes the folding loop takes, and the multiple it takes them in. */
#define CRC32_PCLMUL_MIN 64u
#define CRC32_PCLMUL_STEP 16u

/* The loop (crc32_pclmul_rounds.S): the CRC register, not inverted, after n bytes at data; n at
 * least CRC32_PCLMUL_MIN, a multiple of CRC32_PCLMUL_STEP. */
uint32_t crc32_pclmul_rounds(uint32_t reg, const void *data, size_t n);

/* crc32_update on PCLMULQDQ (a crc32_fn). Only with AVX on (boot/wide_copy.h). */
uint32_t crc32_pclmul(uint32_t crc, const void *data, size_t len);

#endif
