/*
 * Reading a relocation table (format in lib/reloc.h): the ULEB128 decoder and the field width
 * of each kind. Private to lib/reloc.c and lib/reloc_disjoint.c.
 */
#ifndef KSLIDE_LIB_RELOC_TABLE_H
#define KSLIDE_LIB_RELOC_TABLE_H

#include <stddef.h>
#include <stdint.h>

#include "lib/errors.h"
#include "lib/reloc.h"

#define ULEB128_PAYLOAD_BITS 7
#define ULEB128_PAYLOAD_MASK 0x7fu
#define ULEB128_MORE 0x80u

/* A position in the table. */
struct decoder {
	const uint8_t *p;
	const uint8_t *end;
};

/* Any value at p: the position after it, or NULL when it is malformed (lib/reloc.c). */
const uint8_t *reloc_uleb128_slow(const uint8_t *p, const uint8_t *end, uint64_t *value);

/*
 * Most gaps of a packed kernel fit one byte (docs/results.md), and nearly all the rest two:
 * decode those inline. Values go in and out by value, so the hot loops keep the position in a
 * register: the image stores, through uint8_t pointers, could alias anything left in memory.
 */
static inline int read_uleb128(struct decoder *d, uint64_t *out)
{
	if (d->p != d->end && !(*d->p & ULEB128_MORE)) {
		*out = *d->p++;
		return KS_OK;
	}
	if (d->end - d->p >= 2 && !(d->p[1] & ULEB128_MORE)) {
		*out = (uint64_t)(d->p[0] & ULEB128_PAYLOAD_MASK) |
		       (uint64_t)d->p[1] << ULEB128_PAYLOAD_BITS;
		d->p += 2;
		return KS_OK;
	}
	const uint8_t *next = reloc_uleb128_slow(d->p, d->end, out);
	if (next == NULL)
		return KS_EFORMAT;
	d->p = next;
	return KS_OK;
}

/* The same for an offset or count, which must fit a machine word: larger values come back as
 * SIZE_MAX, which no image's bounds admit. Cheaper in 32-bit code. */
static inline int read_uleb128_size(struct decoder *d, size_t *out)
{
	const uint8_t *p = d->p;
	if (d->end - p >= 2) { /* both short forms at one bounds check */
		size_t low = p[0];
		if (!(low & ULEB128_MORE)) {
			*out = low;
			d->p = p + 1;
			return KS_OK;
		}
		size_t high = p[1];
		if (!(high & ULEB128_MORE)) {
			*out = (low & ULEB128_PAYLOAD_MASK) | high << ULEB128_PAYLOAD_BITS;
			d->p = p + 2;
			return KS_OK;
		}
	}
	uint64_t v;
	int rc = read_uleb128(d, &v);
	*out = v > SIZE_MAX ? SIZE_MAX : (size_t)v;
	return rc;
}

/* Field width in bytes for a kind, or 0 if the kind is unknown. */
static inline unsigned reloc_kind_width(uint8_t kind)
{
	switch (kind) {
	case RELOC_ADD32:
	case RELOC_ADD32S:
	case RELOC_SUB32S:
		return 4;
	case RELOC_ADD64:
		return 8;
	}
	return 0;
}

/*
 * Whether a table whose groups are not in image order names any image byte twice (a walk
 * has already found each group ascending and in bounds). KS_OK or KS_EFORMAT.
 */
int reloc_check_disjoint(const uint8_t *table, size_t table_size);

#endif
