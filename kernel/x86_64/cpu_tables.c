/*
 * The x86-64 half of the descriptor tables (kernel/cpu_tables.c has the order of loading):
 * 64-bit code segments, 16-byte gates, the 64-bit TSS, and the alias mapped into the kernel's
 * live tables.
 *
 * No IST stacks: every trap runs on rsp0 from ring 3 or on the current stack in ring 0, and a
 * double fault in the kernel is a panic (or a triple fault) either way.
 */
#include "arch/x86/sysregs.h"
#include "kernel/cpu_tables.h"
#include "kernel/descriptor.h"
#include "kernel/oops.h"
#include "kernel/x86_64/paging.h"
#include "lib/errors.h"

#define SEG_FLAGS_CODE64 0xa /* 4 KiB granularity, L: 64-bit code */
#define SEG_FLAGS_DATA 0xc   /* 4 KiB granularity, 32-bit (ignored in long mode) */

gate_t cpu_gate(uintptr_t handler, uint8_t type)
{
	uint64_t low = (handler & 0xffff) | ((uint64_t)KERNEL_CS << 16) | ((uint64_t)type << 40) |
		       ((uint64_t)((handler >> 16) & 0xffff) << 48);
	return (gate_t){ low, handler >> 32 };
}

void cpu_tables_build_gdt_tss(struct cpu_tables *t)
{
	t->gdt[KERNEL_CS / 8] = segment(0, SEG_LIMIT_4G, SEG_KERNEL_CODE, SEG_FLAGS_CODE64);
	t->gdt[KERNEL_DS / 8] = segment(0, SEG_LIMIT_4G, SEG_KERNEL_DATA, SEG_FLAGS_DATA);
	t->gdt[USER_DS / 8] = segment(0, SEG_LIMIT_4G, SEG_USER_DATA, SEG_FLAGS_DATA);
	t->gdt[USER_CS / 8] = segment(0, SEG_LIMIT_4G, SEG_USER_CODE, SEG_FLAGS_CODE64);
	/* The 16-byte system descriptor: the usual 8 bytes, then base bits 63..32. */
	uint64_t tss = TSS_ALIAS;
	t->gdt[TSS_SEL / 8] = segment((uint32_t)tss, sizeof(struct tss64) - 1, SEG_TSS, 0);
	t->gdt[TSS_SEL / 8 + 1] = tss >> 32;

	t->tss.rsp[0] = trap_stack_top();
	t->tss.iomap_base = sizeof(struct tss64); /* no I/O bitmap: no ports for ring 3 */
}

/* CS by a far return (long mode has no far jump to an immediate), then the data segments. */
void cpu_load_segments(void)
{
	__asm__ volatile("pushq %0\n\t"
			 "leaq 1f(%%rip), %%rax\n\t"
			 "pushq %%rax\n\t"
			 "lretq\n"
			 "1:\n\t"
			 "movw %w1, %%ds\n\tmovw %w1, %%es\n\tmovw %w1, %%ss\n\t"
			 "movw %w1, %%fs\n\tmovw %w1, %%gs"
			 :
			 : "i"(KERNEL_CS), "r"(KERNEL_DS)
			 : "rax", "memory");
}

void cpu_tables_map_alias(uint64_t tables_phys)
{
	/* Read-only and supervisor: pt_map's flags without PTE_WRITABLE. */
	int rc = pt_map(paging_kernel_space(), FIXMAP_VIRT, tables_phys, PAGE_SIZE, 0);
	if (rc != KS_OK)
		panic("cannot map the descriptor-table alias: %s", ks_strerror(rc));
	invlpg(FIXMAP_VIRT);
}

uintptr_t tss_descriptor_base(const struct cpu_tables *t)
{
	return segment_base(t->gdt[TSS_SEL / 8]) | (t->gdt[TSS_SEL / 8 + 1] << 32);
}
