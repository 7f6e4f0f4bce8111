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

/* The user window: programs are linked at USER_BASE (kernel/user/user.ld); the stack grows
 * down from USER_TOP. Nothing else in the lower half is mapped. */
#define USER_BASE 0x00400000
#define USER_PAGES 16
#define USER_TOP (USER_BASE + USER_PAGES * PAGE_SIZE)

#endif
