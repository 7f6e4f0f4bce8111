/* kernel/mm/phys_map.h: the direct map where it reaches, the arch's half beyond. */
#include "kernel/mm/phys_map.h"
#include "kernel/memory.h"

void *phys_map(uint64_t phys, size_t len)
{
	if (!len)
		return NULL;
	if (phys < DIRECT_MAP_SPAN && len <= DIRECT_MAP_SPAN - phys)
		return phys_to_virt(phys);
	return arch_phys_map(phys, len);
}
