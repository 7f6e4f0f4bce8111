/*
 * Writing Multiboot 2 information tag by tag (Multiboot2 2.0, 3.6), for the stub's builders
 * (boot/multiboot1_to_2.c, boot/multiboot2_uefi.c). A builder walks its sources twice: first
 * with no destination, to count the bytes to borrow, then into the borrowed memory; so the
 * size and the writing cannot disagree.
 */
#ifndef KSLIDE_BOOT_MULTIBOOT2_WRITER_H
#define KSLIDE_BOOT_MULTIBOOT2_WRITER_H

#include <stdint.h>

#include "include/protocol/multiboot2.h"
#include "lib/string.h"
#include "lib/unaligned.h"

struct mb2_writer {
	uint8_t *dst; /* NULL while counting */
	uint32_t at;
};

static inline void mb2_put(struct mb2_writer *w, const void *src, uint32_t len)
{
	if (w->dst)
		memcpy(w->dst + w->at, src, len);
	w->at += len;
}

static inline void mb2_put32(struct mb2_writer *w, uint32_t v)
{
	uint8_t b[4];
	store_le32(b, v);
	mb2_put(w, b, 4);
}

static inline void mb2_put64(struct mb2_writer *w, uint64_t v)
{
	mb2_put32(w, (uint32_t)v);
	mb2_put32(w, (uint32_t)(v >> 32));
}

/* Start a tag of this type; returns where it starts, for mb2_tag_close. */
static inline uint32_t mb2_tag_open(struct mb2_writer *w, uint32_t type)
{
	uint32_t start = w->at;
	mb2_put32(w, type);
	mb2_put32(w, 0); /* the size, once known */
	return start;
}

/* The size counts the payload, not the padding to the next 8-byte boundary. */
static inline void mb2_tag_close(struct mb2_writer *w, uint32_t start)
{
	static const uint8_t zeros[MB2_TAG_ALIGN];
	if (w->dst)
		store_le32(w->dst + start + 4, w->at - start);
	mb2_put(w, zeros, (MB2_TAG_ALIGN - w->at % MB2_TAG_ALIGN) % MB2_TAG_ALIGN);
}

/* The information's header: total_size (set by mb2_finish) and a reserved zero. */
static inline void mb2_start(struct mb2_writer *w)
{
	mb2_put32(w, 0);
	mb2_put32(w, 0);
}

/* The end tag, then total_size. */
static inline void mb2_finish(struct mb2_writer *w)
{
	uint32_t end = mb2_tag_open(w, MB2_INFO_TAG_END);
	mb2_tag_close(w, end);
	if (w->dst)
		store_le32(w->dst, w->at);
}

#endif
