/*
 * Where the kernel finds kslide's boot info, whichever handoff entered it: kslide's own
 * (EAX = KSLIDE_BOOT_MAGIC, EBX = the struct) or the Multiboot pass-through
 * (include/kslide/multiboot.h: ECX and EDX, or a Multiboot 2 tag).
 */
#ifndef KSLIDE_KERNEL_BOOT_ENTRY_H
#define KSLIDE_KERNEL_BOOT_ENTRY_H

#include <stdint.h>

/* ECX and EDX at entry, saved by the arch's entry code (0 on x86-64: kslide's handoff only). */
extern uint32_t boot_ecx, boot_edx;

/*
 * The boot info's physical address from what the entry registers held, or 0 when no handoff
 * of kslide's started the kernel. *how names the way it was found, for the console.
 */
uintptr_t boot_info_locate(uint32_t eax, uintptr_t ebx, const char **how);

/* The stub's own boot info when the Multiboot 2 pass-through also named it in ECX (the
 * kernel read the copy in the tag instead), or 0: a second copy for the kernel to wipe. */
uintptr_t boot_info_second_copy(uint32_t eax);

#endif
