/*
 * Linux's bzImage as a boot loader sees it: the real-mode setup header (Linux's
 * Documentation/arch/x86/boot.rst, "The Real-Mode Kernel Header"; field offsets as in
 * arch/x86/boot/header.S) and where the compressed payload lies. Pure: no libraries.
 */
#ifndef KSLIDE_TOOLS_PACK_BZIMAGE_H
#define KSLIDE_TOOLS_PACK_BZIMAGE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "include/protocol/linux_boot.h"

/* The header starts at setup_sects; its end is 0x202 plus the jump at 0x200's signed offset,
 * which is at most 0x7f: the header never reaches past 0x281. */
#define BZIMAGE_HEADER_OFFSET 0x1f1u
#define BZIMAGE_HEADER_MAX_BYTES (0x202u + 0x7fu - BZIMAGE_HEADER_OFFSET)

/* Protocol versions, (major << 8) | minor: what kslide needs, and when fields appeared. */
#define BZIMAGE_PROTOCOL_PAYLOAD 0x0208u /* payload_offset, payload_length */
#define BZIMAGE_PROTOCOL_PREF 0x020au	 /* pref_address, init_size, min_alignment */
#define BZIMAGE_PROTOCOL_XLOADFLAGS 0x020cu

/* loadflags and xloadflags: include/protocol/linux_boot.h */

/*
 * What the handoff needs of a bzImage: its setup header as the file has it (for the zero
 * page, whose hdr field is these bytes at the same offsets), and the fields parsed. Fields a
 * protocol version predates are 0.
 */
struct bzimage_header {
	uint8_t bytes[BZIMAGE_HEADER_MAX_BYTES]; /* file bytes 0x1f1 up to the header's end */
	uint32_t size;				 /* how many of them: 0x202 + jump offset - 0x1f1 */
	uint16_t version;			 /* boot protocol, 0x020f for 2.15 */
	uint8_t setup_sects;			 /* 512-byte sectors of setup after the boot sector */
	uint8_t loadflags;
	uint8_t relocatable_kernel;
	uint8_t min_alignment_log2; /* 2.10+: the alignment Linux requires, log2 */
	uint16_t xloadflags;	    /* 2.12+ */
	uint32_t kernel_alignment;  /* 2.05+: the alignment Linux prefers */
	uint32_t initrd_addr_max;   /* 2.03+: highest address of the initrd's last byte */
	uint32_t cmdline_size;	    /* 2.06+: without the terminating NUL */
	uint64_t pref_address;	    /* 2.10+ */
	uint32_t init_size;	    /* 2.10+: memory from the load address Linux needs to start */
	uint32_t handover_offset;   /* 2.11+: EFI handover entry */
	uint32_t kernel_info_offset; /* 2.15+ */
	uint64_t setup_bytes;	     /* real-mode part: (setup_sects or 4, plus 1) * 512 */
	uint64_t payload_offset;     /* in the file: setup_bytes + the header's payload_offset */
	uint64_t payload_length;
};

/* Whether the file starts like a bzImage: boot flag 0xAA55 and "HdrS" at 0x202. */
bool bzimage_detect(const uint8_t *file, size_t len);

/*
 * Parse and check the setup header of file (len bytes): a protocol new enough to name its
 * payload, a relocatable kernel, a payload inside the file. 0, or -1 with a message in err.
 */
int bzimage_parse(const uint8_t *file, size_t len, struct bzimage_header *h, char *err,
		  size_t err_cap);

#endif
