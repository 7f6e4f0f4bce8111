/*
 * The ACPI Root System Description Pointer and where a BIOS leaves it (ACPI 6.5, 5.2.5): the
 * first KiB of the EBDA, whose real-mode segment the BIOS data area holds at 0x40e, and the
 * BIOS ROM [0xe0000, 0x100000), on 16-byte boundaries. boot/acpi_rsdp.c searches there for a
 * Multiboot 2 kernel started through Multiboot 1, which carries no RSDP. Offsets in bytes.
 */
#ifndef KSLIDE_PROTOCOL_ACPI_RSDP_H
#define KSLIDE_PROTOCOL_ACPI_RSDP_H

#include "include/protocol/number.h"

#define ACPI_BDA_EBDA_SEGMENT 0x40e
#define ACPI_EBDA_SEARCH      1024
#define ACPI_BIOS_ROM_START   PROTOCOL_U(0xe0000)
#define ACPI_BIOS_ROM_END     PROTOCOL_U(0x100000)
#define ACPI_RSDP_ALIGN	      16

#define ACPI_RSDP_SIGNATURE "RSD PTR " /* 8 bytes, no NUL */
#define ACPI_RSDP_REVISION  15
#define ACPI_RSDP_LENGTH    20 /* revision 2 and later: the whole structure's length */
#define ACPI_RSDP_V1_BYTES  20 /* what the ACPI 1.0 checksum covers */
#define ACPI_RSDP_V2_BYTES  36 /* the ACPI 2.0 structure, covered by the extended checksum */

#endif
