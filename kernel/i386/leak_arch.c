/* The i386 half of selftest=leak: the descriptor tables are where the aliases say, read-only,
 * UMIP is on exactly when the CPU has it, and user page tables expose nothing of the kernel. */
#include <stddef.h>

#include "arch/x86/arch_ops.h"
#include "arch/x86/sysregs.h"
#include "kernel/arch.h"
#include "kernel/i386/cpu_tables.h"
#include "kernel/i386/layout.h"
#include "kernel/i386/space.h"
#include "kernel/i386/trap.h"
#include "kernel/proc.h"
#include "lib/cpu.h"

int memcmp(const void *a, const void *b, size_t n);

#define SEG_TSS_BUSY 0x8b
#define PAGE_MASK (~(uint32_t)(PAGE_SIZE - 1))

static bool tables_at_fixed_aliases(const struct kslide_bootinfo *bi)
{
	(void)bi;
	struct desc_ptr idt, gdt;
	sidt(&idt);
	sgdt(&gdt);
	if (idt.base != IDT_ALIAS || idt.limit != IDT_ENTRIES * 8 - 1)
		return check_fail("IDTR base", idt.base, IDT_ALIAS);
	if (gdt.base != GDT_ALIAS || gdt.limit != GDT_ENTRIES * 8 - 1)
		return check_fail("GDTR base", gdt.base, GDT_ALIAS);
	return memcmp((const void *)IDT_ALIAS, cpu_tables, sizeof(*cpu_tables)) == 0;
}

static bool alias_read_only(const struct kslide_bootinfo *bi)
{
	(void)bi;
	uint32_t pte = fixmap_page_table[0];
	uint32_t want = ((uint32_t)(uintptr_t)cpu_tables - KERNEL_VIRT_OFFSET) | PTE_PRESENT;
	if ((pte & (PAGE_MASK | PTE_PRESENT | PTE_WRITABLE | PTE_USER)) != want)
		return check_fail("fixmap PTE", pte, want);
	if (boot_page_dir[PDE_INDEX_OF_FIXMAP] & PTE_USER)
		return check_fail("fixmap PDE user bit", boot_page_dir[PDE_INDEX_OF_FIXMAP], 0);
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
	uint64_t d = cpu_tables->gdt[TSS_SEL / 8];
	uint32_t base = (uint32_t)((d >> 16) & 0xffffff) | (uint32_t)((d >> 56) << 24);
	if (base != TSS_ALIAS)
		return check_fail("TSS base", base, TSS_ALIAS);
	if (((d >> 40) & 0xff) != SEG_TSS_BUSY)
		return check_fail("TSS descriptor type", (d >> 40) & 0xff, SEG_TSS_BUSY);
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

const struct selftest_case arch_leak_cases[] = {
	{ "IDT and GDT at fixed aliases", tables_at_fixed_aliases },
	{ "alias read-only, CR0.WP set", alias_read_only },
	{ "stores to the aliases fault", alias_refuses_writes },
	{ "TSS behind the alias", tss_behind_alias },
	{ "UMIP on exactly when the CPU has it", umip_when_available },
	{ "user page tables expose no kernel page", user_tables_hide_kernel },
};
const unsigned arch_leak_case_count = sizeof(arch_leak_cases) / sizeof(arch_leak_cases[0]);
