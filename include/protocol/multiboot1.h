/*
 * Multiboot 0.6.96 (the GNU Multiboot Specification): the header a kernel carries, section
 * 3.1, and the boot information its loader hands over, section 3.3. The stub's own header
 * (boot/x86/multiboot1_header.S), its parser (boot/multiboot1.c), the pass-through
 * (boot/handoff_multiboot.c) and the tools (tools/pack/, tools/stat/) all take them from here.
 * Offsets are in bytes.
 */
#ifndef KSLIDE_PROTOCOL_MULTIBOOT1_H
#define KSLIDE_PROTOCOL_MULTIBOOT1_H

#include "include/protocol/number.h"

#define MB1_HEADER_MAGIC     PROTOCOL_U(0x1BADB002)
#define MB1_BOOTLOADER_MAGIC PROTOCOL_U(0x2BADB002) /* in EAX at entry */
#define MB1_SEARCH	     8192		    /* the header lies in the file's first 8 KiB, */
#define MB1_HEADER_ALIGN     4			    /* 4-byte aligned */

/* The header's flags: bits 0-15 are requirements a loader must understand, 16-31 optional. */
#define MB1_PAGE_ALIGN	  (PROTOCOL_U(1) << 0)	/* modules page aligned */
#define MB1_MEMORY_INFO	  (PROTOCOL_U(1) << 1)	/* mem_* and the memory map */
#define MB1_VIDEO_MODE	  (PROTOCOL_U(1) << 2)	/* the graphics fields are valid */
#define MB1_AOUT_KLUDGE	  (PROTOCOL_U(1) << 16) /* load by the address fields, not as ELF */
#define MB1_REQUIRED_MASK PROTOCOL_U(0xffff)

/* The header's fields. */
#define MB1_HEADER_FLAGS	4
#define MB1_HEADER_CHECKSUM	8  /* magic + flags + checksum == 0 (mod 2^32) */
#define MB1_HEADER_MIN		12 /* magic, flags, checksum */
#define MB1_HEADER_HEADER_ADDR	12 /* the address fields, with MB1_AOUT_KLUDGE */
#define MB1_HEADER_LOAD_ADDR	16
#define MB1_HEADER_LOAD_END	20
#define MB1_HEADER_BSS_END	24
#define MB1_HEADER_ENTRY	28
#define MB1_HEADER_VIDEO	32 /* mode_type, width, height, depth, with MB1_VIDEO_MODE */
#define MB1_HEADER_VIDEO_FIELDS 4
#define MB1_HEADER_SIZE		(MB1_HEADER_VIDEO + 4 * MB1_HEADER_VIDEO_FIELDS)

/* The boot information's flags: which fields are valid. */
#define MB1_INFO_MEM	     (PROTOCOL_U(1) << 0) /* mem_lower, mem_upper */
#define MB1_INFO_CMDLINE     (PROTOCOL_U(1) << 2) /* cmdline */
#define MB1_INFO_MODS	     (PROTOCOL_U(1) << 3) /* mods_count, mods_addr */
#define MB1_INFO_AOUT_SYMS   (PROTOCOL_U(1) << 4) /* a.out symbol table */
#define MB1_INFO_ELF_SHDR    (PROTOCOL_U(1) << 5) /* ELF section headers */
#define MB1_INFO_MMAP	     (PROTOCOL_U(1) << 6) /* mmap_length, mmap_addr */
#define MB1_INFO_LOADER_NAME (PROTOCOL_U(1) << 9) /* boot_loader_name */

/* The boot information's fields. */
#define MB1_INFO_FLAGS		  0
#define MB1_INFO_MEM_UPPER	  8
#define MB1_INFO_CMDLINE_ADDR	  16
#define MB1_INFO_MODS_COUNT	  20
#define MB1_INFO_MODS_ADDR	  24
#define MB1_INFO_MMAP_LENGTH	  44
#define MB1_INFO_MMAP_ADDR	  48
#define MB1_INFO_LOADER_NAME_ADDR 64
#define MB1_INFO_SIZE		  116 /* through the framebuffer fields (flags bit 12) */
#define MB1_MODULE_SIZE		  16  /* mod_start, mod_end, string, reserved */
#define MB1_MMAP_ENTRY_MIN	  20  /* base_addr, length, type after the size field */

#endif
