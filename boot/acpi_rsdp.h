/*
 * Find the ACPI RSDP the standard way, as GRUB does on a BIOS machine for its Multiboot 2 ACPI
 * tags: Multiboot 1 information carries none, and a Multiboot 2 kernel started through it
 * still expects one (boot/multiboot1_to_2.c).
 */
#ifndef KSLIDE_BOOT_ACPI_RSDP_H
#define KSLIDE_BOOT_ACPI_RSDP_H

#include <stdint.h>

#include "boot/bootenv.h"

/*
 * The first RSDP in the EBDA's first KiB, else in the BIOS ROM, whose checksum (and, from
 * revision 2, extended checksum over its length) holds: its address and the bytes a copy
 * takes (20 for revision 0, its length from revision 2) in *size. 0 when there is none.
 */
uint64_t acpi_rsdp_find(const struct phys_reader *mem, uint32_t *size);

#endif
