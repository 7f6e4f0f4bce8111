/*
 * What the policy code (kernel/proc/, kernel/secrecy/, kernel/selftest/leak.c, ...) needs from
 * the CPU side: the descriptor tables (kernel/cpu/cpu_tables.c), address spaces
 * (kernel/mm/space.c) and traps (kernel/cpu/trap.c), each over its arch's half in kernel/i386/
 * or kernel/x86_64/.
 * docs/security.md lists the same contract in prose.
 */
#ifndef KSLIDE_KERNEL_ARCH_H
#define KSLIDE_KERNEL_ARCH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "include/kslide/bootinfo.h"

/* The image's text and rodata read-only in the kernel's tables, before anything else maps
 * them (kernel/memory.h lists the parts): i386 builds its tables in head.S, all writable, and
 * clears the writable bit here (kernel/i386/image_protect.c); x86-64's paging_init mapped them
 * so from its first table (nothing left to do). CR0.WP, which arch_cpu_init sets, makes ring 0
 * honour it. */
void arch_image_protect(void);

/* The entry area at a random place (kernel/secrecy/entry_area.h), the descriptor tables in it,
 * the TSS, CR0.WP, CR4.UMIP when the CPU has it, and the frames outside the image that the entry
 * area and user spaces take (kernel/mm/frames.h; space_init, called next, makes the user
 * spaces' pools of them). With pti, ring 3 runs on page tables that map the user window and the
 * entry area only. Called once, early. */
void arch_cpu_init(const struct kslide_bootinfo *bi, bool pti);
bool arch_umip_enabled(void);
/* Where SIDT points (in the entry area), for the boot line. */
uintptr_t arch_idt_alias(void);

/* An address space: the kernel's supervisor-only mappings plus a user window holding a copy
 * of image (loaded at USER_BASE) and a stack. NULL when out of pages. */
struct arch_space;
struct arch_space *arch_space_create(const void *image, size_t len);
void arch_space_destroy(struct arch_space *space);

/* Run space's program from its entry in ring 3 with a0 and a1 in the first two argument
 * registers, until it calls arch_user_exit (from a system call or a fault); returns that
 * status. */
int arch_user_run(struct arch_space *space, uintptr_t a0, uintptr_t a1);
__attribute__((noreturn)) void arch_user_exit(int status);

/* True when [addr, addr + len) lies inside the running process's user window. */
bool arch_user_range(uintptr_t addr, size_t len);
/* True for addresses in the kernel's half of the address space. */
bool arch_is_kernel_address(uintptr_t addr);

#endif
