/* The i386 half of kernel/smp/smp.h: the local APIC mapped at its own address in the hole between
 * the physical-memory window and the fixmap, and the trampoline run on the kernel's own
 * directory. */
#include "kernel/smp/smp.h"
#include "arch/x86/sysregs.h"
#include "kernel/cpu/cpu_tables.h"
#include "kernel/memory.h"
#include "kernel/mm/frames.h"
#include "kernel/mm/space.h"
#include "kernel/secrecy/oops.h"

#define PTE_PWT 0x008 /* with PCD: uncached, as MMIO must be (SDM Vol. 3A, 11.12.3) */
#define PTE_PCD 0x010
#define ENTRIES_PER_TABLE 1024
#define PDE_INDEX(va) ((va) / PAGE_TABLE_SPAN)
#define PTE_INDEX(va) (((va) / PAGE_SIZE) % ENTRIES_PER_TABLE)

volatile uint32_t *arch_lapic_map(uint32_t phys)
{
	uint32_t virt = phys & ~(uint32_t)(PAGE_SIZE - 1);
	if (virt < PHYS_WINDOW_END || virt >= FIXMAP_VIRT)
		panic("the local APIC at 0x%x is not in the kernel's MMIO hole", phys);
	uint32_t *table = frames_alloc(1, 1);
	if (!table)
		panic("no memory for the local APIC's page table");
	table[PTE_INDEX(virt)] = virt | PTE_PRESENT | PTE_WRITABLE | PTE_PCD | PTE_PWT;
	boot_page_dir[PDE_INDEX(virt)] =
		(uint32_t)direct_virt_to_phys(table) | PTE_PRESENT | PTE_WRITABLE;
	invlpg(virt);
	return (volatile uint32_t *)(uintptr_t)(virt + (phys - virt));
}

unsigned arch_trampoline_root_pages(void)
{
	return 0;
}

/* The low 4 MiB one to one, by the same page table the direct map starts with, while APs
 * start (the trampoline is below 1 MiB); no user space exists yet to copy it. */
uint32_t arch_trampoline_root(uint64_t scratch_phys)
{
	(void)scratch_phys;
	boot_page_dir[0] = boot_page_dir[PDE_INDEX_OF_OFFSET];
	write_cr3(read_cr3());
	return (uint32_t)kernel_tables_root();
}

void arch_trampoline_root_drop(void)
{
	boot_page_dir[0] = 0;
	write_cr3(read_cr3());
}

uint32_t arch_trampoline_efer(void)
{
	return 0;
}

void arch_ap_enter(void)
{
}
