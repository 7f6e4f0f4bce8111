/*
 * A Multiboot kernel's own header, read and asked again by the packed image (see
 * multiboot_header.h). What the kernel asks is honoured when relocation allows it (memory
 * information, page-aligned modules, a video mode or framebuffer, console flags, more
 * information), bounds the placement when it is a bound (a Multiboot2 relocatable tag), and
 * is refused by name when it conflicts with relocation (fixed load addresses) or is a
 * requirement kslide does not know.
 */
#include <elf.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "lib/unaligned.h"
#include "tools/pack/fail.h"
#include "tools/pack/multiboot_header.h"

/* What kslide can honour of a Multiboot 1 header's requirements. */
#define MB1_KNOWN (MB1_PAGE_ALIGN | MB1_MEMORY_INFO | MB1_VIDEO_MODE)

static void refuse(struct multiboot_requests *r, const char *fmt, ...)
{
	if (r->refusal[0])
		return; /* the first reason is the one to fix first */
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(r->refusal, sizeof(r->refusal), fmt, ap);
	va_end(ap);
}

static uint16_t get16(const uint8_t *p)
{
	return (uint16_t)(p[0] | p[1] << 8);
}

static size_t padded(size_t size)
{
	return (size + MB2_HEADER_ALIGN - 1) & ~(size_t)(MB2_HEADER_ALIGN - 1);
}

long multiboot1_header_find(const uint8_t *f, size_t len)
{
	for (size_t off = 0; off + MB1_HEADER_MIN <= len && off < MB1_SEARCH;
	     off += MB1_HEADER_ALIGN) {
		const uint8_t *h = f + off;
		if (load_le32(h) == MB1_HEADER_MAGIC &&
		    load_le32(h) + load_le32(h + MB1_HEADER_FLAGS) + load_le32(h + MB1_HEADER_CHECKSUM) == 0)
			return (long)off;
	}
	return -1;
}

long multiboot2_header_find(const uint8_t *f, size_t len)
{
	for (size_t off = 0; off + MB2_HEADER_FIXED <= len && off < MB2_SEARCH; off += MB2_HEADER_ALIGN) {
		const uint8_t *h = f + off;
		if (load_le32(h) == MB2_HEADER_MAGIC && load_le32(h) + load_le32(h + 4) + load_le32(h + 8) + load_le32(h + 12) == 0)
			return (long)off;
	}
	return -1;
}

/*
 * An ELF64 kernel's address fields are how QEMU's -kernel loads it at all (it refuses an
 * x86-64 ELF without them); kslide reads its ELF segments instead, and the packed image's
 * own header, the i386 stub's, needs none: they are dead bytes, not a request.
 */
static int read_mb1(const uint8_t *h, size_t room, bool elf64, struct multiboot_requests *r,
		    char *err, size_t err_cap)
{
	uint32_t flags = load_le32(h + MB1_HEADER_FLAGS);
	r->mb1 = true;
	if ((flags & MB1_AOUT_KLUDGE) && !elf64)
		refuse(r, "its Multiboot header asks to be loaded at fixed addresses (flags bit 16, "
			  "the a.out kludge); kslide places the kernel itself: remove the address "
			  "fields and load it as ELF");
	uint32_t unknown = flags & MB1_REQUIRED_MASK & ~MB1_KNOWN;
	if (unknown)
		refuse(r, "its Multiboot header requires flags bit %d, which kslide does not know",
		       __builtin_ctz(unknown));
	r->mb1_flags = flags & MB1_KNOWN;
	if (flags & MB1_VIDEO_MODE) {
		if (room < MB1_HEADER_SIZE)
			return pack_fail(err, err_cap,
					 "its Multiboot header asks for a video mode but "
					 "ends before the graphics fields");
		for (int i = 0; i < MB1_HEADER_VIDEO_FIELDS; i++)
			r->mb1_video[i] = load_le32(h + MB1_HEADER_VIDEO + 4 * i);
	}
	return 0;
}

static const char *mb2_tag_name(uint16_t type)
{
	switch (type) {
	case MB2_HEADER_TAG_ADDRESS: return "address";
	case MB2_HEADER_TAG_EFI_BS: return "EFI boot services";
	case MB2_HEADER_TAG_EFI_I386_ENTRY: return "EFI i386 entry address";
	case MB2_HEADER_TAG_EFI_AMD64_ENTRY: return "EFI amd64 entry address";
	}
	return "not one kslide knows";
}

/* A tag the image's header repeats as it is. */
static int keep_tag(struct multiboot_requests *r, const uint8_t *tag, uint32_t size, char *err,
		    size_t err_cap)
{
	/* The end tag follows the kept ones in the same room. */
	if (r->mb2_tags_size + padded(size) + MB2_TAG_HEADER > sizeof(r->mb2_tags))
		return pack_fail(err, err_cap,
				 "its Multiboot2 header's tags need more than the %zu "
				 "bytes the packed image has room for",
				 sizeof(r->mb2_tags) - MB2_TAG_HEADER);
	memcpy(r->mb2_tags + r->mb2_tags_size, tag, size);
	r->mb2_tags_size += padded(size);
	return 0;
}

static int read_mb2_tag(struct multiboot_requests *r, const uint8_t *tag, uint32_t size,
			char *err, size_t err_cap)
{
	uint16_t type = get16(tag), optional = get16(tag + 2) & MB2_TAG_OPTIONAL;
	switch (type) {
	case MB2_HEADER_TAG_INFO_REQUEST:
	case MB2_HEADER_TAG_CONSOLE:
	case MB2_HEADER_TAG_FRAMEBUFFER:
		return keep_tag(r, tag, size, err, err_cap);
	case MB2_HEADER_TAG_MODULE_ALIGN:
		return 0; /* the stub's header asks for page-aligned modules already */
	case MB2_HEADER_TAG_ENTRY:
		if (size < MB2_ENTRY_ADDR + 4)
			return pack_fail(err, err_cap,
					 "its Multiboot2 entry address tag is too short");
		r->entry_given = true;
		r->entry_addr = load_le32(tag + MB2_ENTRY_ADDR);
		return 0;
	case MB2_HEADER_TAG_RELOCATABLE:
		if (size < MB2_RELOCATABLE_SIZE)
			return pack_fail(err, err_cap,
					 "its Multiboot2 relocatable tag is too short");
		r->bounded = true;
		r->min_addr = load_le32(tag + MB2_RELOCATABLE_MIN);
		r->max_end = load_le32(tag + MB2_RELOCATABLE_MAX);
		r->align = load_le32(tag + MB2_RELOCATABLE_ALIGN);
		return 0;
	case MB2_HEADER_TAG_ADDRESS:
		refuse(r, "its Multiboot2 header has an address tag: it asks to be loaded at fixed "
			  "addresses; kslide places the kernel itself: remove the tag and load it as "
			  "ELF");
		return 0;
	}
	if (optional) {
		if (!r->mb2_dropped++) {
			r->mb2_dropped_type = type;
			r->mb2_dropped_name = mb2_tag_name(type);
		}
		return 0;
	}
	refuse(r, "its Multiboot2 header requires tag type %u (%s), which kslide cannot honour",
	       (unsigned)type, mb2_tag_name(type));
	return 0;
}

static int read_mb2(const uint8_t *h, size_t room, struct multiboot_requests *r, char *err,
		    size_t err_cap)
{
	uint32_t arch = load_le32(h + 4), length = load_le32(h + 8);
	r->mb2 = true;
	if (arch != MB2_ARCH_I386)
		refuse(r, "its Multiboot2 header is for architecture %u, not i386 (0)",
		       (unsigned)arch);
	if (length < MB2_HEADER_FIXED + MB2_TAG_HEADER || length > room)
		return pack_fail(err, err_cap, "its Multiboot2 header length (%u) is impossible",
				 (unsigned)length);
	for (size_t off = MB2_HEADER_FIXED;;) {
		if (off + MB2_TAG_HEADER > length)
			return pack_fail(err, err_cap, "its Multiboot2 header has no end tag");
		const uint8_t *tag = h + off;
		uint32_t size = load_le32(tag + 4);
		if (size < MB2_TAG_HEADER || size > length - off)
			return pack_fail(err, err_cap,
					 "its Multiboot2 header has a tag of impossible size "
					 "%u at offset %zu",
					 (unsigned)size, off);
		if (get16(tag) == MB2_HEADER_TAG_END)
			return 0;
		if (read_mb2_tag(r, tag, size, err, err_cap))
			return -1;
		off += padded(size);
	}
}

int multiboot_requests_read(const uint8_t *file, size_t len, struct multiboot_requests *r,
			    char *err, size_t err_cap)
{
	memset(r, 0, sizeof(*r));
	long mb1 = multiboot1_header_find(file, len), mb2 = multiboot2_header_find(file, len);
	bool elf64 = len > EI_CLASS && memcmp(file, ELFMAG, SELFMAG) == 0 &&
		     file[EI_CLASS] == ELFCLASS64;
	if (mb1 >= 0 && read_mb1(file + mb1, len - (size_t)mb1, elf64, r, err, err_cap))
		return -1;
	if (mb2 >= 0 && read_mb2(file + mb2, len - (size_t)mb2, r, err, err_cap))
		return -1;
	return 0;
}

/* The image's Multiboot 2 header: where its end tag lies; -1 if it has none. */
static long image_mb2_end_tag(const uint8_t *h)
{
	uint32_t length = load_le32(h + 8);
	for (size_t off = MB2_HEADER_FIXED; off + MB2_TAG_HEADER <= length;) {
		if (get16(h + off) == MB2_HEADER_TAG_END)
			return (long)off;
		off += padded(load_le32(h + off + 4));
	}
	return -1;
}

static int apply_mb2(uint8_t *h, const struct multiboot_requests *r, char *err, size_t err_cap)
{
	long end = image_mb2_end_tag(h);
	if (end < 0)
		return pack_fail(err, err_cap,
				 "internal error: the stub's Multiboot2 header has no end tag");
	uint8_t *at = h + end;
	memcpy(at, r->mb2_tags, r->mb2_tags_size);
	at += r->mb2_tags_size;
	memset(at, 0, MB2_TAG_HEADER);
	store_le32(at + 4, MB2_TAG_HEADER); /* type 0, flags 0, size 8 */
	uint32_t length = (uint32_t)(at + MB2_TAG_HEADER - h);
	store_le32(h + MB2_HEADER_LENGTH, length);
	store_le32(h + MB2_HEADER_CHECKSUM, 0u - (load_le32(h) + load_le32(h + MB2_HEADER_ARCH) + length));
	return 0;
}

int multiboot_requests_apply(uint8_t *image, size_t stub_size, const struct multiboot_requests *r,
			     char *err, size_t err_cap)
{
	long mb1 = multiboot1_header_find(image, stub_size);
	long mb2 = multiboot2_header_find(image, stub_size);
	if (mb1 < 0 || mb2 < 0)
		return pack_fail(err, err_cap, "internal error: the stub lacks a Multiboot header");
	uint8_t *h1 = image + mb1;
	if (r->mb1) {
		uint32_t flags = load_le32(h1 + MB1_HEADER_FLAGS) | r->mb1_flags;
		store_le32(h1 + MB1_HEADER_FLAGS, flags);
		store_le32(h1 + MB1_HEADER_CHECKSUM, 0u - (MB1_HEADER_MAGIC + flags));
		if (r->mb1_flags & MB1_VIDEO_MODE)
			for (int i = 0; i < MB1_HEADER_VIDEO_FIELDS; i++)
				store_le32(h1 + MB1_HEADER_VIDEO + 4 * i, r->mb1_video[i]);
	}
	/* Without a Multiboot 1 header of the kernel's the image keeps the stub's, as it asks
	 * (page-aligned modules, memory information): QEMU's -kernel speaks only Multiboot 1, and
	 * the stub gives the kernel Multiboot 2 information translated from what such a loader
	 * gives (KSLIDE_IMAGE_MULTIBOOT2_KERNEL, boot/multiboot1_to_2.h). */
	if (r->mb2)
		return apply_mb2(image + mb2, r, err, err_cap);
	store_le32(image + mb2, 0);
	return 0;
}
