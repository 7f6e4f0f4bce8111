/* The i386 half of the descriptor tables (kernel/cpu/cpu_tables.c has the order of loading):
 * flat 32-bit segments, 32-bit gates and TSS, and DR0, through which the stubs jump. */
#include "kernel/cpu/cpu_tables.h"
#include "kernel/cpu/descriptor.h"

gate_t cpu_gate(uintptr_t handler, uint8_t type)
{
	return (handler & 0xffff) | ((uint64_t)KERNEL_CS << 16) | ((uint64_t)type << 40) |
	       ((uint64_t)(handler >> 16) << 48);
}

uintptr_t cpu_gate_handler(gate_t gate)
{
	return (uintptr_t)((gate & 0xffff) | ((gate >> 48) << 16));
}

uintptr_t cpu_tss_ring0_stack(const struct cpu_tables *t)
{
	return t->tss.esp1 || t->tss.esp2 ? 0 : t->tss.esp0;
}

void cpu_tables_build_gdt_tss(uint64_t *gdt, cpu_tss_t *tss, uintptr_t tss_alias,
			      uintptr_t stack_top)
{
	gdt[KERNEL_CS / 8] = segment(0, SEG_LIMIT_4G, SEG_KERNEL_CODE, SEG_FLAGS_FLAT);
	gdt[KERNEL_DS / 8] = segment(0, SEG_LIMIT_4G, SEG_KERNEL_DATA, SEG_FLAGS_FLAT);
	gdt[USER_CS / 8] = segment(0, SEG_LIMIT_4G, SEG_USER_CODE, SEG_FLAGS_FLAT);
	gdt[USER_DS / 8] = segment(0, SEG_LIMIT_4G, SEG_USER_DATA, SEG_FLAGS_FLAT);
	gdt[TSS_SEL / 8] = segment(tss_alias, sizeof(struct tss32) - 1, SEG_TSS, 0);

	tss->esp0 = stack_top;
	tss->ss0 = KERNEL_DS;
	tss->iomap_base = sizeof(struct tss32); /* no I/O bitmap: no ports for ring 3 */
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

void cpu_tss_descriptor_clear(uint64_t *gdt)
{
	gdt[TSS_SEL / 8] = 0;
}

/*
 * i386 has no SWAPGS and no register ring 3 cannot read but DR0..DR7 (MOV from a debug
 * register faults outside ring 0). With every breakpoint off in DR7, DR0 is a plain
 * register: it holds the CPU's entry_percpu, which the stubs jump through and the kernel's
 * side of a trap finds its stacks in. i386 has no MSR on every CPU this kernel runs on (486,
 * Pentium) that would do.
 */
void cpu_entry_register_init(const struct entry_percpu *percpu)
{
	__asm__ volatile("movl %0, %%dr7" : : "r"((uint32_t)DR7_RESET));
	__asm__ volatile("movl %0, %%dr0" : : "r"(percpu));
}

struct entry_percpu *cpu_entry_register_read(void)
{
	struct entry_percpu *percpu;
	__asm__ volatile("movl %%dr0, %0" : "=r"(percpu));
	return percpu;
}
