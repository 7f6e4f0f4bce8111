/*
 * Multiboot2 2.0 (the Multiboot2 Specification): the header a kernel carries, section 3.1,
 * and the boot information its loader hands over, section 3.6. Shared by the stub's header
 * (boot/x86/multiboot2_header.S), its parser (boot/multiboot2.c), the pass-through
 * (boot/handoff_multiboot.c) and the tools (tools/pack/). Offsets are in bytes.
 */
#ifndef KSLIDE_PROTOCOL_MULTIBOOT2_H
#define KSLIDE_PROTOCOL_MULTIBOOT2_H

#include "include/protocol/number.h"

#define MB2_HEADER_MAGIC     PROTOCOL_U(0xE85250D6)
#define MB2_BOOTLOADER_MAGIC PROTOCOL_U(0x36d76289) /* in EAX at entry */
#define MB2_SEARCH	     32768 /* the header lies in the file's first 32 KiB, */
#define MB2_HEADER_ALIGN     8	   /* 8-byte aligned */
#define MB2_ARCH_I386	     0	   /* 32-bit protected mode */

/* The header: magic, architecture, header_length, checksum, then tags. */
#define MB2_HEADER_ARCH	    4
#define MB2_HEADER_LENGTH   8
#define MB2_HEADER_CHECKSUM 12 /* the four words sum to 0 (mod 2^32) */
#define MB2_HEADER_FIXED    16

/* Tags, in the header and in the information alike: u16 type, u16 flags (header) or u32 type
 * (information), u32 size, padded to 8 bytes. */
#define MB2_TAG_HEADER	 8
#define MB2_TAG_ALIGN	 8
#define MB2_TAG_OPTIONAL PROTOCOL_U(1) /* in a header tag's flags */

/* Header tag types. */
#define MB2_HEADER_TAG_END	       0
#define MB2_HEADER_TAG_INFO_REQUEST    1
#define MB2_HEADER_TAG_ADDRESS	       2
#define MB2_HEADER_TAG_ENTRY	       3
#define MB2_HEADER_TAG_CONSOLE	       4
#define MB2_HEADER_TAG_FRAMEBUFFER     5
#define MB2_HEADER_TAG_MODULE_ALIGN    6
#define MB2_HEADER_TAG_EFI_BS	       7
#define MB2_HEADER_TAG_EFI_I386_ENTRY  8
#define MB2_HEADER_TAG_EFI_AMD64_ENTRY 9
#define MB2_HEADER_TAG_RELOCATABLE     10

/* The address tag's fields (the flat-image load, as Multiboot 1's a.out kludge). */
#define MB2_ADDRESS_HEADER_ADDR 8
#define MB2_ADDRESS_LOAD_ADDR	12
#define MB2_ADDRESS_LOAD_END	16
#define MB2_ADDRESS_BSS_END	20
#define MB2_ADDRESS_SIZE	24
/* The entry address tag's. */
#define MB2_ENTRY_ADDR 8
/* The relocatable tag's. */
#define MB2_RELOCATABLE_MIN   8
#define MB2_RELOCATABLE_MAX   12
#define MB2_RELOCATABLE_ALIGN 16
#define MB2_RELOCATABLE_PREFERENCE 20
#define MB2_RELOCATABLE_SIZE  24
#define MB2_RELOCATABLE_PREFER_LOW 1 /* the lowest address from min_addr up */

/* The information: total_size, reserved, then tags. */
#define MB2_INFO_HEADER 8

/* Information tag types. */
#define MB2_INFO_TAG_END	   0
#define MB2_INFO_TAG_CMDLINE	   1
#define MB2_INFO_TAG_LOADER_NAME   2
#define MB2_INFO_TAG_MODULE	   3
#define MB2_INFO_TAG_BASIC_MEMINFO 4
#define MB2_INFO_TAG_MMAP	   6
#define MB2_INFO_TAG_ELF_SECTIONS  9
#define MB2_INFO_TAG_EFI32	   11
#define MB2_INFO_TAG_EFI64	   12
#define MB2_INFO_TAG_ACPI_OLD	   14 /* a copy of the ACPI 1.0 RSDP */
#define MB2_INFO_TAG_ACPI_NEW	   15 /* a copy of the ACPI 2.0+ RSDP (the XSDP) */
#define MB2_INFO_TAG_EFI_MMAP	   17
#define MB2_INFO_TAG_EFI_BS	   18 /* "EFI boot services not terminated" */
#define MB2_INFO_TAG_LOAD_BASE	   21 /* "Image load base physical address" */

/* Fields inside information tags. */
#define MB2_STRING_AT	   8 /* cmdline, boot loader name */
#define MB2_MODULE_START   8 /* mod_start, mod_end, then the module's string */
#define MB2_MODULE_STRING  16
#define MB2_MEMINFO_UPPER  12 /* mem_lower, mem_upper (KiB above 1 MiB) */
#define MB2_MAP_ENTRY_SIZE 8  /* mmap and EFI mmap: entry size, version, then the entries */
#define MB2_MAP_ENTRIES	   16
#define MB2_MMAP_ENTRY_MIN 24 /* base_addr, length, type, reserved */
#define MB2_LOAD_BASE_ADDR 8  /* load_base_addr */

#endif
