/*
 * What ring 3 sees on each CPU, judged against what it sees on the boot CPU (kernel/smp/smp.h).
 * One set of unprivileged processes of the leak program (kernel/user/leak.c), each pinned to
 * the CPU under test and its console output kept (kernel/proc/proc.h): the five descriptor
 * instructions (SIDT, SGDT, SLDT, STR, SMSW, one process each, since under UMIP each is
 * killed by #GP), the process's whole view (LEAK_VIEW) and the LDT probe. On every CPU:
 *
 *   - each process ends as it does on the boot CPU, and the instructions as UMIP says (all
 *     five killed when it is on);
 *   - without UMIP, SIDT prints the shared IDT's alias, SGDT this CPU's own GDT alias, SLDT 0
 *     and STR the TSS selector, exactly (the kernel spells out the lines it expects);
 *   - every other byte printed is the boot CPU's, but for the pid in the view's first line
 *     (a process's own number, checked to be the one it was given);
 *   - the traps from ring 3 land on this CPU's slice of the entry stack, and no other CPU's
 *     (the TSS the CPU itself chose: the witness that the processes ran there).
 *
 * selftest=smp and selftest=leak judge every CPU in turn, selftest=hotplug an AP after each
 * time it comes back online (kernel/selftest/smp.c, kernel/selftest/leak.c).
 */
#include <stddef.h>

#include "kernel/arch.h"
#include "kernel/console.h"
#include "kernel/cpu/cpu_tables.h"
#include "kernel/proc/proc.h"
#include "kernel/selftest/selftest.h"
#include "kernel/selftest/smp_view.h"
#include "kernel/smp/smp.h"
#include "kernel/smp/smp_call.h"
#include "kernel/user/leak.h"
#include "lib/format.h"
#include "lib/string.h"

/* The view is mostly its kallsyms lines: about 33 KB under kptr_restrict=1, over 64 KB with
 * kptr_restrict=0 (two addresses a symbol) in the PIE; the other processes print a line. */
#define VIEW_BYTES (256 * 1024)
#define LINE_BYTES 128
#define SHOWN_BYTES 60 /* of a difference, on the console */

enum { RUN_VIEW = INSN_COUNT, RUN_LDT, RUN_COUNT };

static const char *const run_names[RUN_COUNT] = { "sidt", "sgdt", "sldt", "str", "smsw",
						  "view", "ldt" };

struct ring3_set {
	int status[RUN_COUNT];
	unsigned pid[RUN_COUNT];
	struct proc_output out[RUN_COUNT];
};

static char reference_view[VIEW_BYTES], tested_view[VIEW_BYTES];
static char reference_lines[RUN_COUNT][LINE_BYTES], tested_lines[RUN_COUNT][LINE_BYTES];
static struct ring3_set reference, tested;
static bool have_reference;

/* The boot CPU and every AP the kernel tried to start. */
static unsigned cpus_listed(void)
{
	return 1 + smp_state()->aps_wanted;
}

/* The set's processes one after the other on the CPU that calls it. */
static void run_set_here(void *arg)
{
	struct ring3_set *set = arg;
	for (unsigned i = 0; i < RUN_COUNT; i++) {
		uintptr_t mode = i < INSN_COUNT ? LEAK_INSN : i == RUN_VIEW ? LEAK_VIEW : LEAK_LDT;
		set->status[i] = proc_run_here(&user_program_leak, 0, mode, i, &set->out[i]);
		set->pid[i] = proc_last_pid();
	}
}

/* The whole set is one piece of work for an AP: one wake-up, not one per process. */
static void run_set(unsigned cpu, struct ring3_set *set, char *view, char (*lines)[LINE_BYTES])
{
	for (unsigned i = 0; i < RUN_COUNT; i++) {
		bool whole = i == RUN_VIEW;
		set->out[i] = (struct proc_output){ .buf = whole ? view : lines[i],
						    .cap = whole ? VIEW_BYTES : LINE_BYTES };
		set->status[i] = -1;
	}
	if (cpu == 0)
		run_set_here(set);
	else
		smp_call(cpu - 1, run_set_here, set);
}

/* The line an instruction's process prints without UMIP, or "" for SMSW (the boot CPU's
 * machine status word is the reference). */
static void expected_line(unsigned cpu, unsigned insn, char *line)
{
	line[0] = '\0';
	if (insn == INSN_SIDT)
		format_buf(line, LINE_BYTES, "leak: sidt base=0x%llx limit=0x%x\n",
			   (unsigned long long)cpu_idt_alias(),
			   (unsigned)sizeof(cpu_tables->idt) - 1);
	else if (insn == INSN_SGDT)
		format_buf(line, LINE_BYTES, "leak: sgdt base=0x%llx limit=0x%x\n",
			   (unsigned long long)cpu_gdt_alias_of(cpu),
			   (unsigned)sizeof(cpu_tables->gdt) - 1);
	else if (insn == INSN_SLDT)
		format_buf(line, LINE_BYTES, "leak: sldt selector=0x0\n");
	else if (insn == INSN_STR)
		format_buf(line, LINE_BYTES, "leak: str selector=0x%x\n", (unsigned)TSS_SEL);
}

/* Up to SHOWN_BYTES of p, newlines as '|', NUL-terminated, for the console. */
static const char *shown(char *dst, const char *p, size_t len)
{
	size_t n = len < SHOWN_BYTES ? len : SHOWN_BYTES;
	for (size_t i = 0; i < n; i++)
		dst[i] = p[i] == '\n' ? '|' : p[i];
	dst[n] = '\0';
	return dst;
}

static bool same_bytes(unsigned cpu, const char *what, const char *got, size_t got_len,
		       const char *want, size_t want_len)
{
	size_t at = 0;
	while (at < got_len && at < want_len && got[at] == want[at])
		at++;
	if (at == got_len && at == want_len)
		return true;
	char a[SHOWN_BYTES + 1], b[SHOWN_BYTES + 1];
	kprintf("# cpu %u, %s: differs at byte %u: got \"%s\", want \"%s\"\n", cpu, what,
		(unsigned)at, shown(a, got + at, got_len - at), shown(b, want + at, want_len - at));
	return false;
}

/* The view minus its first line, once that line is checked to name the process's pid. */
static bool view_after_pid(unsigned cpu, const struct ring3_set *set, const char **rest,
			   size_t *len)
{
	char line[LINE_BYTES];
	size_t n = format_buf(line, sizeof(line), "leak: pid=%u caps=0\n", set->pid[RUN_VIEW]);
	const struct proc_output *o = &set->out[RUN_VIEW];
	if (!same_bytes(cpu, "view's pid line", o->buf, o->len < n ? o->len : n, line, n))
		return false;
	*rest = o->buf + n;
	*len = o->len - n;
	return true;
}

static bool judge(unsigned cpu, const struct ring3_set *set)
{
	bool ok = true;
	int killed = arch_umip_enabled() ? PROC_KILLED + FAULT_PROTECTION : 0;
	for (unsigned i = 0; i < RUN_COUNT; i++) {
		int want = i < INSN_COUNT ? killed : 0;
		if (set->status[i] != want || set->status[i] != reference.status[i]) {
			kprintf("# cpu %u, %s: exit status 0x%x, want 0x%x\n", cpu, run_names[i],
				(unsigned)set->status[i], (unsigned)want);
			ok = false;
		}
		if (set->out[i].overflowed) {
			kprintf("# cpu %u, %s: more output than %u bytes\n", cpu, run_names[i],
				(unsigned)set->out[i].cap);
			ok = false;
		}
	}
	for (unsigned i = 0; i < INSN_COUNT; i++) {
		char line[LINE_BYTES];
		expected_line(cpu, i, line);
		const struct proc_output *o = &set->out[i], *r = &reference.out[i];
		if (killed || i == INSN_SMSW)
			ok &= same_bytes(cpu, run_names[i], o->buf, o->len, r->buf, r->len);
		else
			ok &= same_bytes(cpu, run_names[i], o->buf, o->len, line, strlen(line));
	}
	const char *view, *want_view;
	size_t len, want_len;
	if (view_after_pid(cpu, set, &view, &len) && view_after_pid(0, &reference, &want_view,
								   &want_len))
		ok &= same_bytes(cpu, "view", view, len, want_view, want_len);
	else
		ok = false;
	const struct proc_output *o = &set->out[RUN_LDT], *r = &reference.out[RUN_LDT];
	return same_bytes(cpu, "ldt", o->buf, o->len, r->buf, r->len) && ok;
}

/* Runs the set on cpu into set; true when every trap from ring 3 landed on cpu's slice of
 * the entry stack and no other CPU's. */
static bool run_and_land(unsigned cpu, struct ring3_set *set, char *view,
			 char (*lines)[LINE_BYTES])
{
	uintptr_t before[CPU_MAX];
	for (unsigned c = 0; c < cpus_listed(); c++)
		before[c] = cpu_entry_percpu(c)->user_entry_sp;
	cpu_entry_percpu(cpu)->user_entry_sp = 0;
	run_set(cpu, set, view, lines);
	bool ok = true;
	for (unsigned c = 0; c < cpus_listed(); c++) {
		uintptr_t got = cpu_entry_percpu(c)->user_entry_sp;
		uintptr_t want = c == cpu ? cpu_entry_stack_top(c) - ENTRY_STACK_FRAME_BYTES
					  : before[c];
		if (got != want) {
			kprintf("# ring 3 on cpu %u: cpu %u's last trap from ring 3 at 0x%llx, "
				"want 0x%llx\n",
				cpu, c, (unsigned long long)got, (unsigned long long)want);
			ok = false;
		}
	}
	return ok;
}

bool smp_view_reference(void)
{
	have_reference = run_and_land(0, &reference, reference_view, reference_lines);
	have_reference &= judge(0, &reference);
	return have_reference;
}

bool smp_view_same_on(unsigned cpu)
{
	if (!have_reference)
		return check_fail("the boot CPU's view, to compare with", 0, 1);
	bool landed = run_and_land(cpu, &tested, tested_view, tested_lines);
	return judge(cpu, &tested) && landed;
}

bool smp_view_every_cpu(void)
{
	for (unsigned cpu = 0; cpu < cpus_listed(); cpu++)
		cpu_entry_percpu(cpu)->user_entry_sp = 0;
	bool ok = smp_view_reference();
	for (unsigned ap = 0; ap < smp_state()->aps_wanted; ap++)
		ok &= smp_view_same_on(1 + ap);
	/* Each CPU's entry stack shows where its own last trap from ring 3 landed: none that the
	 * loop above left out has one. */
	for (unsigned cpu = 0; cpu < cpus_listed(); cpu++) {
		uintptr_t got = cpu_entry_percpu(cpu)->user_entry_sp;
		uintptr_t want = cpu_entry_stack_top(cpu) - ENTRY_STACK_FRAME_BYTES;
		if (got != want)
			ok = check_fail("a trap from ring 3 on every CPU's own entry stack", got,
					want);
	}
	return ok;
}
