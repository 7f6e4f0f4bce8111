/*
 * Building and loading the descriptor tables, on both arches. The order matters because the
 * alias is read-only and the CPU writes descriptors in two cases: the accessed bit of a segment
 * it loads, and the busy bit of the TSS it loads with LTR. So every segment descriptor is built
 * with its accessed bit already set (kernel/descriptor.h), LTR runs while GDTR still points at
 * the writable copy, and only then do GDTR and IDTR move to the alias for good.
 */
#include <stddef.h>

#include "arch/x86/arch_ops.h"
#include "arch/x86/sysregs.h"
#include "kernel/arch.h"
#include "kernel/cpu_tables.h"
#include "kernel/descriptor.h"
#include "kernel/memory.h"
#include "kernel/trap.h"
#include "lib/cpu.h"

#define TRAP_VECTORS 32 /* the exceptions, 0..31; kernel/<arch>/vectors.S has one stub each */

union cpu_tables_page {
	struct cpu_tables t;
	uint8_t page[PAGE_SIZE];
};
_Static_assert(sizeof(struct cpu_tables) <= PAGE_SIZE, "descriptor tables exceed a page");
_Static_assert(offsetof(struct cpu_tables, gdt) == GDT_ALIAS - IDT_ALIAS, "GDT alias");
_Static_assert(offsetof(struct cpu_tables, tss) == TSS_ALIAS - IDT_ALIAS, "TSS alias");

/* Alone in its page: the alias must show nothing but the tables. */
static union cpu_tables_page tables_page __attribute__((aligned(PAGE_SIZE)));
struct cpu_tables *const cpu_tables = &tables_page.t;
static uint8_t trap_stack[TRAP_STACK_BYTES] __attribute__((aligned(16)));
static bool umip_enabled;

/* The entry stubs of kernel/<arch>/vectors.S: trap_vector_table[i] handles vector i,
 * syscall_vector the system call. */
extern const uintptr_t trap_vector_table[TRAP_VECTORS];
void syscall_vector(void);

uintptr_t trap_stack_top(void)
{
	return (uintptr_t)(trap_stack + sizeof(trap_stack));
}

static void build_idt(struct cpu_tables *t)
{
	for (unsigned v = 0; v < TRAP_VECTORS; v++)
		t->idt[v] = cpu_gate(trap_vector_table[v], GATE_INTERRUPT);
	t->idt[T_SYSCALL] = cpu_gate((uintptr_t)syscall_vector, GATE_INTERRUPT_USER);
}

void arch_cpu_init(void)
{
	build_idt(cpu_tables);
	cpu_tables_build_gdt_tss(cpu_tables);
	struct desc_ptr gdt = { .limit = sizeof(cpu_tables->gdt) - 1,
				.base = (uintptr_t)cpu_tables->gdt };
	lgdt(&gdt);
	cpu_load_segments();
	ltr(TSS_SEL); /* marks the descriptor busy: a write, so before GDTR moves to the alias */

	cpu_tables_map_alias(kernel_virt_to_phys(&tables_page));
	write_cr0(read_cr0() | CR0_WP);
	gdt.base = GDT_ALIAS;
	lgdt(&gdt);
	struct desc_ptr idt = { .limit = sizeof(cpu_tables->idt) - 1, .base = IDT_ALIAS };
	lidt(&idt);

	struct cpu_features f;
	cpu_probe(&x86_arch_ops, &f);
	if (f.umip) {
		write_cr4(read_cr4() | CR4_UMIP);
		umip_enabled = true;
	}
}

bool arch_umip_enabled(void)
{
	return umip_enabled;
}

uintptr_t arch_idt_alias(void)
{
	return IDT_ALIAS;
}
