/*
 * User processes: a program image run in ring 3 in its own address space with a set of
 * capabilities, to completion, on a CPU chosen by number (kernel/cpu/cpu_tables.h: 0 is the boot
 * CPU): the boot CPU runs it itself or hands it to that AP and waits (kernel/smp/smp_call.c). One
 * runs at a time in the whole machine and nothing preempts it; that is all the leak tests need,
 * and it keeps the kernel without a scheduler.
 */
#ifndef KSLIDE_KERNEL_PROC_PROC_H
#define KSLIDE_KERNEL_PROC_PROC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "kernel/proc/cred.h"

/* A program linked at USER_BASE (kernel/layout.h, kernel/user/), embedded in the kernel. */
struct user_program {
	const char *name;
	const uint8_t *start, *end;
};

extern const struct user_program user_program_leak;

/* Exit statuses of killed processes: PROC_KILLED + the fault kind. */
#define PROC_KILLED 0x100
enum fault_kind {
	FAULT_KERNEL_ADDRESS = 1, /* touched the kernel half: also an oops */
	FAULT_USER_ADDRESS = 2,   /* touched an unmapped user address */
	FAULT_PROTECTION = 3,     /* general protection (a privileged or UMIP instruction) */
	FAULT_OTHER = 4,          /* any other exception */
};

/* Where a process's console writes go when the kernel keeps them to compare instead of
 * printing them: buf, cap bytes; len counts what was written, overflowed says some did not
 * fit. */
struct proc_output {
	char *buf;
	size_t cap, len;
	bool overflowed;
};

/* Runs prog with caps on CPU cpu, passing a0 and a1, its writes to the console or, when out
 * is not NULL, into out; returns its exit status, or PROC_KILLED + kind, or -1 when it could
 * not be started (no such CPU online, or no memory). Only the boot CPU calls it. */
int proc_run_on(unsigned cpu, const struct user_program *prog, uint32_t caps, uintptr_t a0,
		uintptr_t a1, struct proc_output *out);
/* proc_run_on the CPU that calls it, whichever that is (an AP doing work the boot CPU handed
 * it, kernel/smp/smp.h). */
int proc_run_here(const struct user_program *prog, uint32_t caps, uintptr_t a0, uintptr_t a1,
		  struct proc_output *out);
/* proc_run_on the CPU processes are pinned to (the boot CPU unless proc_pin said otherwise),
 * writing to the console. */
int proc_run(const struct user_program *prog, uint32_t caps, uintptr_t a0, uintptr_t a1);
/* Pin every later proc_run to CPU cpu; false (and nothing changed) when it is not online. */
bool proc_pin(unsigned cpu);
unsigned proc_pinned_cpu(void);
/* The pid the last process started had. */
unsigned proc_last_pid(void);
/* A system call's write: to the console, or into the running process's kept output. */
void proc_write(const char *p, size_t len);

/* The running process's credentials; NULL outside any process. */
const struct cred *proc_current_cred(void);
/* Only from a system call: drop capabilities for the rest of the process's life. */
uint32_t proc_drop_caps(uint32_t mask);
unsigned proc_current_pid(void);

__attribute__((noreturn)) void proc_exit(int status);

/* A fault in ring 3: logged, counted as an oops when it touched the kernel, and the process
 * killed. vector is the arch's exception number, for the log only. */
__attribute__((noreturn)) void proc_user_fault(enum fault_kind kind, uintptr_t addr,
					       uintptr_t ip);

#endif
