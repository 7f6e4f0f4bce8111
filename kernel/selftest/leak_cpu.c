/*
 * The CPU's half of selftest=leak, on both arches: the descriptor tables are in the entry
 * area, read-only, every gate leads to a stub there and the TSS to its stack, UMIP is on
 * exactly when the CPU has it, the LDT is null, and user page tables expose nothing of the
 * kernel to ring 3. Every check asks the hardware (SIDT, SGDT, STR, SLDT, a walk of the live
 * tables, a store that must fault, where a trap from ring 3 really lands), not the kernel's
 * bookkeeping.
 */
#include <stddef.h>

#include "arch/x86/arch_ops.h"
#include "arch/x86/sysregs.h"
#include "kernel/arch.h"
#include "kernel/cpu/cpu_tables.h"
#include "kernel/cpu/descriptor.h"
#include "kernel/cpu/trap.h"
#include "kernel/cpu/trap_vectors.h"
#include "kernel/memory.h"
#include "kernel/mm/space.h"
#include "kernel/mm/walk.h"
#include "kernel/proc/proc.h"
#include "kernel/secrecy/entry_area.h"
#include "kernel/selftest/selftest.h"
#include "kernel/smp/smp.h"
#include "kernel/user/leak.h"
#include "lib/cpu.h"
#include "lib/string.h"

static bool tables_in_entry_area(const struct kslide_bootinfo *bi)
{
	(void)bi;
	uintptr_t base = entry_area_base();
	if (base < ENTRY_WINDOW_START || base % PAGE_SIZE ||
	    base + ENTRY_AREA_PAGES * PAGE_SIZE > ENTRY_WINDOW_END)
		return check_fail("entry area in its window", base, ENTRY_WINDOW_START);
	struct desc_ptr idt, gdt;
	sidt(&idt);
	sgdt(&gdt);
	if (idt.base != cpu_idt_alias() || idt.limit != sizeof(cpu_tables->idt) - 1)
		return check_fail("IDTR base", idt.base, cpu_idt_alias());
	if (gdt.base != cpu_gdt_alias() || gdt.limit != sizeof(cpu_tables->gdt) - 1)
		return check_fail("GDTR base", gdt.base, cpu_gdt_alias());
	return memcmp((const void *)idt.base, cpu_tables, sizeof(*cpu_tables)) == 0;
}

/* Through the live tables, as the CPU walks them: each page leads to its frame, the tables
 * and the stubs are read-only, the stack writable, none of it open to ring 3. */
static bool entry_area_rights(const struct kslide_bootinfo *bi)
{
	(void)bi;
	for (unsigned n = 0; n < ENTRY_AREA_PAGES; n++) {
		uintptr_t va = entry_area_base() + n * PAGE_SIZE;
		uint64_t phys = walk_virt_to_phys(va, DIRECT_MAP), want = entry_area_frame(n);
		if (phys != want)
			return check_fail("entry area frame", phys, want);
		/* NX is selftest=wx's to judge (kernel/selftest/wx.c). */
		uint64_t rights = walk_rights(va, DIRECT_MAP) & ~(uint64_t)WALK_NX;
		uint64_t want_rights = WALK_PRESENT | (n == ENTRY_PAGE_STACK ? WALK_WRITABLE : 0);
		if (rights != want_rights)
			return check_fail("entry area rights", rights, want_rights);
	}
	if (!(read_cr0() & CR0_WP))
		return check_fail("CR0.WP", read_cr0(), CR0_WP);
	return true;
}

/* The CPU itself refuses: a ring-0 store to each alias faults, while the same store to the
 * writable original succeeds (so the probe can tell the two apart). */
static bool alias_refuses_writes(const struct kslide_bootinfo *bi)
{
	(void)bi;
	const uintptr_t aliases[] = { cpu_idt_alias(), cpu_gdt_alias(), cpu_tss_alias(),
				      entry_area_vector(0) };
	for (size_t i = 0; i < sizeof(aliases) / sizeof(aliases[0]); i++) {
		uint32_t same = *(const volatile uint32_t *)aliases[i];
		if (try_write32(aliases[i], same))
			return check_fail("store to a read-only alias faults", aliases[i], 0);
	}
	uint32_t *original = (uint32_t *)cpu_tables->idt;
	if (!try_write32((uintptr_t)original, *original))
		return check_fail("store to the writable original succeeds", 0, 1);
	return true;
}

static bool in_code_page(uintptr_t va)
{
	uintptr_t code = entry_area_base() + ENTRY_PAGE_CODE * PAGE_SIZE;
	return va >= code && va < code + PAGE_SIZE;
}

/* Every gate in use leads to a stub in the entry area, and the stubs are what was installed. */
static bool gates_lead_to_entry_stubs(const struct kslide_bootinfo *bi)
{
	(void)bi;
	for (unsigned v = 0; v <= T_SYSCALL; v++) {
		if (v >= TRAP_VECTOR_COUNT && v != T_SYSCALL)
			continue;
		uintptr_t handler = cpu_gate_handler(cpu_tables->idt[v]);
		if (!in_code_page(handler))
			return check_fail("gate leads to the entry stubs", handler,
					  entry_area_base() + ENTRY_PAGE_CODE * PAGE_SIZE);
	}
	return entry_area_code_intact() || check_fail("entry stubs as installed", 0, 1);
}

/* TR holds the TSS (its descriptor is gone from the GDT), its only stack is the entry
 * stack, and a trap from ring 3 really arrives there: on the slice of the CPU processes run
 * on (ring3_cpu=, kernel/selftest/selftest.c), and on no other CPU's. */
static bool tss_names_entry_stack(const struct kslide_bootinfo *bi)
{
	(void)bi;
	if (str() != TSS_SEL)
		return check_fail("TR", str(), TSS_SEL);
	if (cpu_tables->gdt[TSS_SEL / 8] != 0)
		return check_fail("TSS descriptor cleared after LTR", cpu_tables->gdt[TSS_SEL / 8], 0);
	if (cpu_tss_ring0_stack(cpu_tables) != entry_area_stack_top())
		return check_fail("TSS ring-0 stack", cpu_tss_ring0_stack(cpu_tables),
				  entry_area_stack_top());
	unsigned pinned = proc_pinned_cpu(), cpus = 1 + smp_state()->aps_wanted;
	for (unsigned cpu = 0; cpu < cpus; cpu++)
		cpu_entry_percpu(cpu)->user_entry_sp = 0;
	if (proc_run(&user_program_leak, 0, LEAK_NOP, 0) != 0)
		return check_fail("a process ran", 0, 1);
	for (unsigned cpu = 0; cpu < cpus; cpu++) {
		uintptr_t got = cpu_entry_percpu(cpu)->user_entry_sp;
		uintptr_t want =
			cpu == pinned ? cpu_entry_stack_top(cpu) - ENTRY_STACK_FRAME_BYTES : 0;
		if (got != want && cpu == pinned)
			return check_fail("a trap from ring 3 lands on the entry stack", got, want);
		if (got != want)
			return check_fail("no trap from ring 3 lands on another CPU's", got, want);
	}
	return true;
}

static bool ldt_null(const struct kslide_bootinfo *bi)
{
	(void)bi;
	return sldt() == 0 || check_fail("LDTR", sldt(), 0);
}

static bool umip_when_available(const struct kslide_bootinfo *bi)
{
	(void)bi;
	struct cpu_features f;
	cpu_probe(&x86_arch_ops, &f);
	bool on = f.umip && (read_cr4() & CR4_UMIP);
	if (on != f.umip || on != arch_umip_enabled())
		return check_fail("CR4.UMIP", on, f.umip);
	return true;
}

static bool user_tables_hide_kernel(const struct kslide_bootinfo *bi)
{
	(void)bi;
	const struct user_program *p = &user_program_leak;
	struct arch_space *s = arch_space_create(p->start, (size_t)(p->end - p->start));
	if (!s)
		return check_fail("space created", 0, 1);
	bool ok = space_user_mappings_ok(s);
	arch_space_destroy(s);
	return ok;
}

const struct selftest_case leak_cpu_cases[] = {
	{ "IDT and GDT in the entry area", tables_in_entry_area },
	{ "entry area read-only but its stack, CR0.WP set", entry_area_rights },
	{ "stores to the aliases fault", alias_refuses_writes },
	{ "gates lead to the entry stubs", gates_lead_to_entry_stubs },
	{ "TSS names the entry stack only", tss_names_entry_stack },
	{ "LDTR null", ldt_null },
	{ "UMIP on exactly when the CPU has it", umip_when_available },
	{ "user page tables expose no kernel page", user_tables_hide_kernel },
};
const unsigned leak_cpu_case_count = sizeof(leak_cpu_cases) / sizeof(leak_cpu_cases[0]);
