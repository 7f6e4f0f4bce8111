/* The stub's policy, called once by the per-arch entry code. */
#ifndef KSLIDE_BOOT_STUB_H
#define KSLIDE_BOOT_STUB_H

#include <stdint.h>

#include "boot/entry.h"
#include "boot/handoff.h"
#include "include/kslide/bootinfo.h"

/* What the stub did, filled by stub_main; handoffs pass it on (boot/handoff_kslide.c). */
extern struct kslide_bootinfo boot_info;

/*
 * Called once by the entry code with what its loader gave: choose the kernel's base, move
 * and relocate it, fill boot_info, and let the image's handoff decide the kernel's registers.
 * Returns them for the entry code to load and jump with, or NULL when the kernel must not run
 * (the reason has been printed).
 */
const struct entry_regs *stub_main(const struct boot_entry *entry);

#endif
