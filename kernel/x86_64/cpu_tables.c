/*
 * The x86-64 half of the descriptor tables (kernel/cpu/cpu_tables.c has the order of loading):
 * 64-bit code segments, 16-byte gates, the 64-bit TSS, and the GS bases the stubs swap.
 *
 * No IST stacks: every trap runs on rsp0 (the entry stack) from ring 3 or on the current stack
 * in ring 0, and a double fault in the kernel is a panic (or a triple fault) either way.
 */
#include "kernel/cpu/cpu_tables.h"
#include "arch/x86/sysregs.h"
#include "kernel/cpu/descriptor.h"

#define SEG_FLAGS_CODE64 0xa /* 4 KiB granularity, L: 64-bit code */
#define SEG_FLAGS_DATA 0xc   /* 4 KiB granularity, 32-bit (ignored in long mode) */

gate_t cpu_gate(uintptr_t handler, uint8_t type)
{
	uint64_t low = (handler & 0xffff) | ((uint64_t)KERNEL_CS << 16) | ((uint64_t)type << 40) |
		       ((uint64_t)((handler >> 16) & 0xffff) << 48);
	return (gate_t){ low, handler >> 32 };
}

uintptr_t cpu_gate_handler(gate_t gate)
{
	return (gate.low & 0xffff) | (((gate.low >> 48) & 0xffff) << 16) | (gate.high << 32);
}

uintptr_t cpu_tss_ring0_stack(const struct cpu_tables *t)
{
	uint64_t others = t->tss.rsp[1] | t->tss.rsp[2];
	for (unsigned i = 0; i < sizeof(t->tss.ist) / sizeof(t->tss.ist[0]); i++)
		others |= t->tss.ist[i];
	return others ? 0 : t->tss.rsp[0];
}

void cpu_tables_build_gdt_tss(uint64_t *gdt, cpu_tss_t *tss, uintptr_t tss_alias,
			      uintptr_t stack_top)
{
	gdt[KERNEL_CS / 8] = segment(0, SEG_LIMIT_4G, SEG_KERNEL_CODE, SEG_FLAGS_CODE64);
	gdt[KERNEL_DS / 8] = segment(0, SEG_LIMIT_4G, SEG_KERNEL_DATA, SEG_FLAGS_DATA);
	gdt[USER_DS / 8] = segment(0, SEG_LIMIT_4G, SEG_USER_DATA, SEG_FLAGS_DATA);
	gdt[USER_CS / 8] = segment(0, SEG_LIMIT_4G, SEG_USER_CODE, SEG_FLAGS_CODE64);
	/* The 16-byte system descriptor: the usual 8 bytes, then base bits 63..32. */
	gdt[TSS_SEL / 8] = segment((uint32_t)tss_alias, sizeof(struct tss64) - 1, SEG_TSS, 0);
	gdt[TSS_SEL / 8 + 1] = (uint64_t)tss_alias >> 32;

	tss->rsp[0] = stack_top;
	tss->iomap_base = sizeof(struct tss64); /* no I/O bitmap: no ports for ring 3 */
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

void cpu_tss_descriptor_clear(uint64_t *gdt)
{
	gdt[TSS_SEL / 8] = gdt[TSS_SEL / 8 + 1] = 0;
}

/* The kernel's GS base while the kernel runs; SWAPGS on the way to ring 3 parks it in
 * IA32_KERNEL_GS_BASE, where only RDMSR (ring 0) reads it, and gives ring 3 a base of 0. */
void cpu_entry_register_init(const struct entry_percpu *percpu)
{
	wrmsr(MSR_GS_BASE, (uintptr_t)percpu);
	wrmsr(MSR_KERNEL_GS_BASE, 0);
}

/* In the kernel GS holds the kernel's base (ring 3's is parked in IA32_KERNEL_GS_BASE). */
struct entry_percpu *cpu_entry_register_read(void)
{
	return (struct entry_percpu *)(uintptr_t)rdmsr(MSR_GS_BASE);
}
