/*
 * What the parts of the ELF reader share (kernel_segments.c reads segments, emit_relocs.c the
 * --emit-relocs sections, dynamic_relocs.c a static PIE's .rela.dyn and .relr.dyn). Not for
 * callers: they use kernel_elf.h.
 */
#ifndef KSLIDE_TOOLS_PACK_ELF_READER_H
#define KSLIDE_TOOLS_PACK_ELF_READER_H

#include <gelf.h>
#include <libelf.h>
#include <stddef.h>
#include <stdint.h>

#include "tools/pack/kernel_elf.h"

struct reader {
	Elf *elf;
	struct kernel_elf *k;
	char *err;
	size_t err_cap;
};

/* Write the message into r->err; returns -1 for "return reader_fail(...)". */
int reader_fail(struct reader *r, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* Record a field to patch, offset from the payload's first byte. 0 or -1 (out of memory). */
int reader_add_fixup(struct reader *r, uint64_t offset, enum reloc_kind kind);

/* "R_X86_64_GOTPCREL", or NULL for a number with no name. */
const char *x86_64_type_name(unsigned type);

/* The PT_LOAD segments checked and laid out into r->k (kernel_segments.c). 0 or -1. */
int segments_read(struct reader *r);
/* Their file bytes copied into the payload, the rest zero. 0 or -1. */
int segments_copy(struct reader *r, const uint8_t *buf, size_t len);

/* A static PIE's dynamic relocations become fixups; their fields get the link-time values. */
int dynamic_relocs_read(struct reader *r);

/* Refuse a file that holds no kernel at all: a debug-info file, a shared library, a dynamically
 * linked program, a plugin, a static user program (kernel_shape.c). 0 or -1 with a message. */
int reader_check_kernel_shape(struct reader *r);

/* The --emit-relocs sections of an executable become fixups (emit_relocs.c). */
int emit_relocs_read(struct reader *r);

#endif
