/* Unbiased integers in [0, n) by masking and rejection; no division, so i386 needs no libgcc. */
#include "lib/uniform.h"

/*
 * Smallest value of the form 2^k - 1 that is >= v. Smearing the top set bit downwards keeps
 * this to shifts and ors, which stay inline on i386.
 */
static uint64_t cover_mask(uint64_t v)
{
	v |= v >> 1;
	v |= v >> 2;
	v |= v >> 4;
	v |= v >> 8;
	v |= v >> 16;
	v |= v >> 32;
	return v;
}

/*
 * Draws words, keeps the low bits that cover n - 1 and rejects values >= n. The mask is less
 * than twice n, so each draw is accepted with probability above one half. For n <= 1 there is
 * only one answer, so nothing is drawn; a caller's source is left untouched.
 */
uint64_t uniform_below(uint64_t n, random_u64_fn next, void *ctx)
{
	if (n <= 1)
		return 0;

	uint64_t mask = cover_mask(n - 1);
	uint64_t x;
	do
		x = next(ctx) & mask;
	while (x >= n);
	return x;
}
