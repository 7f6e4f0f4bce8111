/*
 * What ring 3 sees on a CPU (numbered as in kernel/cpu/cpu_tables.h) against what it sees on the
 * boot CPU (kernel/selftest/smp_view.c), for selftest=leak, smp and suspend.
 */
#ifndef KSLIDE_KERNEL_SELFTEST_SMP_VIEW_H
#define KSLIDE_KERNEL_SELFTEST_SMP_VIEW_H

#include <stdbool.h>

/* smp_view_reference runs the leak program's unprivileged set on the boot CPU and keeps what
 * it printed; smp_view_same_on runs it on cpu and compares; smp_view_every_cpu does both for
 * every CPU the MADT lists. Each prints what differs. */
bool smp_view_reference(void);
bool smp_view_same_on(unsigned cpu);
bool smp_view_every_cpu(void);

#endif
