/*
 * log2 in fixed point by the digit-by-digit method: normalize n to a mantissa m in [1, 2)
 * (32 bits after the point), then each squaring of m says one more fractional bit: m^2 >= 2
 * means the bit is 1 (and m^2 / 2 carries on). 32-bit mantissas keep every product in 64
 * bits, which i386 multiplies without libgcc.
 */
#include "lib/log2.h"

#define MANTISSA_BITS 31 /* m is kept as m * 2^31, in [2^31, 2^32) */

uint32_t log2_fixed(uint64_t n)
{
	if (n <= 1)
		return 0;
	uint32_t whole = 63 - (uint32_t)__builtin_clzll(n);
	uint64_t m = whole >= MANTISSA_BITS ? n >> (whole - MANTISSA_BITS)
					    : n << (MANTISSA_BITS - whole);
	uint32_t result = whole << LOG2_FRAC_BITS;
	for (int bit = LOG2_FRAC_BITS - 1; bit >= 0; bit--) {
		m = (m * m) >> MANTISSA_BITS; /* now in [2^31, 2^33) */
		if (m >= (1ull << (MANTISSA_BITS + 1))) {
			m >>= 1;
			result |= 1u << bit;
		}
	}
	return result;
}
