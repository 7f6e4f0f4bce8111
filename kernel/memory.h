/* Reaching physical memory from the kernel. */
#ifndef KSLIDE_KERNEL_MEMORY_H
#define KSLIDE_KERNEL_MEMORY_H

#include <stdint.h>

#include "kernel/layout.h"

#ifdef __x86_64__
/* Through the direct map, once paging_init has run; valid below DIRECT_MAP_LIMIT. */
static inline void *phys_to_virt(uint64_t phys)
{
	return (void *)(uintptr_t)(phys + DIRECT_MAP);
}
#else
/* Through the direct map; valid for physical addresses below LOWMEM_LIMIT only. */
static inline void *phys_to_virt(uint64_t phys)
{
	return (void *)(uintptr_t)(phys + KERNEL_VIRT_OFFSET);
}
#endif

/* The physical address _start really runs from (the page tables or the head code say). */
uintptr_t start_phys_runtime(void);

#endif
