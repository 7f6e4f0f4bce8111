/* Reaching physical memory from the kernel, and the physical address of kernel memory. */
#ifndef KSLIDE_KERNEL_MEMORY_H
#define KSLIDE_KERNEL_MEMORY_H

#include <stdint.h>

#include "kernel/layout.h"

/* Through the direct map: valid below LOWMEM_LIMIT on i386, and below DIRECT_MAP_LIMIT on
 * x86-64 once paging_init has run. */
static inline void *phys_to_virt(uint64_t phys)
{
	return (void *)(uintptr_t)(phys + DIRECT_MAP);
}

/* Physical address of an address in the direct map. */
static inline uint64_t direct_virt_to_phys(const void *p)
{
	return (uintptr_t)p - DIRECT_MAP;
}

#ifdef __x86_64__
/* Physical address of an address in the image (kernel/x86_64/paging.c). */
uint64_t kernel_virt_to_phys(const void *p);
#else
/* Physical address of an address in the image or the direct map. */
static inline uint64_t kernel_virt_to_phys(const void *p)
{
	return (uintptr_t)p - KERNEL_VIRT_OFFSET;
}
#endif

/* The image's parts, page aligned by kernel/<arch>/kernel*.ld: [_kernel_start, _kernel_text_end)
 * code, mapped read-only and executable; [_kernel_text_end, _kernel_data_start) read-only data
 * (rodata, and in the PIE what the stub relocated: .data.rel.ro, .dynamic, .got), mapped
 * read-only and, where the CPU has NX, not executable; [_kernel_data_start, _kernel_end) data
 * and bss, writable and not executable (x86-64: kernel/x86_64/paging.c; i386:
 * kernel/i386/image_protect.c). */
extern char _kernel_start[], _kernel_text_end[], _kernel_data_start[], _kernel_end[];

/* The physical address _start really runs from (the page tables or the head code say). */
uintptr_t start_phys_runtime(void);

#endif
