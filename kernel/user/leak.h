/*
 * The leak-test program's modes, shared by kernel/user/leak.c and the kernel side that runs
 * it (kernel/selftest/leak.c). main(mode, arg) receives them in the first two registers.
 */
#ifndef KSLIDE_KERNEL_USER_LEAK_H
#define KSLIDE_KERNEL_USER_LEAK_H

enum leak_mode {
	LEAK_INSN = 1, /* arg: enum leak_insn; run it in ring 3 and print what it returns */
	LEAK_VIEW,     /* everything the system calls show this process, printed "leak: ..." */
	LEAK_SYSLOG,   /* the syslog as this process may read it */
	LEAK_PRIV,     /* a privileged reader: raw addresses, printed "priv: ..." */
	LEAK_SET,      /* arg: LEAK_SET_ARG(sysctl, value): write one sysctl, print the result */
	LEAK_DROP,     /* start privileged, drop everything, check the doors closed */
	LEAK_PROBE,    /* arg: an address to read; the process must be killed */
	LEAK_NOP,      /* nothing: exit 0 (one trap from ring 3, the exit) */
	LEAK_LDT,      /* LAR on LDT selector 4 must clear ZF, not fault */
	LEAK_REGS,     /* every system call: all registers but the result come back unchanged */
	LEAK_BENCH,    /* arg: how many getpid round trips to make, for bench/syscall-cost.sh */
	LEAK_SEGMENTS, /* i386, arg: a selector: system calls with DS and ES null, USER_CS, arg */
};

enum leak_insn { INSN_SIDT, INSN_SGDT, INSN_SLDT, INSN_STR, INSN_SMSW, INSN_COUNT };

enum leak_sysctl { SET_KPTR_RESTRICT, SET_DMESG_RESTRICT, SET_PANIC_ON_OOPS, SET_OOPS_LIMIT };
#define LEAK_SET_ARG(sysctl, value) (((unsigned)(sysctl) << 24) | (unsigned)(value))

/* Exit statuses besides 0 (every check held). */
#define LEAK_EXIT_FAILED 1 /* a check failed; the "# " lines say which */
#define LEAK_EXIT_SURVIVED 2 /* a probe of a kernel address did not kill the process */

#endif
