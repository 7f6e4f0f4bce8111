/*
 * Building and loading the descriptor tables, on both arches, in the entry area's first page
 * (kernel/secrecy/entry_area.h). The order matters because the alias is read-only and the CPU
 * writes descriptors in two cases: the accessed bit of a segment it loads, and the busy bit of the
 * TSS it loads with LTR. So every segment descriptor is built with its accessed bit already set
 * (kernel/cpu/descriptor.h), LTR runs while GDTR still points at the writable original (the page's
 * direct-map address), and only then do GDTR and IDTR move to the alias for good.
 *
 * After LTR the CPU holds the TSS's base and limit in TR and never reads its descriptor again
 * (nothing switches tasks), so the descriptor is cleared: the GDT names no address at all.
 */
#include <stddef.h>

#include "arch/x86/arch_ops.h"
#include "arch/x86/sysregs.h"
#include "kernel/arch.h"
#include "kernel/cpu/cpu_tables.h"
#include "kernel/cpu/descriptor.h"
#include "kernel/cpu/trap.h"
#include "kernel/cpu/trap_vectors.h"
#include "kernel/cpu/user_access.h"
#include "kernel/mm/frames.h"
#include "kernel/secrecy/entry_area.h"
#include "kernel/secrecy/oops.h"
#include "lib/cpu.h"
#include "lib/errors.h"

_Static_assert(sizeof(struct cpu_tables) <= PAGE_SIZE, "descriptor tables exceed a page");

/* Each CPU's slice of the entry stack page: the boot CPU keeps the top one. */
#define ENTRY_STACK_SLICE (PAGE_SIZE / CPU_MAX)
_Static_assert(ENTRY_STACK_SLICE >= 8 * ENTRY_STACK_FRAME_BYTES, "entry stack slice too small");

/* kernel/<arch>/vectors.S reaches these by offset. */
_Static_assert(offsetof(struct entry_percpu, kernel_entry) == PERCPU_KERNEL_ENTRY, "percpu");
_Static_assert(offsetof(struct entry_percpu, kernel_stack_top) == PERCPU_KERNEL_STACK, "percpu");
_Static_assert(offsetof(struct entry_percpu, entry_stack_top) == PERCPU_ENTRY_STACK, "percpu");
_Static_assert(offsetof(struct entry_percpu, exit_stub) == PERCPU_EXIT_STUB, "percpu");
_Static_assert(offsetof(struct entry_percpu, user_entry_sp) == PERCPU_USER_ENTRY_SP, "percpu");
_Static_assert(offsetof(struct entry_percpu, kernel_saved_sp) == PERCPU_KERNEL_SAVED_SP,
	       "percpu");

struct cpu_tables *cpu_tables;
static uint8_t trap_stack[TRAP_STACK_BYTES] __attribute__((aligned(16)));
static uint8_t ap_trap_stack[CPU_AP_MAX][TRAP_STACK_BYTES] __attribute__((aligned(16)));
static struct entry_percpu ap_percpu[CPU_AP_MAX];
static bool umip_enabled;
bool user_access_smap;

/* kernel/<arch>/vectors.S: where the stubs lead, in the image. */
__attribute__((visibility("hidden"))) void kernel_entry(void);

uintptr_t trap_stack_top(void)
{
	return cpu_entry_register_read()->kernel_stack_top;
}

struct entry_percpu *cpu_entry_percpu(unsigned cpu)
{
	return cpu == 0 ? &entry_percpu : &ap_percpu[cpu - 1];
}

uintptr_t cpu_entry_stack_top(unsigned cpu)
{
	return entry_area_stack_top() - cpu * ENTRY_STACK_SLICE;
}

uintptr_t cpu_gdt_alias_of(unsigned cpu)
{
	return cpu == 0 ? cpu_gdt_alias() : cpu_ap_gdt_alias(cpu - 1);
}

static uintptr_t alias_of(const void *in_tables)
{
	return entry_area_base() + ENTRY_PAGE_TABLES * PAGE_SIZE +
	       (uintptr_t)((const uint8_t *)in_tables - (const uint8_t *)cpu_tables);
}

uintptr_t cpu_idt_alias(void)
{
	return alias_of(cpu_tables->idt);
}

uintptr_t cpu_gdt_alias(void)
{
	return alias_of(cpu_tables->gdt);
}

uintptr_t cpu_tss_alias(void)
{
	return alias_of(&cpu_tables->tss);
}

uintptr_t cpu_ap_gdt_alias(unsigned ap)
{
	return alias_of(cpu_tables->ap[ap].gdt);
}

static void build_idt(struct cpu_tables *t)
{
	for (unsigned v = 0; v < TRAP_VECTOR_COUNT; v++)
		t->idt[v] = cpu_gate(entry_area_vector(v), GATE_INTERRUPT);
	t->idt[T_SYSCALL] = cpu_gate(entry_area_syscall(), GATE_INTERRUPT_USER);
}

/*
 * What a CPU does to take the tables, once they are built: every way a CPU comes into the
 * kernel (the boot CPU's start and its wake from S3, kernel/acpi/suspend.c, and each application
 * processor's start, kernel/smp/smp.c) goes through here; true when it set CR4.UMIP, so none
 * keeps the reset LDT or the loader's (or the trampoline's) tables.
 */
static bool cpu_load(uint64_t *gdt_original, const struct entry_percpu *percpu)
{
	struct desc_ptr gdt = { .limit = sizeof(cpu_tables->gdt) - 1,
				.base = (uintptr_t)gdt_original };
	lgdt(&gdt);
	cpu_load_segments();
	ltr(TSS_SEL); /* marks the descriptor busy: a write, so before GDTR moves to the alias */
	cpu_tss_descriptor_clear(gdt_original);
	lldt(0); /* not the reset LDT (base 0): a TI=1 selector must name nothing */
	write_cr0(read_cr0() | CR0_WP);
	cpu_entry_register_init(percpu);
	gdt.base = alias_of(gdt_original);
	lgdt(&gdt);
	struct desc_ptr idt = { .limit = sizeof(cpu_tables->idt) - 1, .base = cpu_idt_alias() };
	lidt(&idt);

	struct cpu_features f;
	cpu_probe(&x86_arch_ops, &f);
	if (f.umip)
		write_cr4(read_cr4() | CR4_UMIP);
	/* Ring 0 never runs ring 3's code, and reads or writes ring 3's memory only between
	 * user_access_begin and user_access_end. */
	if (f.smep)
		write_cr4(read_cr4() | CR4_SMEP);
	if (f.smap) {
		write_cr4(read_cr4() | CR4_SMAP);
		user_access_smap = true;
	}
	return f.umip;
}

void cpu_ap_load(unsigned ap)
{
	struct cpu_gdt_tss *own = &cpu_tables->ap[ap];
	uintptr_t entry_stack_top = cpu_entry_stack_top(1 + ap);
	cpu_tables_build_gdt_tss(own->gdt, &own->tss, alias_of(&own->tss), entry_stack_top);
	ap_percpu[ap] = (struct entry_percpu){
		.kernel_entry = (uintptr_t)kernel_entry,
		.kernel_stack_top = (uintptr_t)(ap_trap_stack[ap] + TRAP_STACK_BYTES),
		.entry_stack_top = entry_stack_top,
		.exit_stub = entry_area_exit()
	};
	cpu_load(own->gdt, &ap_percpu[ap]);
}

/* The boot CPU's GDT and TSS, built (again), and taken. The TSS descriptor is written afresh
 * each time, as an available TSS: cpu_load cleared it after the last LTR, and LTR faults on a
 * descriptor marked busy. */
static void boot_cpu_load(void)
{
	cpu_tables_build_gdt_tss(cpu_tables->gdt, &cpu_tables->tss, cpu_tss_alias(),
				 entry_area_stack_top());
	umip_enabled = cpu_load(cpu_tables->gdt, &entry_percpu);
}

void arch_cpu_init(const struct kslide_bootinfo *bi, bool pti)
{
	if (frames_init(bi) != KS_OK)
		panic("no memory outside the image for the entry area and user spaces");
	entry_area_init(bi, pti);
	cpu_tables = entry_area_page(ENTRY_PAGE_TABLES);
	build_idt(cpu_tables);
	entry_percpu = (struct entry_percpu){ .kernel_entry = (uintptr_t)kernel_entry,
					      .kernel_stack_top =
						      (uintptr_t)(trap_stack + sizeof(trap_stack)),
					      .entry_stack_top = entry_area_stack_top(),
					      .exit_stub = entry_area_exit() };
	boot_cpu_load();
}

void cpu_boot_resume(void)
{
	boot_cpu_load();
}

bool arch_umip_enabled(void)
{
	return umip_enabled;
}

uintptr_t arch_idt_alias(void)
{
	return cpu_idt_alias();
}
