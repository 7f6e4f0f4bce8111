/* cpu_probe: feature bits come from the right leaf, and absent leaves are never read. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "lib/cpu.h"
#include "tests/unit/support/fake_arch.h"

static void all_feature_bits(struct fake_arch *f)
{
	f->leaf1.edx = CPUID_01_EDX_TSC;
	f->leaf1.ecx = CPUID_01_ECX_RDRAND;
	f->leaf7.ebx = CPUID_07_EBX_RDSEED | CPUID_07_EBX_SMEP | CPUID_07_EBX_SMAP;
	f->leaf7.ecx = CPUID_07_ECX_UMIP;
}

static void poison(struct cpu_features *c)
{
	memset(c, 0xff, sizeof(*c));
	c->cpuid = c->tsc = c->rdrand = c->rdseed = c->umip = c->smep = c->smap = true;
}

static void without_cpuid_everything_is_false(void **state)
{
	(void)state;
	struct fake_arch f;
	struct arch_ops ops;
	struct cpu_features c;

	fake_arch_init(&f, &ops);
	f.max_leaf = 7;
	all_feature_bits(&f);
	poison(&c);
	cpu_probe(&ops, &c);
	assert_false(c.cpuid);
	assert_int_equal(c.max_leaf, 0);
	assert_false(c.tsc);
	assert_false(c.rdrand);
	assert_false(c.rdseed);
	assert_false(c.umip);
	assert_false(c.smep);
	assert_false(c.smap);
	assert_int_equal(f.cpuid_calls[0], 0);
}

static void modern_cpu_reports_every_feature(void **state)
{
	(void)state;
	struct fake_arch f;
	struct arch_ops ops;
	struct cpu_features c;

	fake_arch_init(&f, &ops);
	f.cpuid_present = true;
	f.max_leaf = 0x16;
	all_feature_bits(&f);
	poison(&c);
	cpu_probe(&ops, &c);
	assert_true(c.cpuid);
	assert_int_equal(c.max_leaf, 0x16);
	assert_true(c.tsc);
	assert_true(c.rdrand);
	assert_true(c.rdseed);
	assert_true(c.umip);
	assert_true(c.smep);
	assert_true(c.smap);
	assert_int_equal(f.cpuid_bad_subleaf, 0);
}

/* Only the named bit counts: neighbouring bits (e.g. leaf 1 ECX bit 26, XSAVE) do not. */
static void features_come_from_their_own_bits(void **state)
{
	(void)state;
	struct fake_arch f;
	struct arch_ops ops;
	struct cpu_features c;

	fake_arch_init(&f, &ops);
	f.cpuid_present = true;
	f.max_leaf = 7;
	f.leaf1.ecx = ~CPUID_01_ECX_RDRAND;
	f.leaf1.edx = ~CPUID_01_EDX_TSC;
	f.leaf7.ebx = ~(CPUID_07_EBX_RDSEED | CPUID_07_EBX_SMEP | CPUID_07_EBX_SMAP);
	f.leaf7.ecx = ~CPUID_07_ECX_UMIP;
	poison(&c);
	cpu_probe(&ops, &c);
	assert_true(c.cpuid);
	assert_false(c.tsc);
	assert_false(c.rdrand);
	assert_false(c.rdseed);
	assert_false(c.umip);
	assert_false(c.smep);
	assert_false(c.smap);
}

static void rdseed_alone_is_reported_alone(void **state)
{
	(void)state;
	struct fake_arch f;
	struct arch_ops ops;
	struct cpu_features c;

	fake_arch_init(&f, &ops);
	f.cpuid_present = true;
	f.max_leaf = 7;
	f.leaf7.ebx = CPUID_07_EBX_RDSEED;
	cpu_probe(&ops, &c);
	assert_true(c.rdseed);
	assert_false(c.rdrand);
	assert_false(c.tsc);
	assert_false(c.umip);
	assert_false(c.smep);
	assert_false(c.smap);
}

/* A Pentium-era CPU: leaf 1 exists, leaf 7 does not and must not be read. */
static void leaf_7_is_not_read_below_max_leaf_7(void **state)
{
	(void)state;
	struct fake_arch f;
	struct arch_ops ops;
	struct cpu_features c;

	fake_arch_init(&f, &ops);
	f.cpuid_present = true;
	f.max_leaf = 6;
	all_feature_bits(&f);
	poison(&c);
	cpu_probe(&ops, &c);
	assert_int_equal(c.max_leaf, 6);
	assert_true(c.tsc);
	assert_true(c.rdrand);
	assert_false(c.rdseed);
	assert_false(c.umip);
	assert_false(c.smep);
	assert_false(c.smap);
	assert_int_equal(f.cpuid_calls[1], 1);
	assert_int_equal(f.cpuid_calls[7], 0);
}

/* An early 486 with CPUID but only leaf 0. */
static void leaf_1_is_not_read_at_max_leaf_0(void **state)
{
	(void)state;
	struct fake_arch f;
	struct arch_ops ops;
	struct cpu_features c;

	fake_arch_init(&f, &ops);
	f.cpuid_present = true;
	f.max_leaf = 0;
	all_feature_bits(&f);
	poison(&c);
	cpu_probe(&ops, &c);
	assert_true(c.cpuid);
	assert_int_equal(c.max_leaf, 0);
	assert_false(c.tsc);
	assert_false(c.rdrand);
	assert_false(c.rdseed);
	assert_false(c.umip);
	assert_false(c.smep);
	assert_false(c.smap);
	assert_int_equal(f.cpuid_calls[0], 1);
	assert_int_equal(f.cpuid_calls[1], 0);
	assert_int_equal(f.cpuid_calls[7], 0);
	assert_int_equal(f.cpuid_other_calls, 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(without_cpuid_everything_is_false),
		cmocka_unit_test(modern_cpu_reports_every_feature),
		cmocka_unit_test(features_come_from_their_own_bits),
		cmocka_unit_test(rdseed_alone_is_reported_alone),
		cmocka_unit_test(leaf_7_is_not_read_below_max_leaf_7),
		cmocka_unit_test(leaf_1_is_not_read_at_max_leaf_0),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
