/*
 * The decoders' i386 build (tests/unit/i386/decode_check.c) run from the unit tests, natively
 * or under qemu-i386 (scripts/run32.sh says which), and judged by what it prints, so that a
 * run that never reached the i386 code cannot pass.
 */
#ifndef KSLIDE_TESTS_UNIT_SUPPORT_I386_CHECK_H
#define KSLIDE_TESTS_UNIT_SUPPORT_I386_CHECK_H

#include <stddef.h>

/* Fails the test (it never skips) unless the checker and the i386 kernel it reads are built. */
void assert_i386_checker_built(void);

/*
 * DIR holds 'original' and frame0.EXT … frame{frames-1}.EXT: one run of the checker decodes
 * them all, and the test fails unless it says it ran with 4-byte pointers and that every
 * frame decodes to the original. DIR is removed.
 */
void assert_i386_check_passes(const char *dir, size_t frames, const char *ext);

#endif
