/*
 * Applying a kslide relocation table to an image that was moved by 'delta' bytes.
 *
 * The table is a sequence of groups; each group names a kind and lists the image offsets
 * of the fields to patch, ascending, as ULEB128 gaps (docs/format.md):
 *
 *   group := kind:u8  count:uleb128  gap:uleb128 * count
 *   offset[0] = gap[0],  offset[i] = offset[i-1] + gap[i]
 *
 * reloc_validate and reloc_apply check the whole table before the first byte is written, so a
 * bad table changes nothing; reloc_move checks each field as it goes and undoes its patches on
 * error (see there).
 */
#ifndef KSLIDE_LIB_RELOC_H
#define KSLIDE_LIB_RELOC_H

#include <stddef.h>
#include <stdint.h>

enum reloc_kind {
	RELOC_ADD32 = 1,  /* 32-bit field += delta, must not wrap (R_386_32, R_X86_64_32) */
	RELOC_ADD32S = 2, /* 32-bit field is sign-extended; result must stay in int32 (R_X86_64_32S) */
	RELOC_ADD64 = 3,  /* 64-bit field += delta (R_X86_64_64, R_X86_64_RELATIVE) */
	/* 32-bit signed field -= delta; result must stay in int32. A PC-relative reference from
	 * the moving image to something that stays put (Linux's x86-64 per-CPU area, linked at
	 * virtual 0): Linux's "inverse 32-bit" relocations. */
	RELOC_SUB32S = 4,
	RELOC_KIND_LAST = RELOC_SUB32S,
};

struct reloc_summary {
	uint64_t count[RELOC_KIND_LAST + 1]; /* indexed by reloc_kind */
	uint64_t total;
};

/* Decode and bounds-check the table against an image of image_size bytes; writes nothing. */
int reloc_validate(const uint8_t *table, size_t table_size, uint64_t image_size,
		   struct reloc_summary *summary);

/*
 * Add delta to every field the table names. Validates everything (bounds and overflow of the
 * patched values) first; on any error returns it with the image untouched.
 */
int reloc_apply(uint8_t *image, uint64_t image_size, const uint8_t *table, size_t table_size,
		int64_t delta);

/*
 * The stub's move and relocation in one: copy file_size bytes from src to dst (which must
 * not overlap), zero dst up to size, and apply the table to those size bytes, with
 * reloc_apply's checks and results. The copy runs just ahead of the patching, so each field
 * is patched while it is in cache: one pass over the image instead of three
 * (docs/results.md). On error dst holds the plain copy, nothing patched: the outcome is
 * always that of memcpy, memset, then reloc_apply.
 */
int reloc_move(uint8_t *dst, const uint8_t *src, uint64_t file_size, uint64_t size,
	       const uint8_t *table, size_t table_size, int64_t delta);

/* Encoding helpers used by the packer and tests. Return bytes written, or 0 if out too small. */
size_t reloc_put_uleb128(uint8_t *out, size_t cap, uint64_t value);

#endif
