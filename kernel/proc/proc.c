/* Processes: create an address space, enter ring 3 on the chosen CPU, collect the status. */
#include <stddef.h>

#include "arch/x86/serial.h"
#include "kernel/arch.h"
#include "kernel/printk.h"
#include "kernel/proc/proc.h"
#include "kernel/secrecy/oops.h"
#include "kernel/smp/smp.h"
#include "kernel/smp/smp_call.h"

struct proc {
	unsigned pid;
	const char *name;
	struct cred cred;
	struct proc_output *out;
};

/* What one run needs, handed to the CPU that runs it. */
struct run {
	const struct user_program *prog;
	uint32_t caps;
	uintptr_t a0, a1;
	struct proc_output *out;
	int status;
};

/* One process in the machine at a time (kernel/smp/smp_call.c), so these need no lock. */
static struct proc *current;
static unsigned next_pid = 1;
static unsigned pinned_cpu;

static void run_here(void *arg)
{
	struct run *r = arg;
	size_t len = (size_t)(r->prog->end - r->prog->start);
	struct arch_space *space = arch_space_create(r->prog->start, len);
	if (!space)
		return;
	struct proc p = { .pid = next_pid++,
			  .name = r->prog->name,
			  .cred = { .caps = r->caps },
			  .out = r->out };
	current = &p;
	r->status = arch_user_run(space, r->a0, r->a1);
	current = NULL;
	arch_space_destroy(space);
}

static int run_on(bool here, unsigned cpu, const struct user_program *prog, uint32_t caps,
		  uintptr_t a0, uintptr_t a1, struct proc_output *out)
{
	struct run r = { .prog = prog, .caps = caps, .a0 = a0, .a1 = a1, .out = out, .status = -1 };
	if (out)
		out->len = 0, out->overflowed = false;
	if (here || cpu == 0)
		run_here(&r);
	else if (!smp_call(cpu - 1, run_here, &r))
		return -1;
	return r.status;
}

int proc_run_on(unsigned cpu, const struct user_program *prog, uint32_t caps, uintptr_t a0,
		uintptr_t a1, struct proc_output *out)
{
	return run_on(false, cpu, prog, caps, a0, a1, out);
}

int proc_run_here(const struct user_program *prog, uint32_t caps, uintptr_t a0, uintptr_t a1,
		  struct proc_output *out)
{
	return run_on(true, 0, prog, caps, a0, a1, out);
}

int proc_run(const struct user_program *prog, uint32_t caps, uintptr_t a0, uintptr_t a1)
{
	return proc_run_on(pinned_cpu, prog, caps, a0, a1, NULL);
}

bool proc_pin(unsigned cpu)
{
	const struct smp_state *s = smp_state();
	if (cpu > 0 && (cpu > s->aps_wanted || !s->ap[cpu - 1].started))
		return false;
	pinned_cpu = cpu;
	return true;
}

unsigned proc_pinned_cpu(void)
{
	return pinned_cpu;
}

unsigned proc_last_pid(void)
{
	return next_pid - 1;
}

void proc_write(const char *p, size_t len)
{
	struct proc_output *out = current ? current->out : NULL;
	for (size_t i = 0; i < len; i++) {
		if (!out)
			serial_putc(0, p[i]);
		else if (out->len < out->cap)
			out->buf[out->len++] = p[i];
		else
			out->overflowed = true;
	}
}

const struct cred *proc_current_cred(void)
{
	return current ? &current->cred : NULL;
}

uint32_t proc_drop_caps(uint32_t mask)
{
	current->cred.caps &= ~mask;
	return current->cred.caps;
}

unsigned proc_current_pid(void)
{
	return current ? current->pid : 0;
}

void proc_exit(int status)
{
	arch_user_exit(status & 0xff);
}

/*
 * The message says what the process did, never what it found: a fault on a kernel address
 * reads the same whether the page is mapped or not (no error code, no page-present bit), so
 * a guess that hits the kernel cannot be told from one that misses. The address and ip are
 * the process's own.
 */
void proc_user_fault(enum fault_kind kind, uintptr_t addr, uintptr_t ip)
{
	unsigned pid = current->pid;
	const char *name = current->name;
	switch (kind) {
	case FAULT_KERNEL_ADDRESS:
		printk("fault: pid %u (%s) touched kernel address 0x%llx at ip 0x%llx: killed\n",
		       pid, name, (unsigned long long)addr, (unsigned long long)ip);
		oops_user(pid);
		break;
	case FAULT_USER_ADDRESS:
		printk("fault: pid %u (%s) touched unmapped address 0x%llx at ip 0x%llx: killed\n",
		       pid, name, (unsigned long long)addr, (unsigned long long)ip);
		break;
	case FAULT_PROTECTION:
		printk("fault: pid %u (%s) general protection at ip 0x%llx: killed\n", pid, name,
		       (unsigned long long)ip);
		break;
	case FAULT_OTHER:
		printk("fault: pid %u (%s) exception at ip 0x%llx: killed\n", pid, name,
		       (unsigned long long)ip);
		break;
	}
	arch_user_exit(PROC_KILLED + (int)kind);
}
