/*
 * The i386 half of arch_image_protect (kernel/arch.h): head.S mapped all of lowmem writable, the
 * image among it (virtual = physical + KERNEL_VIRT_OFFSET, so the image has no other mapping);
 * here the pages of its text and rodata lose the writable bit. 32-bit paging has no NX bit:
 * every present page stays executable, data and bss included (W^X needs PAE, which this
 * kernel does not use). Read-only is what holds, with CR0.WP (cpu_load) for ring 0.
 */
#include "arch/x86/sysregs.h"
#include "kernel/arch.h"
#include "kernel/cpu/cpu_tables.h"
#include "kernel/memory.h"

#define PDE_SHIFT 22
#define PTE_INDEX(va) (((va) >> 12) & 0x3ffu)
#define FRAME_MASK 0xfffff000u

void arch_image_protect(void)
{
	for (uintptr_t va = (uintptr_t)_kernel_start; va < (uintptr_t)_kernel_data_start;
	     va += PAGE_SIZE) {
		uint32_t *table = phys_to_virt(boot_page_dir[va >> PDE_SHIFT] & FRAME_MASK);
		table[PTE_INDEX(va)] &= ~(uint32_t)PTE_WRITABLE;
	}
	write_cr3(read_cr3()); /* no global pages (CR4.PGE is off): this flushes them all */
}
