/* The x86-64 half of kernel/mm/phys_map.h: the direct map reaches all RAM up to DIRECT_MAP_LIMIT
 * (kernel/x86_64/paging.c), so there is no window; what lies beyond is not reached. */
#include "kernel/mm/phys_map.h"

void phys_map_init(void)
{
}

void *arch_phys_map(uint64_t phys, size_t len)
{
	(void)phys, (void)len;
	return NULL;
}
