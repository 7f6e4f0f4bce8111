/*
 * selftest=smp: the CPUs ACPI lists match what the machine was given (smp_expect=N on the
 * command line, the host's -smp), every AP started, and each AP, in ring 0, sees only aliases:
 * SIDT the shared IDT's, SGDT its own GDT's, STR the TSS selector, SLDT 0, and CR4.UMIP set
 * when it has UMIP; in ring 3 every CPU shows what the boot CPU shows (kernel/selftest/smp_view.c).
 * The trampoline below 1 MiB is zero again afterwards.
 * selftest=hotplug: the same, in ring 0 and in ring 3, after each of many offline/online
 * cycles of every AP.
 */
#include <stddef.h>

#include "include/kslide/bootinfo.h"
#include "kernel/console.h"
#include "kernel/cpu/cpu_tables.h"
#include "kernel/memory.h"
#include "kernel/selftest/selftest.h"
#include "kernel/selftest/smp_view.h"
#include "kernel/smp/smp.h"
#include "lib/string.h"

#define EXPECT_KEY "smp_expect"

static unsigned expected_cpus(const struct kslide_bootinfo *bi)
{
	unsigned long n = 0;
	return selftest_number(bi, EXPECT_KEY, &n) ? (unsigned)n : 0;
}

static bool madt_lists_the_machines_cpus(const struct kslide_bootinfo *bi)
{
	const struct smp_state *s = smp_state();
	unsigned want = expected_cpus(bi);
	if (!want)
		return check_fail(EXPECT_KEY " on the command line", 0, 1);
	if (!s->acpi_ok)
		return check_fail("an RSDP and a MADT with valid checksums", 0, 1);
	kprintf("# rsdp 0x%llx madt 0x%llx lapic 0x%x, %u CPUs\n", (unsigned long long)s->cpus.rsdp,
		(unsigned long long)s->cpus.madt, (unsigned)s->cpus.lapic_phys, s->cpus.count);
	return s->cpus.count == want || check_fail("CPUs in the MADT", s->cpus.count, want);
}

static bool every_ap_started(const struct kslide_bootinfo *bi)
{
	(void)bi;
	const struct smp_state *s = smp_state();
	unsigned listed = s->cpus.count < CPU_MAX ? s->cpus.count : CPU_MAX;
	unsigned want = listed ? listed - 1 : 0;
	if (s->aps_started != want)
		return check_fail("APs started", s->aps_started, want);
	for (unsigned ap = 0; ap < want; ap++)
		if (!s->ap[ap].started || s->ap[ap].apic_id == s->boot_apic_id)
			return check_fail("AP reported, with an APIC ID of its own", ap, ap + 1);
	return true;
}

bool ap_on_the_aliases(unsigned ap)
{
	const struct smp_ap_view *v = &smp_state()->ap[ap];
	bool ok = true;
	if (v->idt_base != cpu_idt_alias() || v->idt_limit != sizeof(cpu_tables->idt) - 1)
		ok = check_fail("AP SIDT: the shared IDT's alias", v->idt_base, cpu_idt_alias());
	if (v->gdt_base != cpu_ap_gdt_alias(ap) ||
	    v->gdt_limit != sizeof(cpu_tables->ap[ap].gdt) - 1)
		ok = check_fail("AP SGDT: its own GDT's alias", v->gdt_base,
				cpu_ap_gdt_alias(ap));
	if (v->tr != TSS_SEL || v->ldt != 0)
		ok = check_fail("AP STR and SLDT", (unsigned)v->tr << 16 | v->ldt,
				(unsigned)TSS_SEL << 16);
	if (cpu_tables->ap[ap].gdt[TSS_SEL / 8] != 0)
		ok = check_fail("AP TSS descriptor cleared after LTR",
				cpu_tables->ap[ap].gdt[TSS_SEL / 8], 0);
	if (v->umip_on != v->has_umip)
		ok = check_fail("AP CR4.UMIP as CPUID says", v->umip_on, v->has_umip);
	bool smep = (v->cr4 & CR4_SMEP) != 0, smap = (v->cr4 & CR4_SMAP) != 0;
	if (smep != v->has_smep || smap != v->has_smap)
		ok = check_fail("AP CR4.SMEP and SMAP as CPUID says", (unsigned)smep << 1 | smap,
				(unsigned)v->has_smep << 1 | v->has_smap);
	if (v->cr0 != smp_state()->boot_cr0)
		ok = check_fail("AP CR0 as the boot CPU's", v->cr0, smp_state()->boot_cr0);
	return ok;
}

static bool every_ap_on_the_aliases(const struct kslide_bootinfo *bi)
{
	(void)bi;
	bool ok = true;
	for (unsigned ap = 0; ap < smp_state()->aps_started; ap++)
		ok &= ap_on_the_aliases(ap);
	return ok;
}

static bool umip_on_every_ap_that_has_it(const struct kslide_bootinfo *bi)
{
	(void)bi;
	const struct smp_state *s = smp_state();
	for (unsigned ap = 0; ap < s->aps_started; ap++)
		if (s->ap[ap].umip_on != s->ap[ap].has_umip)
			return check_fail("AP CR4.UMIP as CPUID says", s->ap[ap].umip_on,
					  s->ap[ap].has_umip);
	return true;
}

static bool ring3_on_every_cpu(const struct kslide_bootinfo *bi)
{
	(void)bi;
	return smp_view_every_cpu();
}

static bool trampoline_wiped(const struct kslide_bootinfo *bi)
{
	(void)bi;
	return smp_trampoline_wiped() ||
	       check_fail("trampoline pages zero", 0, smp_state()->trampoline_phys);
}

static const struct selftest_case cases[] = {
	{ "the MADT lists the machine's CPUs", madt_lists_the_machines_cpus },
	{ "every AP started", every_ap_started },
	{ "every AP on the aliases (SIDT, SGDT, STR, SLDT)", every_ap_on_the_aliases },
	{ "UMIP on every AP that has it", umip_on_every_ap_that_has_it },
	{ "ring 3 on every CPU: the aliases, the boot CPU's view", ring3_on_every_cpu },
	{ "the trampoline wiped", trampoline_wiped },
};

const struct selftest_suite selftest_smp = SELFTEST_SUITE_BY_NAME("smp", cases);

/* selftest=hotplug: each AP offline and back online HOTPLUG_CYCLES times, by the boot path,
 * on the aliases after every start, in ring 0 as it reports and in ring 3 as the leak
 * program's processes run on it see them. */
#define HOTPLUG_CYCLES 100

static bool hotplug_cycles(const struct kslide_bootinfo *bi)
{
	(void)bi;
	const struct smp_state *s = smp_state();
	if (s->aps_started == 0)
		return check_fail("APs to take offline", 0, 1);
	if (!smp_view_reference())
		return check_fail("ring 3 on the boot CPU, to compare with", 0, 1);
	for (unsigned cycle = 0; cycle < HOTPLUG_CYCLES; cycle++)
		for (unsigned ap = 0; ap < s->aps_started; ap++) {
			smp_cpu_offline(ap);
			if (s->ap[ap].started)
				return check_fail("AP marked offline", ap, 0);
			if (!smp_cpu_online(ap))
				return check_fail("AP back online in cycle", cycle, HOTPLUG_CYCLES);
			if (!ap_on_the_aliases(ap))
				return check_fail("AP on the aliases in cycle", cycle, HOTPLUG_CYCLES);
			if (!smp_view_same_on(1 + ap))
				return check_fail("ring 3 on the AP as on the boot CPU in cycle",
						  cycle, HOTPLUG_CYCLES);
		}
	kprintf("# %u APs, %u offline/online cycles each, ring 3 checked after each\n",
		s->aps_started, HOTPLUG_CYCLES);
	return true;
}

static const struct selftest_case hotplug_cases[] = {
	{ "every AP offline and online 100 times, on the aliases each time, in ring 0 and ring 3",
	  hotplug_cycles },
	{ "the trampoline wiped", trampoline_wiped },
};

const struct selftest_suite selftest_hotplug = SELFTEST_SUITE_BY_NAME("hotplug", hotplug_cases);
