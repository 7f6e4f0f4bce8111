/*
 * selftest=suspend: SUSPEND_CYCLES suspend-to-RAM cycles (kernel/acpi/suspend.h), the wake-up
 * coming from outside (tests/boot/suspend-cases.sh: QEMU's system_wakeup, over QMP, each time
 * QEMU reports the guest suspended). After every wake the machine must be as the boot left
 * it, as the hardware shows it: the boot CPU's SIDT, SGDT, STR and SLDT the aliases, every
 * check of selftest=leak's CPU half (kernel/selftest/leak_cpu.c) holding, ring 3's SIDT, SGDT, SLDT
 * and STR ending as before (#GP under UMIP), ring 3's whole unprivileged view the same on
 * every CPU as on the boot CPU before the first sleep, the control registers and MSRs the kernel
 * set as they were, every AP that was online started again and on its aliases, the kernel at the
 * same addresses, the %p hash unchanged (the key is kept: docs/security.md), and nothing
 * left below 1 MiB or in the FACS waking vector.
 */
#include <stddef.h>

#include "arch/x86/arch_ops.h"
#include "arch/x86/sysregs.h"
#include "kernel/acpi/suspend.h"
#include "kernel/arch.h"
#include "kernel/console.h"
#include "kernel/cpu/cpu_tables.h"
#include "kernel/memory.h"
#include "kernel/mm/walk.h"
#include "kernel/proc/proc.h"
#include "kernel/secrecy/kptr.h"
#include "kernel/selftest/selftest.h"
#include "kernel/selftest/smp_view.h"
#include "kernel/smp/smp.h"
#include "kernel/smp/trampoline.h"
#include "kernel/user/leak.h"
#include "lib/cpu.h"
#include "lib/string.h"

#define SUSPEND_CYCLES 3
#define RING3_INSNS (INSN_STR + 1) /* SIDT, SGDT, SLDT, STR */
#define MSR_PAT 0x277

uintptr_t start_runtime(void);
void kernel_main(uint32_t magic, uintptr_t boot_info_phys);

/* Everything a cycle must leave as it found it. */
struct machine_view {
	struct desc_ptr idt, gdt;
	uint16_t tr, ldt;
	uintptr_t cr0, cr3, cr4;
	uint64_t efer, pat; /* x86-64 */
	uintptr_t start_virt;
	uint64_t start_phys; /* through the live page tables */
	uintptr_t hash;      /* %p of kernel_main */
	int ring3_status[RING3_INSNS];
};

static struct machine_view at_boot;
static unsigned cycles_done;
static uint64_t trampolines[SUSPEND_CYCLES];

static void look(struct machine_view *v)
{
	*v = (struct machine_view){ 0 };
	sidt(&v->idt);
	sgdt(&v->gdt);
	v->tr = str();
	v->ldt = sldt();
	v->cr0 = read_cr0();
	v->cr3 = read_cr3();
#ifdef __x86_64__
	v->cr4 = read_cr4();
	v->efer = rdmsr(MSR_EFER);
	v->pat = rdmsr(MSR_PAT);
#else
	struct cpu_features f;
	cpu_probe(&x86_arch_ops, &f);
	if (f.umip) /* else CR4 holds nothing of the kernel's, and a 486 has none */
		v->cr4 = read_cr4();
#endif
	v->start_virt = start_runtime();
	v->start_phys = walk_virt_to_phys(v->start_virt, DIRECT_MAP);
	v->hash = kptr_hash((uintptr_t)kernel_main);
	for (unsigned i = 0; i < RING3_INSNS; i++)
		v->ring3_status[i] = proc_run(&user_program_leak, 0, LEAK_INSN, i);
}

static bool same(const char *what, unsigned long long got, unsigned long long want)
{
	return got == want || check_fail(what, got, want);
}

static bool view_unchanged(const struct machine_view *now, const struct machine_view *then)
{
	bool ok = same("SIDT base", now->idt.base, then->idt.base) &
		  same("SIDT limit", now->idt.limit, then->idt.limit) &
		  same("SGDT base", now->gdt.base, then->gdt.base) &
		  same("SGDT limit", now->gdt.limit, then->gdt.limit) &
		  same("STR", now->tr, then->tr) & same("SLDT", now->ldt, then->ldt) &
		  same("CR0", now->cr0, then->cr0) & same("CR3", now->cr3, then->cr3) &
		  same("CR4", now->cr4, then->cr4) & same("EFER", now->efer, then->efer) &
		  same("PAT", now->pat, then->pat) &
		  same("_start, virtual", now->start_virt, then->start_virt) &
		  same("_start, physical", now->start_phys, then->start_phys) &
		  same("%p of kernel_main", now->hash, then->hash);
	for (unsigned i = 0; i < RING3_INSNS; i++)
		ok &= same("ring 3 descriptor instruction's exit", (unsigned)now->ring3_status[i],
			   (unsigned)then->ring3_status[i]);
	return ok;
}

/* The boot's view, judged once against the aliases: what every cycle is compared with. */
static bool boot_view_on_the_aliases(void)
{
	look(&at_boot);
	int want = arch_umip_enabled() ? PROC_KILLED + FAULT_PROTECTION : 0;
	bool ok = same("SIDT at boot", at_boot.idt.base, cpu_idt_alias()) &
		  same("SGDT at boot", at_boot.gdt.base, cpu_gdt_alias()) &
		  same("STR at boot", at_boot.tr, TSS_SEL) & same("SLDT at boot", at_boot.ldt, 0);
	for (unsigned i = 0; i < RING3_INSNS; i++)
		ok &= same("ring 3 descriptor instruction at boot", (unsigned)at_boot.ring3_status[i],
			   (unsigned)want);
	/* The whole unprivileged set as the boot CPU runs it now: every CPU's after each wake
	 * must be the same (kernel/selftest/smp_view.c). */
	return smp_view_reference() & ok;
}

static bool acpi_offers_s3(const struct kslide_bootinfo *bi)
{
	(void)bi;
	struct acpi_sleep s;
	const char *why = acpi_sleep_find(&s);
	if (why) {
		kprintf("# %s\n", why);
		return false;
	}
	kprintf("# fadt 0x%llx facs 0x%llx dsdt 0x%llx pm1a_cnt 0x%x pm1b_cnt 0x%x "
		"SLP_TYPa %u SLP_TYPb %u\n",
		(unsigned long long)s.fadt, (unsigned long long)s.facs, (unsigned long long)s.dsdt,
		s.pm1a_cnt, s.pm1b_cnt, s.slp_typ_a, s.slp_typ_b);
	return boot_view_on_the_aliases();
}

static bool aps_back_on_their_aliases(const struct suspend_cycle *c)
{
	const struct smp_state *s = smp_state();
	bool ok = same("APs online again", c->aps_back, c->aps_offline) &
		  same("APs taken offline (all started at boot)", c->aps_offline, s->aps_started);
	for (unsigned ap = 0; ap < s->aps_wanted; ap++)
		if (s->ap[ap].started)
			ok &= ap_on_the_aliases(ap);
	return ok;
}

/* Ring 3's whole unprivileged view on every CPU that is online, as the boot CPU saw it
 * before the first sleep: an AP restarted from a table of its own would show it here. */
static bool ring3_view_as_at_boot(void)
{
	const struct smp_state *s = smp_state();
	bool ok = smp_view_same_on(0);
	for (unsigned ap = 0; ap < s->aps_wanted; ap++)
		if (s->ap[ap].started)
			ok &= smp_view_same_on(1 + ap);
	return ok;
}

static bool leak_cpu_checks_hold(const struct kslide_bootinfo *bi)
{
	bool ok = true;
	for (unsigned i = 0; i < leak_cpu_case_count; i++)
		if (!leak_cpu_cases[i].run(bi)) {
			kprintf("# leak check failed after the wake: %s\n", leak_cpu_cases[i].name);
			ok = false;
		}
	return ok;
}

static bool one_cycle(const struct kslide_bootinfo *bi)
{
	unsigned n = ++cycles_done;
	struct suspend_cycle c;
	kprintf("suspend: cycle %u: sleeping\n", n);
	const char *why = suspend_to_ram(bi, &c);
	if (why) {
		kprintf("# %s\n", why);
		return false;
	}
	kprintf("suspend: cycle %u: woke, %u of %u APs back (%u starts again), %u PCI registers "
		"of %u functions restored\n",
		n, c.aps_back, c.aps_offline, c.ap_restarts, c.pci_restored, c.pci_functions);
	trampolines[n - 1] = c.trampoline_phys;
	struct machine_view now;
	look(&now);
	return same("WAK_STS on waking", c.woke_by_acpi, 1) &
	       same("FACS hardware signature", c.signature_after, c.signature_before) &
	       view_unchanged(&now, &at_boot) & leak_cpu_checks_hold(bi) &
	       aps_back_on_their_aliases(&c) & ring3_view_as_at_boot() &
	       same("FACS waking vector cleared", acpi_sleep_waking_vector(&c.acpi), 0);
}

static bool nothing_left_low(const struct kslide_bootinfo *bi)
{
	(void)bi;
	if (cycles_done != SUSPEND_CYCLES)
		return same("cycles done", cycles_done, SUSPEND_CYCLES);
	for (unsigned n = 0; n < SUSPEND_CYCLES; n++) {
		if (!trampolines[n])
			return check_fail("cycle woke", n + 1, 0);
		const uint8_t *p = phys_to_virt(trampolines[n]);
		for (size_t i = 0; i < (size_t)trampoline_pages() * PAGE_SIZE; i++)
			if (p[i])
				return check_fail("wake trampoline byte zero", trampolines[n] + i, 0);
	}
	return smp_trampoline_wiped() || check_fail("AP trampoline zero", 0, 1);
}

static const struct selftest_case cases[] = {
	{ "ACPI offers S3 (PM1 control, \\_S3, FACS); the boot's view on the aliases",
	  acpi_offers_s3 },
	{ "cycle 1: slept, woke, every CPU on the aliases, the view as at boot", one_cycle },
	{ "cycle 2: the same", one_cycle },
	{ "cycle 3: the same", one_cycle },
	{ "no trampoline byte left below 1 MiB", nothing_left_low },
};
_Static_assert(sizeof(cases) / sizeof(cases[0]) == SUSPEND_CYCLES + 2, "one case per cycle");

const struct selftest_suite selftest_suspend = SELFTEST_SUITE_BY_NAME("suspend", cases);
