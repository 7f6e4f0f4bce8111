/*
 * Selftest suites "leak", "panic_on_oops" and "oops_limit": the secrecy half proved from user
 * mode. The leak suite runs kernel/user/leak.c as unprivileged and privileged processes and
 * prints what each sees; tests/boot/leak.sh boots it at several bases and requires the
 * unprivileged view ("leak:" lines) to be the same every time and free of kernel addresses.
 * The "leak: exit" lines are what a parent would see of each unprivileged process: its exit
 * status ("priv: exit" for privileged ones).
 */
#include <stddef.h>

#include "kernel/arch.h"
#include "kernel/console.h"
#include "kernel/memory.h"
#include "kernel/printk.h"
#include "kernel/proc/proc.h"
#include "kernel/secrecy/kallsyms.h"
#include "kernel/secrecy/kptr.h"
#include "kernel/secrecy/sysctl.h"
#include "kernel/secrecy/syslog.h"
#include "kernel/selftest/leak_closure.h"
#include "kernel/selftest/selftest.h"
#include "kernel/selftest/smp_view.h"
#include "kernel/smp/smp.h"
#include "kernel/user/leak.h"
#include "lib/cmdline.h"
#include "lib/errors.h"
#include "lib/format.h"
#include "lib/siphash.h"
#include "lib/string.h"

extern const uint8_t user_leak_start[], user_leak_end[];
const struct user_program user_program_leak = { "leak", user_leak_start, user_leak_end };

void kernel_main(uint32_t magic, uintptr_t boot_info_phys);
unsigned selftest_run(const char *name, const struct kslide_bootinfo *bi);

#define TOP_PAGE ((uintptr_t)0 - 4096) /* the last page of the address space: kernel half */

static int run(uint32_t caps, enum leak_mode mode, uintptr_t arg, const char *what)
{
	int status = proc_run(&user_program_leak, caps, mode, arg);
	kprintf("%s: exit %s status=0x%x\n", caps ? "priv" : "leak", what, (unsigned)status);
	return status;
}

static bool set(enum leak_sysctl which, int value)
{
	return run(CAP_ALL, LEAK_SET, LEAK_SET_ARG(which, value), "set") == 0;
}

/* SipHash-2-4 of the pointer under the first 16 seed bytes, computed here from the boot info
 * rather than through kernel/secrecy/kptr.c: what printk's %p must print. */
static uintptr_t expected_hash(const struct kslide_bootinfo *bi, uintptr_t p)
{
	struct siphash_key key;
	uint64_t v = p;
	siphash_key_from_bytes(&key, bi->seed);
	return (uintptr_t)siphash24(&key, &v, sizeof(v));
}

static bool pointer_hash(const struct kslide_bootinfo *bi)
{
	uintptr_t p = (uintptr_t)kernel_main, q = (uintptr_t)&oops_count;
	uintptr_t hp = expected_hash(bi, p), hq = expected_hash(bi, q);
	if (hp == p || hp == expected_hash(bi, p + 1) || hp == hq)
		return check_fail("hash hides the pointer", hp, p);
	/* What printk really wrote to the syslog (for the host to compare across boots: equal
	 * twice, new every boot) must be the hashes, in the formatter's own %p spelling. */
	size_t at = syslog_written();
	printk("ptrhash: kernel_main=%p again=%p oops_count=%p\n", (void *)p, (void *)p, (void *)q);
	char got[96], want[96];
	size_t n = syslog_read(at, got, sizeof(got) - 1);
	got[n] = '\0';
	format_buf(want, sizeof(want), "ptrhash: kernel_main=%p again=%p oops_count=%p\n",
		   (void *)hp, (void *)hp, (void *)hq);
	if (n != strlen(want) || memcmp(got, want, n) != 0) {
		kprintf("# printk wrote: %s# expected:     %s", got, want);
		return check_fail("printk's %p is the boot-keyed hash", n, strlen(want));
	}
	return true;
}

static bool kptr_restrict_policy(const struct kslide_bootinfo *bi)
{
	(void)bi;
	const struct cred admin = { .caps = CAP_SYSLOG }, user = { .caps = 0 };
	const uint64_t p = (uintptr_t)kernel_main;
	/* [kptr_restrict][reader]: what %pK shows */
	const uint64_t want[3][2] = { { p, p }, { p, 0 }, { 0, 0 } };
	int saved = sysctl_kptr_restrict;
	bool ok = true;
	for (int k = 0; k < 3; k++) {
		sysctl_kptr_restrict = k;
		ok &= kptr_restricted(p, &admin) == want[k][0];
		ok &= kptr_restricted(p, &user) == want[k][1];
		ok &= kptr_restricted(p, NULL) == want[k][1];
	}
	sysctl_kptr_restrict = saved;
	return ok;
}

static bool restricted_by_default(const struct kslide_bootinfo *bi)
{
	int want = (bi->flags & KSLIDE_BOOT_RANDOMIZED) ? 1 : 0;
	if (sysctl_kptr_restrict != want)
		return check_fail("kptr_restrict", (unsigned)sysctl_kptr_restrict, (unsigned)want);
	if (sysctl_dmesg_restrict != want)
		return check_fail("dmesg_restrict", (unsigned)sysctl_dmesg_restrict,
				  (unsigned)want);
	return true;
}

static bool kallsyms_finds_functions(const struct kslide_bootinfo *bi)
{
	(void)bi;
	uintptr_t a;
	if (!kallsyms_lookup("kernel_main", &a) || a != (uintptr_t)kernel_main)
		return check_fail("kernel_main", a, (uintptr_t)kernel_main);
	if (!kallsyms_lookup("selftest_run", &a) || a != (uintptr_t)selftest_run)
		return check_fail("selftest_run", a, (uintptr_t)selftest_run);
	uintptr_t prev = 0;
	for (unsigned i = 0; i < kallsyms_count(); i++) {
		char type;
		const char *name;
		kallsyms_entry(i, &a, &type, &name);
		if (a < prev)
			return check_fail("kallsyms sorted", a, prev);
		prev = a;
	}
	return kallsyms_count() > 0;
}

static bool user_descriptor_instructions(const struct kslide_bootinfo *bi)
{
	(void)bi;
	static const char *const names[INSN_COUNT] = { "sidt", "sgdt", "sldt", "str", "smsw" };
	int want = arch_umip_enabled() ? PROC_KILLED + FAULT_PROTECTION : 0;
	bool ok = true;
	for (unsigned i = 0; i < INSN_COUNT; i++)
		ok &= run(0, LEAK_INSN, i, names[i]) == want;
	return ok;
}

static bool unprivileged_view(const struct kslide_bootinfo *bi)
{
	(void)bi;
	return run(0, LEAK_VIEW, 0, "view") == 0;
}

static bool privileged_view(const struct kslide_bootinfo *bi)
{
	(void)bi;
	return run(CAP_ALL, LEAK_PRIV, 0, "priv") == 0;
}

/* Guesses at the kernel: the link address, the descriptor alias, the last page. Each must
 * kill the guesser the same way, mapped or not, and count as an oops; a NULL read must kill
 * without being one. */
static bool kernel_probes_kill(const struct kslide_bootinfo *bi)
{
	const uintptr_t guesses[] = { (uintptr_t)bi->link_virt_base, arch_idt_alias(), TOP_PAGE };
	const int before = oops_count;
	bool ok = true;
	for (size_t i = 0; i < sizeof(guesses) / sizeof(guesses[0]); i++)
		ok &= run(0, LEAK_PROBE, guesses[i], "probe") ==
		      PROC_KILLED + FAULT_KERNEL_ADDRESS;
	ok &= run(0, LEAK_PROBE, 0, "probe-null") == PROC_KILLED + FAULT_USER_ADDRESS;
	if (oops_count != before + 3)
		return check_fail("oops_count", (unsigned)oops_count, (unsigned)before + 3);
	return ok;
}

static bool syslog_opened_by_admin(const struct kslide_bootinfo *bi)
{
	int saved = sysctl_dmesg_restrict;
	bool ok = run(0, LEAK_SYSLOG, 0, "syslog-restricted") == 0;
	ok &= set(SET_DMESG_RESTRICT, 0);
	ok &= run(0, LEAK_SYSLOG, 0, "syslog") == 0;
	ok &= set(SET_DMESG_RESTRICT, saved);
	(void)bi;
	return ok;
}

static bool kptr_restrict_2_hides_all(const struct kslide_bootinfo *bi)
{
	(void)bi;
	int saved = sysctl_kptr_restrict;
	bool ok = set(SET_KPTR_RESTRICT, 2);
	ok &= run(CAP_ALL, LEAK_PRIV, 0, "priv-kptr2") == 0;
	ok &= set(SET_KPTR_RESTRICT, saved);
	return ok;
}

static bool dropped_privileges_stay_dropped(const struct kslide_bootinfo *bi)
{
	(void)bi;
	return run(CAP_ALL, LEAK_DROP, 0, "drop") == 0;
}

/* The CPU's checks (kernel/selftest/leak_cpu.c), reported as one case with details. */
static bool arch_cases(const struct kslide_bootinfo *bi)
{
	bool ok = true;
	for (unsigned i = 0; i < leak_cpu_case_count; i++) {
		bool one = leak_cpu_cases[i].run(bi);
		if (!one)
			kprintf("# arch check failed: %s\n", leak_cpu_cases[i].name);
		ok &= one;
	}
	return ok;
}

/* The unprivileged set on each CPU in turn, against the boot CPU (kernel/selftest/smp_view.c); at
 * one CPU, the boot CPU's own expectations. */
static bool every_cpu_same_view(const struct kslide_bootinfo *bi)
{
	(void)bi;
	return smp_view_every_cpu();
}

static const struct selftest_case leak_cases[] = {
	{ "arch: descriptor aliases, UMIP, user page tables", arch_cases },
	{ "%p hashes with a boot key", pointer_hash },
	{ "%pK follows kptr_restrict", kptr_restrict_policy },
	{ "kptr_restrict and dmesg_restrict default to 1 when randomized", restricted_by_default },
	{ "kallsyms finds functions where they run", kallsyms_finds_functions },
	{ "ring 3 SIDT SGDT SLDT STR SMSW: fixed values, or #GP under UMIP",
	  user_descriptor_instructions },
	{ "unprivileged process: its view, every check held", unprivileged_view },
	{ "privileged process: raw addresses", privileged_view },
	{ "guesses at kernel addresses kill and count as oopses", kernel_probes_kill },
	{ "dmesg_restrict=0 opens the syslog", syslog_opened_by_admin },
	{ "kptr_restrict=2 hides every address", kptr_restrict_2_hides_all },
	{ "dropped capabilities stay dropped", dropped_privileges_stay_dropped },
	{ "ldt: LAR on selector 4 from ring 3 clears ZF without faulting", leak_ldt_lar },
	{ "closure: nothing ring 3 can know leads to the image or a slide", leak_closure },
	{ "user page-table audit: a running process maps nothing of the image or the direct map",
	  leak_user_table_audit },
	{ "every CPU: ring 3 sees the aliases and the boot CPU's view", every_cpu_same_view },
#ifndef __x86_64__
	{ "entry: ring 3's DS and ES (null, USER_CS, a segment with a base) go unused",
	  leak_entry_segments },
#endif
};

const struct selftest_suite selftest_leak = SELFTEST_SUITE_BY_NAME("leak", leak_cases);

/* These two end the run with a panic when they work: the boot test expects the failure exit
 * and the panic message. Returning at all is the failure. */
static bool panic_on_first_oops(const struct kslide_bootinfo *bi)
{
	set(SET_PANIC_ON_OOPS, 1);
	run(0, LEAK_PROBE, (uintptr_t)bi->link_virt_base, "probe");
	return false;
}

static bool panic_at_oops_limit(const struct kslide_bootinfo *bi)
{
	set(SET_OOPS_LIMIT, 2);
	run(0, LEAK_PROBE, (uintptr_t)bi->link_virt_base, "probe");
	kprintf("# one oops: still running\n");
	run(0, LEAK_PROBE, TOP_PAGE, "probe");
	return false;
}

static const struct selftest_case panic_on_oops_cases[] = {
	{ "panic_on_oops=1: the first guess panics", panic_on_first_oops },
};
static const struct selftest_case oops_limit_cases[] = {
	{ "oops_limit=2: the second guess panics", panic_at_oops_limit },
};

/* Suite "syscall_bench" (bench/syscall-cost.sh): a process making syscall_bench.calls=N
 * getpid round trips, whose instructions QEMU counts. */
#define BENCH_CALLS_KEY "syscall_bench.calls"
#define BENCH_CALLS_DEFAULT 1000

static unsigned long bench_calls(const struct kslide_bootinfo *bi)
{
	unsigned long n = BENCH_CALLS_DEFAULT;
	selftest_number(bi, BENCH_CALLS_KEY, &n);
	return n;
}

static bool getpid_round_trips(const struct kslide_bootinfo *bi)
{
	unsigned long calls = bench_calls(bi);
	int status = proc_run(&user_program_leak, 0, LEAK_BENCH, calls);
	kprintf("# syscall_bench: %lu getpid round trips, exit status 0x%x\n", calls,
		(unsigned)status);
	return status == 0;
}

static const struct selftest_case syscall_bench_cases[] = {
	{ "getpid round trips from ring 3", getpid_round_trips },
};
const struct selftest_suite selftest_syscall_bench =
	SELFTEST_SUITE_BY_NAME("syscall_bench", syscall_bench_cases);

const struct selftest_suite selftest_panic_on_oops =
	SELFTEST_SUITE_BY_NAME("panic_on_oops", panic_on_oops_cases);
const struct selftest_suite selftest_oops_limit =
	SELFTEST_SUITE_BY_NAME("oops_limit", oops_limit_cases);
