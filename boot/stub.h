/* The stub's policy, called once by the per-arch entry code. */
#ifndef KSLIDE_BOOT_STUB_H
#define KSLIDE_BOOT_STUB_H

#include <stdint.h>

#include "include/kslide/bootinfo.h"

/* Filled by stub_main; the entry code hands its address to the kernel in EBX. */
extern struct kslide_bootinfo boot_info;

/*
 * Choose the kernel's base, move and relocate it, fill boot_info. Returns the kernel's
 * physical entry point, or 0 when it must not run (the reason has been printed).
 */
uint32_t stub_main(uint32_t loader_magic, uint32_t loader_info);

#endif
