/* Unbiased choice of an integer in [0, n) from a source of uniform 64-bit words. */
#ifndef KSLIDE_LIB_UNIFORM_H
#define KSLIDE_LIB_UNIFORM_H

#include <stdint.h>

typedef uint64_t (*random_u64_fn)(void *ctx);

/*
 * Returns a value uniform over [0, n) for any n >= 1 (n == 0 returns 0). Uses masking and
 * rejection, never a modulo, so no value is favoured; expected draws are below two.
 */
uint64_t uniform_below(uint64_t n, random_u64_fn next, void *ctx);

#endif
