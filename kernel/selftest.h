/*
 * In-guest test suites, chosen with selftest=NAME on the command line. Output is TAP-style:
 * "ok N - name" / "not ok N - name" lines, then "kslide-selftest: P passed, F failed".
 */
#ifndef KSLIDE_KERNEL_SELFTEST_H
#define KSLIDE_KERNEL_SELFTEST_H

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
};

#define SELFTEST_SUITE(suite_name, case_array)                                             \
	{ .name = (suite_name), .cases = (case_array),                                      \
	  .count = sizeof(case_array) / sizeof((case_array)[0]) }

extern const struct selftest_suite selftest_reloc;
extern const struct selftest_suite selftest_bootinfo;
extern const struct selftest_suite selftest_paging; /* x86-64 */

/* Report a failed expectation with context; returns false for "return check_fail(...)". */
bool check_fail(const char *what, unsigned long long got, unsigned long long want);

/* Run the named suite, or every suite when name is NULL. Returns the number of failures
 * (1 for an unknown name). */
unsigned selftest_run(const char *name, const struct kslide_bootinfo *bi);

#endif
