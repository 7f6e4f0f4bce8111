/* The i386 half of the descriptor tables (kernel/cpu_tables.c has the order of loading):
 * flat 32-bit segments, 32-bit gates and TSS, and the fixmap page table behind the alias. */
#include "arch/x86/sysregs.h"
#include "kernel/cpu_tables.h"
#include "kernel/descriptor.h"
#include "kernel/memory.h"

#define SEG_FLAGS_FLAT 0xc /* 4 KiB granularity, 32-bit */

/* Behind the fixmap's page-directory entry. */
static uint32_t fixmap_page_table[PAGE_SIZE / 4] __attribute__((aligned(PAGE_SIZE)));

gate_t cpu_gate(uintptr_t handler, uint8_t type)
{
	return (handler & 0xffff) | ((uint64_t)KERNEL_CS << 16) | ((uint64_t)type << 40) |
	       ((uint64_t)(handler >> 16) << 48);
}

void cpu_tables_build_gdt_tss(struct cpu_tables *t)
{
	t->gdt[KERNEL_CS / 8] = segment(0, SEG_LIMIT_4G, SEG_KERNEL_CODE, SEG_FLAGS_FLAT);
	t->gdt[KERNEL_DS / 8] = segment(0, SEG_LIMIT_4G, SEG_KERNEL_DATA, SEG_FLAGS_FLAT);
	t->gdt[USER_CS / 8] = segment(0, SEG_LIMIT_4G, SEG_USER_CODE, SEG_FLAGS_FLAT);
	t->gdt[USER_DS / 8] = segment(0, SEG_LIMIT_4G, SEG_USER_DATA, SEG_FLAGS_FLAT);
	t->gdt[TSS_SEL / 8] = segment(TSS_ALIAS, sizeof(struct tss32) - 1, SEG_TSS, 0);

	t->tss.esp0 = (uint32_t)trap_stack_top();
	t->tss.ss0 = KERNEL_DS;
	t->tss.iomap_base = sizeof(struct tss32); /* no I/O bitmap: no ports for ring 3 */
}

void cpu_load_segments(void)
{
	__asm__ volatile("ljmp %0, $1f\n1:\n\t"
			 "movw %w1, %%ds\n\tmovw %w1, %%es\n\tmovw %w1, %%fs\n\t"
			 "movw %w1, %%gs\n\tmovw %w1, %%ss"
			 :
			 : "i"(KERNEL_CS), "r"(KERNEL_DS)
			 : "memory");
}

void cpu_tables_map_alias(uint64_t tables_phys)
{
	boot_page_dir[PDE_INDEX_OF_FIXMAP] =
		(uint32_t)kernel_virt_to_phys(fixmap_page_table) | PTE_PRESENT | PTE_WRITABLE;
	fixmap_page_table[0] = (uint32_t)tables_phys | PTE_PRESENT; /* read-only */
	invlpg(FIXMAP_VIRT);
}

uintptr_t tss_descriptor_base(const struct cpu_tables *t)
{
	return segment_base(t->gdt[TSS_SEL / 8]);
}
