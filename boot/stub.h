/* The stub's policy, called once by the per-arch entry code. */
#ifndef KSLIDE_BOOT_STUB_H
#define KSLIDE_BOOT_STUB_H

#include <stdint.h>

#include "include/kslide/bootinfo.h"

/* Filled by stub_main; the entry code hands its address to the kernel in EBX. */
extern struct kslide_bootinfo boot_info;

/*
 * Choose the kernel's base, move and relocate it, fill boot_info. Returns the address to
 * enter the kernel at (physical on i386, virtual on x86-64: boot/handoff.h), or 0 when it
 * must not run (the reason has been printed).
 */
uintptr_t stub_main(uint32_t loader_magic, uint32_t loader_info);

#endif
