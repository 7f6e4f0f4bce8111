/*
 * Zeroing a compiler may not drop. A store to memory nothing reads again is a dead store the
 * optimizer is free to remove, and secrets the code is done with (the generator's key, the
 * bases, the seed) are exactly such memory: the volatile stores below are always made.
 */
#ifndef KSLIDE_LIB_WIPE_H
#define KSLIDE_LIB_WIPE_H

#include <stddef.h>
#include <stdint.h>

/* A machine word that may overlay memory of any type, as the stores below do. */
typedef size_t __attribute__((may_alias)) wipe_word;

/* Whole aligned words where it can: the stub wipes tens of kilobytes at every boot. */
static inline void wipe(void *p, size_t len)
{
	volatile uint8_t *b = p;
	size_t i = 0;

	for (; i < len && (uintptr_t)(b + i) % sizeof(wipe_word); i++)
		b[i] = 0;
	for (; len - i >= sizeof(wipe_word); i += sizeof(wipe_word))
		*(volatile wipe_word *)(b + i) = 0;
	for (; i < len; i++)
		b[i] = 0;
}

#endif
