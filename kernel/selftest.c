/* The selftest registry and its TAP-style reporting. */
#include <stddef.h>

#include "kernel/console.h"
#include "kernel/selftest.h"

int strcmp(const char *a, const char *b);

static const struct selftest_suite *const suites[] = {
	&selftest_reloc,
	&selftest_bootinfo,
#ifdef __x86_64__
	&selftest_paging,
#endif
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
	if (total == 0) {
		kprintf("kslide-selftest: no suite named '%s'\n", name);
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
