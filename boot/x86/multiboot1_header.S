/*
 * The Multiboot (v1) header both stubs start with. The stub is a flat binary, so the a.out
 * kludge fields tell the loader where to put it; kslide-pack extends load_end and bss_end
 * over the payload it appends. The loader enters stub_entry in 32-bit protected mode, paging
 * off (Multiboot spec, "Machine state"), with EAX = 0x2BADB002 and EBX = the info's address.
 * The graphics fields are zero; kslide-pack fills them (and sets flags bit 2) when a packed
 * Multiboot kernel asks its loader for a video mode.
 */
#include "include/protocol/multiboot1.h"

/* Page-aligned modules, mem_* and the memory map, loaded by the address fields below. */
#define MULTIBOOT_FLAGS (MB1_PAGE_ALIGN | MB1_MEMORY_INFO | MB1_AOUT_KLUDGE)

	.section .multiboot, "a"
	.p2align 2
	.globl multiboot_header
multiboot_header:
	.long MB1_HEADER_MAGIC
	.long MULTIBOOT_FLAGS
	.long -(MB1_HEADER_MAGIC + MULTIBOOT_FLAGS)
	.long multiboot_header /* header_addr */
	.long _image_start     /* load_addr */
	.long _stub_end        /* load_end_addr: kslide-pack extends it over the payload */
	.long _stub_end        /* bss_end_addr: likewise */
	.long stub_entry       /* entry_addr */
	.long 0                /* mode_type, width, height, depth: see above */
	.long 0
	.long 0
	.long 0
