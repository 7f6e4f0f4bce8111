/*
 * In-guest test suites, chosen with selftest=NAME on the command line. Output is TAP-style:
 * "ok N - name" / "not ok N - name" lines, then "kslide-selftest: P passed, F failed".
 */
#ifndef KSLIDE_KERNEL_SELFTEST_SELFTEST_H
#define KSLIDE_KERNEL_SELFTEST_SELFTEST_H

#include <stdbool.h>

#include "include/kslide/bootinfo.h"

struct selftest_case {
	const char *name;
	bool (*run)(const struct kslide_bootinfo *bi);
};

struct selftest_suite {
	const char *name;
	const struct selftest_case *cases;
	unsigned count;
	bool by_name_only; /* not part of the default run (it ends the run, or is long) */
};

#define SELFTEST_SUITE(suite_name, case_array)                                             \
	{ .name = (suite_name), .cases = (case_array),                                      \
	  .count = sizeof(case_array) / sizeof((case_array)[0]) }
#define SELFTEST_SUITE_BY_NAME(suite_name, case_array)                                     \
	{ .name = (suite_name), .cases = (case_array),                                      \
	  .count = sizeof(case_array) / sizeof((case_array)[0]), .by_name_only = true }

extern const struct selftest_suite selftest_reloc;
extern const struct selftest_suite selftest_bootinfo;
extern const struct selftest_suite selftest_paging; /* x86-64 */
extern const struct selftest_suite selftest_leak;
extern const struct selftest_suite selftest_panic_on_oops;
extern const struct selftest_suite selftest_oops_limit;
extern const struct selftest_suite selftest_syscall_bench;
extern const struct selftest_suite selftest_smp;     /* kernel/selftest/smp.c */
extern const struct selftest_suite selftest_hotplug; /* kernel/selftest/smp.c */
extern const struct selftest_suite selftest_suspend; /* kernel/selftest/suspend.c */
extern const struct selftest_suite selftest_wx;      /* kernel/selftest/wx.c */

/* The CPU's checks of selftest=leak (kernel/selftest/leak_cpu.c): descriptor-table aliases, UMIP,
 * user page tables; leak.c reports them as one case. */
extern const struct selftest_case leak_cpu_cases[];
extern const unsigned leak_cpu_case_count;

/* kernel/selftest/smp.c: what AP ap reported from ring 0 after its last start is only aliases
 * (SIDT, SGDT, STR, SLDT, its TSS descriptor cleared, CR4.UMIP as CPUID says). */
bool ap_on_the_aliases(unsigned ap);

/* Report a failed expectation with context; returns false for "return check_fail(...)". */
bool check_fail(const char *what, unsigned long long got, unsigned long long want);

/* The decimal number of a key=N word on the command line, in *value; false when absent. */
bool selftest_number(const struct kslide_bootinfo *bi, const char *key, unsigned long *value);

/* Run the named suite, or every default suite when name is NULL, its ring-3 processes on the
 * CPU ring3_cpu=N names (kernel/proc/proc.h; the boot CPU by default). Returns the number of
 * failures (1 for an unknown name or a CPU that is not online). */
unsigned selftest_run(const char *name, const struct kslide_bootinfo *bi);

#endif
