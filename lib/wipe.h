/*
 * Zeroing a compiler may not drop. A store to memory nothing reads again is a dead store the
 * optimizer is free to remove, and secrets the code is done with (the generator's key, the
 * bases, the seed) are exactly such memory: the volatile stores below are always made.
 */
#ifndef KSLIDE_LIB_WIPE_H
#define KSLIDE_LIB_WIPE_H

#include <stddef.h>
#include <stdint.h>

static inline void wipe(void *p, size_t len)
{
	volatile uint8_t *b = p;

	for (size_t i = 0; i < len; i++)
		b[i] = 0;
}

#endif
