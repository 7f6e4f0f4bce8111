/*
 * The memory map as the kernel received it, so a host tool can recount the slots the stub
 * chose from without trusting the stub's own count.
 */
#include <stdint.h>

#include "kernel/console.h"
#include "kernel/memory.h"
#include "kernel/report.h"

void report_usable_memory(const struct kslide_bootinfo *bi)
{
	const struct kslide_mem_entry *map = phys_to_virt(bi->mmap);
	const char *sep = "";

	kprintf("kernel: usable=");
	for (uint32_t i = 0; i < bi->mmap_count; i++) {
		if (map[i].type != KSLIDE_MEM_USABLE)
			continue;
		kprintf("%s0x%llx-0x%llx", sep, (unsigned long long)map[i].base,
			(unsigned long long)(map[i].base + map[i].length));
		sep = ",";
	}
	kprintf("\n");
}
