/* Decoding, checking and applying kslide relocation tables (format in lib/reloc.h). */
#include "lib/reloc.h"
#include "lib/errors.h"

#include <stdbool.h>

/* A uint64_t needs at most ceil(64 / 7) = 10 ULEB128 bytes; the 10th carries only bit 63. */
#define ULEB128_MAX_BYTES 10
#define ULEB128_LAST_BYTE_MAX 1u
#define ULEB128_PAYLOAD_BITS 7
#define ULEB128_PAYLOAD_MASK 0x7fu
#define ULEB128_MORE 0x80u

#define RELOC_KIND_SLOTS 4 /* entries of reloc_summary.count */

/* Any |delta| of 2^32 or more overflows every 32-bit field, whatever its value. */
#define DELTA32_LIMIT ((int64_t)1 << 32)

/* What a pass over the table does besides decoding and bounds checks. */
enum walk_mode {
	WALK_BOUNDS, /* decode and bounds-check only (reloc_validate) */
	WALK_VALUES, /* also check that each patched value fits its field */
	WALK_WRITE,  /* patch the fields; only run after a clean WALK_VALUES */
};

struct walk {
	const uint8_t *table;
	size_t table_size;
	size_t pos;
	uint8_t *image;
	uint64_t image_size;
	int64_t delta;
	enum walk_mode mode;
	struct reloc_summary summary;
};

static int read_u8(struct walk *w, uint8_t *out)
{
	if (w->pos >= w->table_size)
		return KS_EFORMAT;
	*out = w->table[w->pos++];
	return KS_OK;
}

/* Truncated, longer than 10 bytes, or carrying bits above 63: all KS_EFORMAT. */
static int read_uleb128(struct walk *w, uint64_t *out)
{
	uint64_t value = 0;
	for (unsigned i = 0; i < ULEB128_MAX_BYTES; i++) {
		uint8_t byte;
		if (read_u8(w, &byte) != KS_OK)
			return KS_EFORMAT;
		uint64_t payload = byte & ULEB128_PAYLOAD_MASK;
		if (i == ULEB128_MAX_BYTES - 1 && byte > ULEB128_LAST_BYTE_MAX)
			return KS_EFORMAT;
		value |= payload << (i * ULEB128_PAYLOAD_BITS);
		if (!(byte & ULEB128_MORE)) {
			*out = value;
			return KS_OK;
		}
	}
	return KS_EFORMAT; /* unreachable: the 10th byte check rejects a continuation bit */
}

/* Field width in bytes for a kind, or 0 if the kind is unknown. */
static unsigned kind_width(uint8_t kind)
{
	switch (kind) {
	case RELOC_ADD32:
	case RELOC_ADD32S:
		return 4;
	case RELOC_ADD64:
		return 8;
	}
	return 0;
}

/* Fields may be unaligned, and the stub must not rely on the host's byte order. */
static uint64_t load_le(const uint8_t *p, unsigned width)
{
	uint64_t v = 0;
	for (unsigned i = width; i-- > 0;)
		v = v << 8 | p[i];
	return v;
}

static void store_le(uint8_t *p, unsigned width, uint64_t v)
{
	for (unsigned i = 0; i < width; i++, v >>= 8)
		p[i] = (uint8_t)v;
}

/* The new 32-bit field value, or KS_EOVERFLOW if old + delta leaves the kind's range. */
static int add32(uint8_t kind, uint32_t old, int64_t delta, uint32_t *out)
{
	if (delta >= DELTA32_LIMIT || delta <= -DELTA32_LIMIT)
		return KS_EOVERFLOW;
	/* |delta| < 2^32 and |old| < 2^32: the int64 sum cannot overflow. */
	if (kind == RELOC_ADD32) {
		int64_t sum = (int64_t)old + delta;
		if (sum < 0 || sum > (int64_t)UINT32_MAX)
			return KS_EOVERFLOW;
		*out = (uint32_t)sum;
		return KS_OK;
	}
	int64_t sum = (int64_t)(int32_t)old + delta;
	if (sum < INT32_MIN || sum > INT32_MAX)
		return KS_EOVERFLOW;
	*out = (uint32_t)(int32_t)sum;
	return KS_OK;
}

/* Check (and in WALK_WRITE, patch) one field already known to lie inside the image. */
static int visit(struct walk *w, uint8_t kind, unsigned width, uint64_t offset)
{
	if (w->mode == WALK_BOUNDS)
		return KS_OK;
	uint8_t *field = w->image + offset;
	uint64_t old = load_le(field, width);
	uint64_t patched;
	if (kind == RELOC_ADD64) {
		patched = old + (uint64_t)w->delta; /* wraps mod 2^64 by design */
	} else {
		uint32_t v;
		int rc = add32(kind, (uint32_t)old, w->delta, &v);
		if (rc != KS_OK)
			return rc;
		patched = v;
	}
	if (w->mode == WALK_WRITE)
		store_le(field, width, patched);
	return KS_OK;
}

/* [offset, offset + width) inside [0, image_size), without overflow. */
static bool field_inside(uint64_t offset, unsigned width, uint64_t image_size)
{
	return width <= image_size && offset <= image_size - width;
}

static int walk_group(struct walk *w)
{
	uint8_t kind;
	uint64_t count;
	int rc = read_u8(w, &kind);
	if (rc == KS_OK)
		rc = read_uleb128(w, &count);
	if (rc != KS_OK)
		return rc;
	unsigned width = kind_width(kind);
	if (width == 0)
		return KS_EINVAL;

	uint64_t offset = 0;
	for (uint64_t i = 0; i < count; i++) {
		uint64_t gap;
		rc = read_uleb128(w, &gap);
		if (rc != KS_OK)
			return rc;
		/* A repeated or overlapping field would be patched on top of a patch, past the
		 * overflow check, which sees only the original bytes. */
		if (i > 0 && gap < width)
			return KS_EFORMAT;
		if (gap > UINT64_MAX - offset)
			return KS_ERANGE; /* wraps past 2^64, so certainly past the image */
		offset += gap;
		if (!field_inside(offset, width, w->image_size))
			return KS_ERANGE;
		rc = visit(w, kind, width, offset);
		if (rc != KS_OK)
			return rc;
	}
	/* count <= table_size here (each entry took at least one byte), so these cannot wrap. */
	w->summary.count[kind] += count;
	w->summary.total += count;
	return KS_OK;
}

/* One group's fields in ascending order, decoded lazily from a table that passed the walk. */
struct field_cursor {
	struct walk w;   /* a private decoding position */
	uint64_t left;   /* fields not yet read */
	uint64_t offset; /* the current field */
	unsigned width;
};

/* Start reading the group at pos; returns the position just past the group. */
static size_t cursor_open(struct field_cursor *c, const struct walk *w, size_t pos)
{
	uint8_t kind = 0;
	c->w = *w;
	c->w.pos = pos;
	c->left = 0;
	c->offset = 0;
	read_u8(&c->w, &kind);
	read_uleb128(&c->w, &c->left);
	c->width = kind_width(kind);
	struct walk skip = c->w;
	for (uint64_t i = 0, gap; i < c->left; i++)
		read_uleb128(&skip, &gap);
	return skip.pos;
}

static bool cursor_next(struct field_cursor *c)
{
	uint64_t gap = 0;
	if (c->left == 0)
		return false;
	c->left--;
	read_uleb128(&c->w, &gap);
	c->offset += gap;
	return true;
}

/* Two groups' fields, each list ascending and in bounds (so offset + width cannot wrap). */
static bool groups_overlap(struct field_cursor *a, struct field_cursor *b)
{
	bool more_a = cursor_next(a), more_b = cursor_next(b);
	while (more_a && more_b) {
		if (a->offset + a->width <= b->offset)
			more_a = cursor_next(a);
		else if (b->offset + b->width <= a->offset)
			more_b = cursor_next(b);
		else
			return true;
	}
	return false;
}

/*
 * No image byte may belong to two fields: the value check sees only the original bytes, so a
 * patch on top of a patch could overflow, or fail halfway through writing. walk_group already
 * refuses overlap inside a group; this compares every pair of groups, O(groups x fields), which
 * is cheap for the one group per kind the packer writes.
 */
static int check_disjoint(const struct walk *w)
{
	for (size_t later = 0; later < w->table_size;) {
		struct field_cursor b;
		size_t next = cursor_open(&b, w, later);
		for (size_t earlier = 0; earlier < later;) {
			struct field_cursor a;
			earlier = cursor_open(&a, w, earlier);
			cursor_open(&b, w, later);
			if (groups_overlap(&a, &b))
				return KS_EFORMAT;
		}
		later = next;
	}
	return KS_OK;
}

static int walk_table(struct walk *w)
{
	w->pos = 0;
	for (unsigned k = 0; k < RELOC_KIND_SLOTS; k++)
		w->summary.count[k] = 0;
	w->summary.total = 0;
	while (w->pos < w->table_size) {
		int rc = walk_group(w);
		if (rc != KS_OK)
			return rc;
	}
	/* The write pass follows a checking pass over the same table. */
	return w->mode == WALK_WRITE ? KS_OK : check_disjoint(w);
}

int reloc_validate(const uint8_t *table, size_t table_size, uint64_t image_size,
		   struct reloc_summary *summary)
{
	if (table == NULL && table_size != 0)
		return KS_EINVAL;
	struct walk w = {
		.table = table,
		.table_size = table_size,
		.image_size = image_size,
		.mode = WALK_BOUNDS,
	};
	int rc = walk_table(&w);
	if (rc == KS_OK && summary != NULL)
		*summary = w.summary;
	return rc;
}

int reloc_apply(uint8_t *image, uint64_t image_size, const uint8_t *table, size_t table_size,
		int64_t delta)
{
	if ((table == NULL && table_size != 0) || (image == NULL && image_size != 0))
		return KS_EINVAL;
	struct walk w = {
		.table = table,
		.table_size = table_size,
		.image = image,
		.image_size = image_size,
		.delta = delta,
		.mode = WALK_VALUES,
	};
	/* First pass touches nothing, so a bad entry anywhere leaves the image as it was. */
	int rc = walk_table(&w);
	if (rc != KS_OK)
		return rc;
	w.mode = WALK_WRITE;
	return walk_table(&w);
}

size_t reloc_put_uleb128(uint8_t *out, size_t cap, uint64_t value)
{
	size_t n = 0;
	do {
		if (n >= cap)
			return 0;
		uint8_t byte = value & ULEB128_PAYLOAD_MASK;
		value >>= ULEB128_PAYLOAD_BITS;
		if (value != 0)
			byte |= ULEB128_MORE;
		out[n++] = byte;
	} while (value != 0);
	return n;
}
