/*
 * Multiboot 1 information translated into the Multiboot 2 information GRUB's multiboot2 would
 * give, for a Multiboot 2-only kernel whose packed image a Multiboot 1 loader started (QEMU's
 * -kernel speaks only Multiboot 1; the image always carries that header too).
 */
#ifndef KSLIDE_BOOT_MULTIBOOT1_TO_2_H
#define KSLIDE_BOOT_MULTIBOOT1_TO_2_H

#include <stdint.h>

#include "boot/bootenv.h"
#include "boot/mapping.h"

/*
 * From the Multiboot 1 information at info_addr (already checked by multiboot1_parse), build
 * in memory from lend, 8-byte aligned, the Multiboot 2 information, tags in GRUB's order and
 * each 8-byte aligned: command line (without the image path a Multiboot 1 loader puts first,
 * which GRUB's multiboot2 never gives), boot loader name, one tag per module (its string as
 * the loader gave it), basic meminfo, the memory map (24-byte entries), the ACPI RSDP found
 * in the EBDA or BIOS ROM (the old tag for revision 0, else the new one), the end tag; each
 * only when its source is there. KS_OK with *out its address, or an error with *why.
 */
int multiboot1_to_2(const struct phys_reader *mem, uint32_t info_addr, memory_lender lend,
		    uint64_t *out, const char **why);

#endif
