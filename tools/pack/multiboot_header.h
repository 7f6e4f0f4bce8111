/*
 * What a Multiboot kernel asks of its boot loader in its own header(s), read by the packer so
 * that the packed image's headers ask the same (the kernel's header is dead bytes once it is
 * a payload). Multiboot 0.6.96 section 3.1 and Multiboot2 2.0 section 3.1 are the specs.
 */
#ifndef KSLIDE_TOOLS_PACK_MULTIBOOT_HEADER_H
#define KSLIDE_TOOLS_PACK_MULTIBOOT_HEADER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "include/kslide/image.h"
#include "include/protocol/multiboot1.h"
#include "include/protocol/multiboot2.h"

struct multiboot_requests {
	bool mb1; /* the kernel has a Multiboot 1 header */
	uint32_t mb1_flags;
	uint32_t mb1_video[MB1_HEADER_VIDEO_FIELDS]; /* when mb1_flags has the video bit */

	bool mb2; /* the kernel has a Multiboot 2 header */
	/* Its tags that the image's header repeats, each padded to 8 bytes. */
	uint8_t mb2_tags[KSLIDE_MB2_KERNEL_TAGS_ROOM];
	size_t mb2_tags_size;
	size_t mb2_dropped; /* optional tags kslide cannot honour, left out */
	uint16_t mb2_dropped_type; /* the first of them, for the warning */
	const char *mb2_dropped_name;

	/* A Multiboot2 relocatable tag: the kernel's own bounds on its physical placement. */
	bool bounded;
	uint64_t min_addr; /* lowest base */
	uint64_t max_end;  /* the image must end at or below this address */
	uint64_t align;

	bool entry_given; /* a Multiboot2 entry address tag: the physical entry point */
	uint32_t entry_addr;

	/* Set when the header asks for something relocation cannot give (a fixed load address,
	 * an unknown required feature): the multiboot handoff must refuse the kernel. */
	char refusal[256];
};

/* Offset of a Multiboot 1 header (magic, flags, checksum summing to 0) where loaders look
 * for one (MB1_SEARCH), or -1. */
long multiboot1_header_find(const uint8_t *file, size_t len);

/* Offset of a Multiboot 2 header (magic, arch, length, checksum summing to 0) where loaders
 * look for one (MB2_SEARCH), or -1. */
long multiboot2_header_find(const uint8_t *file, size_t len);

/*
 * Look for the headers in the kernel file's first bytes, as loaders do, and read what they
 * ask. Returns 0 (with r->refusal set when a request cannot be honoured), or -1 with a
 * message for a header that is malformed.
 */
int multiboot_requests_read(const uint8_t *file, size_t len, struct multiboot_requests *r,
			    char *err, size_t err_cap);

/*
 * Make the image's stub headers ask what the kernel asked. The image always carries a
 * Multiboot 1 header, which the stub translates from for a Multiboot 2-only kernel; a
 * Multiboot 2 header only when the kernel has one (a Multiboot 1-only kernel's image is
 * started by Multiboot 1 loaders only, as the kernel itself). 0, or -1 with a message.
 */
int multiboot_requests_apply(uint8_t *image, size_t stub_size, const struct multiboot_requests *r,
			     char *err, size_t err_cap);

#endif
