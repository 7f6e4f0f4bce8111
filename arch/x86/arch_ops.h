/* The real hardware behind lib/arch.h, for code running on an x86 CPU. */
#ifndef KSLIDE_ARCH_X86_ARCH_OPS_H
#define KSLIDE_ARCH_X86_ARCH_OPS_H

#include "lib/arch.h"

extern const struct arch_ops x86_arch_ops;

/* Random words a firmware handed over before the stub took the machine (UEFI's
 * EFI_RNG_PROTOCOL: boot/efi_rng.c fills them before ExitBootServices), served once each,
 * and wiped as they are, by the firmware_rng32 hook. None in the kernel or on other ways in. */
#define ARCH_FIRMWARE_RNG_WORDS 8
extern uint32_t arch_firmware_rng[ARCH_FIRMWARE_RNG_WORDS];
extern uint32_t arch_firmware_rng_words; /* how many of them the firmware gave */

#endif
