/* The x86-64 half of kernel/smp/smp.h: the local APIC in the direct map, and the trampoline's
 * temporary root. */
#include "kernel/smp/smp.h"
#include "arch/x86/sysregs.h"
#include "kernel/cpu/cpu_tables.h"
#include "kernel/memory.h"
#include "kernel/mm/space.h"
#include "kernel/secrecy/oops.h"
#include "kernel/smp/trampoline.h"
#include "kernel/x86_64/paging.h"
#include "lib/errors.h"
#include "lib/string.h"

#define EFER_LME 0x100 /* long mode enable */
#define KERNEL_HALF_FIRST (PT_ENTRIES / 2)
#define TRAMPOLINE_ROOT_PAGES 3 /* PML4, PDPT, PD of the one-to-one first 2 MiB */
#define TABLE_FLAGS (PTE_PRESENT | PTE_WRITABLE)

static uintptr_t boot_cr4;

/* 2 MiB around the APIC in the direct map. pt_map maps write-back (PAT 0); the firmware's
 * MTRRs make the APIC range uncached whatever the page says (SDM Vol. 3A, 11.5.2.2). */
volatile uint32_t *arch_lapic_map(uint32_t phys)
{
	uint64_t big = phys & ~(PT_SIZE_2M - 1);
	int rc = pt_map(paging_kernel_space(), DIRECT_MAP + big, big, PT_SIZE_2M,
			PTE_WRITABLE | paging_nx());
	if (rc != KS_OK)
		panic("cannot map the local APIC at 0x%x: %s", phys, ks_strerror(rc));
	return phys_to_virt(phys);
}

unsigned arch_trampoline_root_pages(void)
{
	return TRAMPOLINE_ROOT_PAGES;
}

uint32_t arch_trampoline_root(uint64_t scratch_phys)
{
	uint64_t(*t)[PT_ENTRIES] = phys_to_virt(scratch_phys);
	memset(t, 0, TRAMPOLINE_ROOT_PAGES * PAGE_SIZE);
	const uint64_t *kernel = phys_to_virt(kernel_tables_root());
	for (unsigned i = KERNEL_HALF_FIRST; i < PT_ENTRIES; i++)
		t[0][i] = kernel[i];
	t[0][0] = (scratch_phys + PAGE_SIZE) | TABLE_FLAGS;
	t[1][0] = (scratch_phys + 2 * PAGE_SIZE) | TABLE_FLAGS;
	t[2][0] = 0 | TABLE_FLAGS | PTE_PS;
	boot_cr4 = read_cr4() & ~(uintptr_t)CR4_FROM_CPUID; /* cpu_load's to set */
	return (uint32_t)scratch_phys;
}

void arch_trampoline_root_drop(void)
{
}

uint32_t arch_trampoline_efer(void)
{
	return EFER_LME | ((uint32_t)rdmsr(MSR_EFER) & EFER_NXE);
}

void arch_ap_enter(void)
{
	write_cr3((uintptr_t)kernel_tables_root());
	write_cr4(boot_cr4);
}
