/*
 * The reference kernel's memory layout: what each architecture fixes (kernel/<arch>/layout.h)
 * and what both share. Safe to include from assembly.
 */
#ifndef KSLIDE_KERNEL_LAYOUT_H
#define KSLIDE_KERNEL_LAYOUT_H

#ifdef __x86_64__
#include "kernel/x86_64/layout.h"
#else
#include "kernel/i386/layout.h"
#endif

#define PAGE_SIZE 4096
#define CR0_WP 0x00010000   /* supervisor writes honour read-only pages */
#define CR4_UMIP 0x00000800 /* SGDT/SIDT/SLDT/SMSW/STR fault outside ring 0 */
#define CR4_SMEP 0x00100000 /* ring 0 cannot fetch from user pages (SDM Vol. 3A, 2.5) */
#define CR4_SMAP 0x00200000 /* ring 0 cannot touch user pages unless EFLAGS.AC is set */
/* What cpu_load sets from CPUID on every start of every CPU: the saved CR4 of the trampoline and
 * the wake path leaves them out, so the one place that sets them is the one place to check. */
#define CR4_FROM_CPUID (CR4_UMIP | CR4_SMEP | CR4_SMAP)

/* The user window: programs are linked at USER_BASE (kernel/user/user.ld); the stack grows
 * down from USER_TOP. Nothing else in the lower half is mapped. */
#define USER_BASE 0x00400000
#define USER_PAGES 16
#define USER_TOP (USER_BASE + USER_PAGES * PAGE_SIZE)

#endif
