/*
 * The CPU's half of selftest=leak, on both arches: the descriptor tables are where the aliases
 * say, read-only, UMIP is on exactly when the CPU has it, and user page tables expose nothing
 * of the kernel. Every check asks the hardware (SIDT, SGDT, STR, a walk of the live tables, a
 * store that must fault), not the kernel's bookkeeping.
 */
#include <stddef.h>

#include "arch/x86/arch_ops.h"
#include "arch/x86/sysregs.h"
#include "kernel/arch.h"
#include "kernel/cpu_tables.h"
#include "kernel/descriptor.h"
#include "kernel/memory.h"
#include "kernel/proc.h"
#include "kernel/selftest.h"
#include "kernel/space.h"
#include "kernel/trap.h"
#include "kernel/walk.h"
#include "lib/cpu.h"

int memcmp(const void *a, const void *b, size_t n);

static bool tables_at_fixed_aliases(const struct kslide_bootinfo *bi)
{
	(void)bi;
	struct desc_ptr idt, gdt;
	sidt(&idt);
	sgdt(&gdt);
	if (idt.base != IDT_ALIAS || idt.limit != sizeof(cpu_tables->idt) - 1)
		return check_fail("IDTR base", idt.base, IDT_ALIAS);
	if (gdt.base != GDT_ALIAS || gdt.limit != sizeof(cpu_tables->gdt) - 1)
		return check_fail("GDTR base", gdt.base, GDT_ALIAS);
	return memcmp((const void *)IDT_ALIAS, cpu_tables, sizeof(*cpu_tables)) == 0;
}

/* Through the live tables, as the CPU walks them: the alias leads to the tables' page, no
 * level grants a write or ring 3. */
static bool alias_read_only(const struct kslide_bootinfo *bi)
{
	(void)bi;
	uint64_t phys = walk_virt_to_phys(FIXMAP_VIRT, DIRECT_MAP);
	uint64_t want = kernel_virt_to_phys(cpu_tables);
	if (phys != want)
		return check_fail("alias frame", phys, want);
	uint64_t rights = walk_rights(FIXMAP_VIRT, DIRECT_MAP);
	if (rights != WALK_PRESENT)
		return check_fail("alias rights (present only)", rights, WALK_PRESENT);
	if (!(read_cr0() & CR0_WP))
		return check_fail("CR0.WP", read_cr0(), CR0_WP);
	return true;
}

/* The CPU itself refuses: a ring-0 store to each alias faults, while the same store to the
 * writable original succeeds (so the probe can tell the two apart). */
static bool alias_refuses_writes(const struct kslide_bootinfo *bi)
{
	(void)bi;
	static const uintptr_t aliases[] = { IDT_ALIAS, GDT_ALIAS, TSS_ALIAS };
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

static bool tss_behind_alias(const struct kslide_bootinfo *bi)
{
	(void)bi;
	if (str() != TSS_SEL)
		return check_fail("TR", str(), TSS_SEL);
	uintptr_t base = tss_descriptor_base(cpu_tables);
	if (base != TSS_ALIAS)
		return check_fail("TSS base", base, TSS_ALIAS);
	uint8_t type = segment_access(cpu_tables->gdt[TSS_SEL / 8]);
	if (type != SEG_TSS_BUSY)
		return check_fail("TSS descriptor type", type, SEG_TSS_BUSY);
	return true;
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
	{ "IDT and GDT at fixed aliases", tables_at_fixed_aliases },
	{ "alias read-only, CR0.WP set", alias_read_only },
	{ "stores to the aliases fault", alias_refuses_writes },
	{ "TSS behind the alias", tss_behind_alias },
	{ "UMIP on exactly when the CPU has it", umip_when_available },
	{ "user page tables expose no kernel page", user_tables_hide_kernel },
};
const unsigned leak_cpu_case_count = sizeof(leak_cpu_cases) / sizeof(leak_cpu_cases[0]);
