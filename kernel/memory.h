/* Reaching physical memory through the kernel's direct map. */
#ifndef KSLIDE_KERNEL_MEMORY_H
#define KSLIDE_KERNEL_MEMORY_H

#include <stdint.h>

#include "kernel/i386/layout.h"

/* Valid for physical addresses below LOWMEM_LIMIT only. */
static inline void *phys_to_virt(uint64_t phys)
{
	return (void *)(uintptr_t)(phys + KERNEL_VIRT_OFFSET);
}

#endif
