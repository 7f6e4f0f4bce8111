/*
 * The leak test, from ring 3. It prints everything the kernel lets it see ("leak: " lines for
 * the unprivileged view the host compares across boots, "priv: " for a privileged reader) and
 * checks the policy it can check itself: exit 0 when every check held.
 */
#include <stdbool.h>

#include "kernel/user/leak.h"
#include "kernel/user/ulib.h"

#define SYSLOG_BUF 16384
#define LDT_SELECTOR_0 4 /* index 0, TI=1 (the LDT), RPL 0 */
#define SYSCALL_UNKNOWN 999
#define SELECTOR_RPL 3u /* a selector's requested privilege level, its low two bits */

static const char *const sysctl_names[] = {
	"kernel.kptr_restrict", "kernel.dmesg_restrict", "kernel.panic_on_oops",
	"kernel.oops_limit",    "kernel.oops_count",
};
#define SYSCTL_COUNT (sizeof(sysctl_names) / sizeof(sysctl_names[0]))

static int failures;

static void expect(bool ok, const char *what)
{
	if (!ok) {
		printf("# check failed: %s\n", what);
		failures++;
	}
}

struct __attribute__((packed)) table_reg {
	uint16_t limit;
	uintptr_t base;
};

static void run_insn(unsigned which)
{
	struct table_reg r = { 0, 0 };
	uint16_t sel = 0;
	switch (which) {
	case INSN_SIDT:
		__asm__ volatile("sidt %0" : "=m"(r));
		printf("leak: sidt base=0x%llx limit=0x%x\n", (unsigned long long)r.base, r.limit);
		break;
	case INSN_SGDT:
		__asm__ volatile("sgdt %0" : "=m"(r));
		printf("leak: sgdt base=0x%llx limit=0x%x\n", (unsigned long long)r.base, r.limit);
		break;
	case INSN_SLDT:
		__asm__ volatile("sldt %0" : "=r"(sel));
		printf("leak: sldt selector=0x%x\n", sel);
		break;
	case INSN_STR:
		__asm__ volatile("str %0" : "=r"(sel));
		printf("leak: str selector=0x%x\n", sel);
		break;
	case INSN_SMSW:
		__asm__ volatile("smsw %0" : "=r"(sel));
		printf("leak: smsw msw=0x%x\n", sel);
		break;
	}
}

static void print_sysctls(const char *prefix)
{
	for (unsigned i = 0; i < SYSCTL_COUNT; i++)
		printf("%s: sysctl %s=%ld\n", prefix, sysctl_names[i],
		       sys_sysctl_read(sysctl_names[i]));
}

/* Every symbol in both views, and what the policy says this reader must get. */
static void print_kallsyms(const char *prefix, bool privileged)
{
	long kptr = sys_sysctl_read("kernel.kptr_restrict");
	struct ksym runtime, unslid;
	unsigned i = 0;
	for (;; i++) {
		long r = sys_kallsyms(i, &runtime, KSYM_VIEW_RUNTIME);
		long u = sys_kallsyms(i, &unslid, KSYM_VIEW_UNSLID);
		if (r == -ENOENT && u == -ENOENT)
			break;
		expect(r == 0 && u == 0, "kallsyms answers both views");
		if (r != 0 || u != 0)
			break;
		printf("%s: ksym 0x%llx %c %s\n", prefix, (unsigned long long)runtime.addr,
		       (char)runtime.type, runtime.name);
		printf("%s: ksym-unslid 0x%llx %c %s\n", prefix, (unsigned long long)unslid.addr,
		       (char)unslid.type, unslid.name);
		bool shown = kptr == 0 || (kptr == 1 && privileged);
		expect((runtime.addr != 0) == shown, "runtime view per kptr_restrict");
		expect((unslid.addr == 0) == (kptr == 2), "unslid view per kptr_restrict");
	}
	printf("%s: ksym count=%u\n", prefix, i);
	expect(i > 0, "kallsyms has symbols");
	expect(sys_kallsyms(0, &runtime, 7) == -EINVAL, "unknown view refused");
	expect(sys_kallsyms(0, (struct ksym *)0xc0000000, 0) == -EFAULT, "kernel buffer refused");
}

static void view(void)
{
	printf("leak: pid=%ld caps=%ld\n", sys_getpid(), sys_getcaps());
	printf("leak: write=%ld\n", sys_write("# hello\n", 8));
	print_sysctls("leak");
	print_kallsyms("leak", false);
	char buf[64];
	long n = sys_syslog(buf, sizeof(buf), 0);
	printf("leak: syslog read=%ld\n", n);
	if (sys_sysctl_read("kernel.dmesg_restrict") == 1)
		expect(n == -EPERM, "syslog closed by dmesg_restrict");
	for (unsigned i = 0; i < SYSCTL_COUNT; i++) {
		long r = sys_sysctl_write(sysctl_names[i], 0);
		printf("leak: sysctl-write %s=%ld\n", sysctl_names[i], r);
		expect(r == -EPERM, "sysctl write needs CAP_SYS_ADMIN");
	}
	printf("leak: sysctl-read nosuch=%ld\n", sys_sysctl_read("kernel.nosuch"));
	printf("leak: drop-caps=%ld\n", sys_drop_caps(CAP_ALL));
	printf("leak: bad-syscall=%ld\n", syscall3(SYSCALL_UNKNOWN, 0, 0, 0));
	printf("leak: write-kernel-buffer=%ld\n", sys_write((const char *)0xc0000000, 4));
}

static char log_buf[SYSLOG_BUF];

/* Lines the kernel printed with %p go out as "leak-hash:": they change at every boot by
 * design (a fresh key), so the host checks them separately. */
static void dump_syslog(void)
{
	size_t len = 0;
	long n = 0;
	while (len < sizeof(log_buf) - 1 &&
	       (n = sys_syslog(log_buf + len, sizeof(log_buf) - 1 - len, len)) > 0)
		len += (size_t)n;
	printf("leak: syslog bytes=%s\n", n < 0 ? "denied" : "ok");
	log_buf[len] = '\0';
	char *line = log_buf;
	for (size_t i = 0; i < len; i++) {
		if (log_buf[i] != '\n')
			continue;
		log_buf[i] = '\0';
		bool hashed = memcmp(line, "ptrhash:", 8) == 0;
		printf("%s: syslog %s\n", hashed ? "leak-hash" : "leak", line);
		line = log_buf + i + 1;
	}
}

static void privileged(void)
{
	expect(sys_getcaps() == CAP_ALL, "started with every capability");
	print_sysctls("priv");
	print_kallsyms("priv", true);
	char buf[64];
	expect(sys_syslog(buf, sizeof(buf), 0) >= 0, "syslog open to CAP_SYSLOG");
}

static void set(unsigned arg)
{
	unsigned which = arg >> 24;
	int value = (int)(arg & 0xffffff);
	long r = sys_sysctl_write(sysctl_names[which], value);
	printf("priv: set %s=%d: %ld\n", sysctl_names[which], value, r);
	expect(r == 0, "privileged sysctl write");
	expect(sys_sysctl_read(sysctl_names[which]) == value, "sysctl reads back");
	expect(sys_sysctl_write(sysctl_names[which], -1) == -EINVAL, "out of range refused");
}

static void drop(void)
{
	expect(sys_getcaps() == CAP_ALL, "started with every capability");
	expect(sys_drop_caps(CAP_SYS_ADMIN) == CAP_SYSLOG, "dropped CAP_SYS_ADMIN");
	expect(sys_sysctl_write("kernel.kptr_restrict", 0) == -EPERM, "no sysctl writes after");
	struct ksym s;
	expect(sys_kallsyms(0, &s, KSYM_VIEW_RUNTIME) == 0 && s.addr != 0, "CAP_SYSLOG kept");
	expect(sys_drop_caps(CAP_SYSLOG) == 0, "dropped CAP_SYSLOG");
	/* What is left is what anyone gets: with the restrictions off (nokaslr), that is all. */
	bool hidden = sys_sysctl_read("kernel.kptr_restrict") >= 1;
	bool closed = sys_sysctl_read("kernel.dmesg_restrict") == 1;
	expect(sys_kallsyms(0, &s, KSYM_VIEW_RUNTIME) == 0 && (s.addr == 0) == hidden,
	       "addresses per kptr_restrict now");
	char buf[8];
	expect((sys_syslog(buf, sizeof(buf), 0) == -EPERM) == closed,
	       "syslog per dmesg_restrict now");
}

/* The reset LDT has base 0 and limit 0xffff: LAR on a TI=1 selector would read a descriptor
 * from linear address 0 (a page fault here, a call gate wherever page 0 is mapped). With LDTR
 * null it just clears ZF. */
static void ldt_lar(void)
{
	const uint32_t selector = LDT_SELECTOR_0;
	uint32_t rights = 0;
	uint8_t zf;
	__asm__ volatile("lar %2, %0\n\tsetz %1" : "+r"(rights), "=q"(zf) : "r"(selector) : "cc");
	printf("leak: lar selector=0x%x zf=%u\n", (unsigned)selector, zf);
	expect(zf == 0, "LAR on an LDT selector finds nothing");
}

/*
 * The user registers after every system call: each call runs with every register the kernel
 * has no business changing set to a marker (kernel/user/<arch>/crt0.S), and comes back with
 * the set of those that changed, which must be empty. The result is printed, for the host
 * to check against the image and the slide like every other number in the view.
 */
static void registers_kept(void)
{
	static const char name[] = "kernel.kptr_restrict";
	struct ksym sym;
	char buf[8];
	const long calls[][4] = {
		{ SYS_WRITE, (long)"", 0, 0 },
		{ SYS_SYSLOG, (long)buf, sizeof(buf), 0 },
		{ SYS_KALLSYMS, 0, (long)&sym, KSYM_VIEW_RUNTIME },
		{ SYS_SYSCTL_READ, (long)name, 0, 0 },
		{ SYS_SYSCTL_WRITE, (long)name, 0, 0 },
		{ SYS_DROP_CAPS, 0, 0, 0 },
		{ SYS_GETCAPS, 0, 0, 0 },
		{ SYS_GETPID, 0, 0, 0 },
		{ SYSCALL_UNKNOWN, 0, 0, 0 },
	};
	for (unsigned i = 0; i < sizeof(calls) / sizeof(calls[0]); i++) {
		unsigned long changed = ~0ul;
		long r = syscall3_checked(calls[i][0], calls[i][1], calls[i][2], calls[i][3], &changed);
		printf("leak: regs syscall=%ld result=%ld changed=0x%lx\n", calls[i][0], r, changed);
		expect(changed == 0, "a system call changes no register but the result");
	}
}

#ifndef __x86_64__
/*
 * System calls with DS and ES set to what ring 3 may load but the kernel must not use: a null
 * selector (with RPL 0 and 3), this process's own code segment (readable), and spare, a
 * segment the kernel set up for the test. Each call must give the same result as a plain
 * one and come back with DS and ES as they went in.
 */
static void segments(unsigned spare)
{
	uint16_t cs;
	__asm__ volatile("movw %%cs, %0" : "=r"(cs));
	const unsigned selectors[] = { 0, 3, cs, spare };
	long pid = sys_getpid();
	for (unsigned i = 0; i < sizeof(selectors) / sizeof(selectors[0]); i++) {
		unsigned seen = 0;
		long r = syscall_on_segment(SYS_GETPID, selectors[i], &seen);
		printf("leak: segments ds=es=0x%x result=%ld seen=0x%x\n", selectors[i], r, seen);
		expect(r == pid, "a system call on ring 3's segments works");
		/* A null selector may come back with another RPL (IRET's choice): still null. */
		unsigned mask = selectors[i] & ~SELECTOR_RPL ? ~0u : ~(SELECTOR_RPL * 0x10001u);
		expect((seen & mask) == ((selectors[i] | selectors[i] << 16) & mask),
		       "DS and ES come back");
	}
}
#endif

/* bench/syscall-cost.sh counts the instructions from this function's entry until ring 3
 * leaves .text again (when user_main returns to _start in .text.start). */
__attribute__((noinline)) void round_trips(uintptr_t n);
__attribute__((noinline)) void round_trips(uintptr_t n)
{
	for (uintptr_t i = 0; i < n; i++)
		sys_getpid();
}

int user_main(uintptr_t mode, uintptr_t arg)
{
	switch (mode) {
	case LEAK_INSN:
		run_insn((unsigned)arg);
		break;
	case LEAK_VIEW:
		view();
		break;
	case LEAK_SYSLOG:
		dump_syslog();
		break;
	case LEAK_PRIV:
		privileged();
		break;
	case LEAK_SET:
		set((unsigned)arg);
		break;
	case LEAK_DROP:
		drop();
		break;
	case LEAK_NOP:
		break;
	case LEAK_LDT:
		ldt_lar();
		break;
	case LEAK_REGS:
		registers_kept();
		break;
	case LEAK_BENCH:
		round_trips(arg);
		break;
#ifndef __x86_64__
	case LEAK_SEGMENTS:
		segments((unsigned)arg);
		break;
#endif
	case LEAK_PROBE:
		printf("# probing 0x%llx\n", (unsigned long long)arg);
		(void)*(volatile uint32_t *)arg;
		return LEAK_EXIT_SURVIVED;
	default:
		printf("# unknown mode %u\n", (unsigned)mode);
		return LEAK_EXIT_FAILED;
	}
	return failures ? LEAK_EXIT_FAILED : 0;
}
