/* Processes: create an address space, enter ring 3, collect the status. */
#include <stddef.h>

#include "kernel/arch.h"
#include "kernel/oops.h"
#include "kernel/printk.h"
#include "kernel/proc.h"

struct proc {
	unsigned pid;
	const char *name;
	struct cred cred;
};

static struct proc *current;
static unsigned next_pid = 1;

int proc_run(const struct user_program *prog, uint32_t caps, uintptr_t a0, uintptr_t a1)
{
	size_t len = (size_t)(prog->end - prog->start);
	struct arch_space *space = arch_space_create(prog->start, len);
	if (!space)
		return -1;
	struct proc p = { .pid = next_pid++, .name = prog->name, .cred = { .caps = caps } };
	current = &p;
	int status = arch_user_run(space, a0, a1);
	current = NULL;
	arch_space_destroy(space);
	return status;
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
