/*
 * Ring 0's deliberate touches of ring-3 memory (the system calls' copies, kernel/proc/syscall.c)
 * go between user_access_begin and user_access_end. Where the CPU has SMAP, cpu_load sets CR4.SMAP
 * and any other ring-0 access to a user page faults (Intel SDM Vol. 3A, 4.6.1 "Determination of
 * Access Rights"); these set and clear EFLAGS.AC, which alone lets such an access through. STAC and
 * CLAC are #UD on a CPU without SMAP, hence the flag.
 */
#ifndef KSLIDE_KERNEL_CPU_USER_ACCESS_H
#define KSLIDE_KERNEL_CPU_USER_ACCESS_H

#include <stdbool.h>

/* kernel/cpu/cpu_tables.c: CR4.SMAP is set (on every CPU alike: cpu_load asks CPUID). */
extern bool user_access_smap;

static inline void user_access_begin(void)
{
	if (user_access_smap)
		__asm__ volatile("stac" : : : "memory", "cc");
}

static inline void user_access_end(void)
{
	if (user_access_smap)
		__asm__ volatile("clac" : : : "memory", "cc");
}

#endif
