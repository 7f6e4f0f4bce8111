/*
 * Base-2 logarithms in fixed point, without floating point (the stub has none): how many
 * bits of entropy a count of equally likely choices is worth.
 */
#ifndef KSLIDE_LIB_LOG2_H
#define KSLIDE_LIB_LOG2_H

#include <stdint.h>

#define LOG2_FRAC_BITS 8 /* results are in 1/256 bits */
#define LOG2_ONE (1u << LOG2_FRAC_BITS)

/* log2(n) in 1/256 bits, rounded down; 0 for n <= 1. Exact for powers of two. */
uint32_t log2_fixed(uint64_t n);

#endif
