/* How many CPUs the reference kernel starts (kernel/smp/smp.h); the descriptor-table page and
 * the entry stack page are shared out among them. Safe to include from assembly. */
#ifndef KSLIDE_KERNEL_SMP_SMP_LIMITS_H
#define KSLIDE_KERNEL_SMP_SMP_LIMITS_H

#define CPU_MAX 8
#define CPU_AP_MAX (CPU_MAX - 1)

#endif
