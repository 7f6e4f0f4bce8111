/* The selftest registry and its TAP-style reporting. */
#include <stddef.h>

#include "kernel/console.h"
#include "kernel/cpu/cpu_tables.h"
#include "kernel/memory.h"
#include "kernel/proc/proc.h"
#include "kernel/selftest/selftest.h"
#include "kernel/smp/smp.h"
#include "lib/cmdline.h"
#include "lib/errors.h"
#include "lib/string.h"

int strcmp(const char *a, const char *b);

#define RING3_CPU_KEY "ring3_cpu"
#define NUMBER_DIGITS_MAX 12

static const struct selftest_suite *const suites[] = {
	&selftest_reloc,
	&selftest_bootinfo,
#ifdef __x86_64__
	&selftest_paging,
#endif
	&selftest_wx,
	&selftest_leak,
	&selftest_panic_on_oops,
	&selftest_oops_limit,
	&selftest_syscall_bench,
	&selftest_smp,
	&selftest_hotplug,
	&selftest_suspend,
};

#define SUITE_COUNT (sizeof(suites) / sizeof(suites[0]))

bool check_fail(const char *what, unsigned long long got, unsigned long long want)
{
	kprintf("# %s: got 0x%llx, want 0x%llx\n", what, got, want);
	return false;
}

bool selftest_number(const struct kslide_bootinfo *bi, const char *key, unsigned long *value)
{
	const char *cmdline = bi->cmdline ? phys_to_virt(bi->cmdline) : "";
	char digits[NUMBER_DIGITS_MAX];
	if (cmdline_get(cmdline, strlen(cmdline), key, digits, sizeof(digits)) != KS_OK)
		return false;
	unsigned long n = 0;
	for (const char *p = digits; *p >= '0' && *p <= '9'; p++)
		n = n * 10 + (unsigned long)(*p - '0');
	*value = n;
	return true;
}

/* ring3_cpu=N: every process of the run on CPU N, which the console names with what only that
 * CPU could say of itself (the APIC ID it read at its start) and what SGDT shows on it. */
static bool pin_processes(const struct kslide_bootinfo *bi)
{
	unsigned long cpu;
	if (!selftest_number(bi, RING3_CPU_KEY, &cpu))
		return true;
	if (cpu > CPU_MAX || !proc_pin((unsigned)cpu)) {
		kprintf("selftest: " RING3_CPU_KEY "=%lu: no such CPU online\n", cpu);
		return false;
	}
	const struct smp_state *s = smp_state();
	uint32_t apic_id = cpu ? s->ap[cpu - 1].apic_id : s->boot_apic_id;
	kprintf("selftest: ring 3 on cpu %lu, APIC ID %u, gdt=0x%llx\n", cpu, (unsigned)apic_id,
		(unsigned long long)cpu_gdt_alias_of((unsigned)cpu));
	return true;
}

static bool chosen(const struct selftest_suite *suite, const char *name)
{
	return name ? strcmp(name, suite->name) == 0 : !suite->by_name_only;
}

static unsigned count_cases(const char *name)
{
	unsigned n = 0;
	for (size_t i = 0; i < SUITE_COUNT; i++)
		if (chosen(suites[i], name))
			n += suites[i]->count;
	return n;
}

unsigned selftest_run(const char *name, const struct kslide_bootinfo *bi)
{
	unsigned total = count_cases(name), passed = 0, number = 0;
	if (total == 0)
		kprintf("kslide-selftest: no suite named '%s'\n", name);
	if (total == 0 || !pin_processes(bi)) {
		kprintf("kslide-selftest: 0 passed, 1 failed\n");
		return 1;
	}
	kprintf("1..%u\n", total);
	for (size_t s = 0; s < SUITE_COUNT; s++) {
		const struct selftest_suite *suite = suites[s];
		if (!chosen(suite, name))
			continue;
		for (unsigned c = 0; c < suite->count; c++) {
			bool ok = suite->cases[c].run(bi);
			passed += ok;
			kprintf("%s %u - %s: %s\n", ok ? "ok" : "not ok", ++number, suite->name,
				suite->cases[c].name);
		}
	}
	kprintf("kslide-selftest: %u passed, %u failed\n", passed, total - passed);
	return total - passed;
}
