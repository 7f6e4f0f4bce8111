/*
 * PVH, the x86/HVM direct boot ABI: how Xen, QEMU (-kernel with an ELF), Firecracker and Cloud
 * Hypervisor start an ELF kernel. The kernel names its 32-bit entry in an ELF note; the
 * monitor loads the ELF's PT_LOAD segments at their physical addresses and enters there in
 * 32-bit protected mode, paging off, with EBX = the physical address of struct
 * hvm_start_info. Layout from Xen's public header xen/include/public/arch-x86/hvm/start_info.h
 * (the same copy is QEMU's include/hw/xen/start_info.h), the note from
 * xen/include/public/elfnote.h. All fields are little-endian; offsets are in bytes. The stub's
 * parser (boot/pvh.c), its entry (boot/x86_64/pvh_header.S) and the container
 * (tools/pack/container_pvh.c) take them from here.
 */
#ifndef KSLIDE_PROTOCOL_PVH_H
#define KSLIDE_PROTOCOL_PVH_H

#include "include/protocol/number.h"

/* The ELF note: owner "Xen", type 18, its descriptor the 32-bit entry's physical address. */
#define XEN_ELFNOTE_PHYS32_ENTRY 18
#define PVH_NOTE_NAME		 "Xen"
#define PVH_NOTE_NAME_SIZE	 4 /* "Xen" and its NUL */

/* struct hvm_start_info ("xEn3" with the 0x80 bit of the "E" set). */
#define PVH_START_MAGIC		 PROTOCOL_U(0x336ec578)
#define PVH_START_MAGIC_AT	 0
#define PVH_START_VERSION	 4 /* 0 or 1; "new versions are backwards-compatible" */
#define PVH_START_FLAGS		 8
#define PVH_START_NR_MODULES	 12
#define PVH_START_MODLIST_PADDR	 16
#define PVH_START_CMDLINE_PADDR	 24
#define PVH_START_RSDP_PADDR	 32
#define PVH_START_SIZE_V0	 40
#define PVH_START_MEMMAP_PADDR	 40 /* version 1 and newer */
#define PVH_START_MEMMAP_ENTRIES 48
#define PVH_START_SIZE_V1	 56 /* a reserved word ends it */
#define PVH_START_VERSION_MAX	 1  /* the newest version the stub knows */

/* The module list: one entry per module, the first one Linux's initrd. */
#define PVH_MODULE_PADDR	 0
#define PVH_MODULE_SIZE_AT	 8
#define PVH_MODULE_CMDLINE_PADDR 16
#define PVH_MODULE_SIZE		 32

/* The memory map: e820-like entries. */
#define PVH_MEMMAP_ADDR		 0
#define PVH_MEMMAP_SIZE_AT	 8
#define PVH_MEMMAP_TYPE		 16
#define PVH_MEMMAP_ENTRY_SIZE	 24
#define PVH_MEMMAP_TYPE_RAM	 1
#define PVH_MEMMAP_TYPE_RESERVED 2
#define PVH_MEMMAP_TYPE_ACPI	 3
#define PVH_MEMMAP_TYPE_NVS	 4
#define PVH_MEMMAP_TYPE_UNUSABLE 5
#define PVH_MEMMAP_TYPE_DISABLED 6
#define PVH_MEMMAP_TYPE_PMEM	 7

#endif
