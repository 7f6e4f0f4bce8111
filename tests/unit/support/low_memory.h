/*
 * Memory below 2 GiB for unit tests of code that uses 32-bit physical addresses as pointers
 * (the handoffs, which hand them to the kernel in 32-bit registers): mmap with MAP_32BIT.
 */
#ifndef KSLIDE_TESTS_UNIT_SUPPORT_LOW_MEMORY_H
#define KSLIDE_TESTS_UNIT_SUPPORT_LOW_MEMORY_H

#include <stddef.h>
#include <stdint.h>

/* bytes of fresh memory below 2 GiB, every byte 0xee (so that what a test did not write is
 * not zero); the test fails when there is none. Release it with munmap. */
uint8_t *low_memory(size_t bytes);

/* A pointer into that memory as the 32-bit address the code under test takes. */
static inline uint32_t addr32(const void *p)
{
	return (uint32_t)(uintptr_t)p;
}

#endif
