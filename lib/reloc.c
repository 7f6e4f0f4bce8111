/*
 * Decoding, checking and applying kslide relocation tables (format in lib/reloc.h).
 *
 * reloc_apply makes two passes over the table: the first decodes it, checks every field's
 * bounds and that its patched value fits, and touches nothing; the second writes. Both are
 * tight loops (one-byte gaps decode on a fast path, 32-bit fields load as one word), because
 * the stub runs them over every relocation of the kernel at every boot (docs/results.md).
 */
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
/* Flipping the sign bit maps int32 order onto uint32 order: one range check serves both. */
#define ADD32S_BIAS 0x80000000u

/* A position in the table. */
struct decoder {
	const uint8_t *p;
	const uint8_t *end;
};

/* A decoded value and the position after it; next is NULL for a malformed value. */
struct uleb128 {
	const uint8_t *next;
	uint64_t value;
};

/* Truncated, longer than 10 bytes, or carrying bits above 63: all malformed. */
static struct uleb128 read_uleb128_slow(const uint8_t *p, const uint8_t *end)
{
	uint64_t value = 0;
	for (unsigned i = 0; i < ULEB128_MAX_BYTES && p != end; i++) {
		uint8_t byte = *p++;
		uint64_t payload = byte & ULEB128_PAYLOAD_MASK;
		if (i == ULEB128_MAX_BYTES - 1 && byte > ULEB128_LAST_BYTE_MAX)
			break;
		value |= payload << (i * ULEB128_PAYLOAD_BITS);
		if (!(byte & ULEB128_MORE))
			return (struct uleb128){ p, value };
	}
	return (struct uleb128){ NULL, 0 };
}

/*
 * Most gaps of a packed kernel fit one byte (docs/results.md): decode those inline. Values
 * go in and out by value, so the hot loops keep the position in a register: the image
 * stores, through uint8_t pointers, could alias anything left in memory.
 */
static inline int read_uleb128(struct decoder *d, uint64_t *out)
{
	if (d->p != d->end && !(*d->p & ULEB128_MORE)) {
		*out = *d->p++;
		return KS_OK;
	}
	/* Two bytes (gaps of 128 bytes to 16 KiB): still inline. */
	if (d->end - d->p >= 2 && !(d->p[1] & ULEB128_MORE)) {
		*out = (uint64_t)(d->p[0] & ULEB128_PAYLOAD_MASK) |
		       (uint64_t)d->p[1] << ULEB128_PAYLOAD_BITS;
		d->p += 2;
		return KS_OK;
	}
	struct uleb128 r = read_uleb128_slow(d->p, d->end);
	if (r.next == NULL)
		return KS_EFORMAT;
	d->p = r.next;
	*out = r.value;
	return KS_OK;
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

/* Fields may be unaligned, and the stub must not rely on the host's byte order; compilers
 * turn these into single loads and stores on x86. */
static inline uint32_t load32(const uint8_t *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static inline void store32(uint8_t *p, uint32_t v)
{
	p[0] = (uint8_t)v;
	p[1] = (uint8_t)(v >> 8);
	p[2] = (uint8_t)(v >> 16);
	p[3] = (uint8_t)(v >> 24);
}

static inline uint64_t load64(const uint8_t *p)
{
	return (uint64_t)load32(p) | (uint64_t)load32(p + 4) << 32;
}

static inline void store64(uint8_t *p, uint64_t v)
{
	store32(p, (uint32_t)v);
	store32(p + 4, (uint32_t)(v >> 32));
}

/*
 * The 32-bit field values old for which old + delta stays in range: biased by the kind's
 * bias, they are exactly [lo, lo + span]. ADD32 needs 0 <= old + delta <= UINT32_MAX; ADD32S
 * the same for the int32 value, which the bias turns into unsigned order.
 */
struct range32 {
	bool possible; /* false when |delta| >= 2^32: no field can take it */
	uint32_t lo;
	uint32_t span;
};

static struct range32 range32_for(int64_t delta)
{
	struct range32 r = { false, 0, 0 };
	if (delta >= DELTA32_LIMIT || delta <= -DELTA32_LIMIT)
		return r;
	uint32_t magnitude = (uint32_t)(delta < 0 ? -delta : delta);
	r.possible = true;
	r.lo = delta < 0 ? magnitude : 0;
	r.span = UINT32_MAX - magnitude;
	return r;
}

/* What a pass does besides decoding and bounds checks. */
enum pass {
	PASS_BOUNDS, /* decode and bounds-check only (reloc_validate) */
	PASS_VALUES, /* also check that each patched value fits its field */
	PASS_WRITE,  /* patch the fields; only run after a clean PASS_VALUES */
};

struct walk {
	struct decoder d;
	uint8_t *image;
	uint64_t image_size;
	int64_t delta;
	struct range32 range;
	bool ordered;      /* so far every group starts after the previous one ends */
	uint64_t prev_end; /* one past the last field of the previous non-empty group */
	struct reloc_summary summary;
};

/*
 * The fields of one group whose kind and count are already read. Inlined for each pass and
 * width, so the mode and width tests fold away in the loops that matter.
 */
static inline __attribute__((always_inline)) int walk_fields(struct walk *w, uint32_t bias,
							     uint64_t count,
							     const unsigned width,
							     const enum pass pass)
{
	if (count == 0)
		return KS_OK;
	if (width > w->image_size)
		return KS_ERANGE;
	if (pass == PASS_VALUES && width == 4 && !w->range.possible)
		return KS_EOVERFLOW;
	/* Locals, not w's fields: see read_uleb128. */
	struct decoder d = w->d;
	uint8_t *image = w->image;
	uint64_t room = w->image_size - width; /* how far the next field may lie past offset */
	uint32_t shift = bias - w->range.lo;   /* the bias flips bit 31: the same as adding it */
	uint32_t span = w->range.span, add = (uint32_t)w->delta;
	uint64_t add64 = (uint64_t)w->delta, prev_end = w->prev_end;
	uint64_t offset = 0, min_gap = 0; /* the first gap is an offset: any value goes */
	bool before_prev = false;
	int rc = KS_OK;
	for (uint64_t i = 0; i < count; i++) {
		uint64_t gap;
		rc = read_uleb128(&d, &gap);
		if (rc != KS_OK)
			break;
		/* A repeated or overlapping field would be patched on top of a patch, past the
		 * overflow check, which sees only the original bytes. */
		if (gap < min_gap) {
			rc = KS_EFORMAT;
			break;
		}
		min_gap = width;
		if (gap > room) {
			rc = KS_ERANGE;
			break;
		}
		room -= gap;
		offset += gap;
		before_prev |= offset < prev_end;
		if (pass == PASS_BOUNDS)
			continue;
		uint8_t *field = image + offset;
		if (width == 8) {
			if (pass == PASS_WRITE)
				store64(field, load64(field) + add64); /* wraps by design */
			continue;
		}
		uint32_t old = load32(field);
		if (pass == PASS_WRITE) {
			store32(field, old + add);
		} else if ((uint32_t)(old + shift) > span) {
			rc = KS_EOVERFLOW;
			break;
		}
	}
	w->d = d;
	if (rc != KS_OK)
		return rc;
	if (before_prev)
		w->ordered = false;
	w->prev_end = offset + width;
	return KS_OK;
}

static int walk_group(struct walk *w, enum pass pass)
{
	uint8_t kind;
	uint64_t count;
	if (w->d.p == w->d.end)
		return KS_EFORMAT;
	kind = *w->d.p++;
	int rc = read_uleb128(&w->d, &count);
	if (rc != KS_OK)
		return rc;
	unsigned width = kind_width(kind);
	if (width == 0)
		return KS_EINVAL;
	uint32_t bias = kind == RELOC_ADD32S ? ADD32S_BIAS : 0;
	if (pass == PASS_BOUNDS)
		rc = width == 8 ? walk_fields(w, 0, count, 8, PASS_BOUNDS)
				: walk_fields(w, 0, count, 4, PASS_BOUNDS);
	else if (pass == PASS_VALUES)
		rc = width == 8 ? walk_fields(w, 0, count, 8, PASS_VALUES)
				: walk_fields(w, bias, count, 4, PASS_VALUES);
	else
		rc = width == 8 ? walk_fields(w, 0, count, 8, PASS_WRITE)
				: walk_fields(w, 0, count, 4, PASS_WRITE);
	if (rc != KS_OK)
		return rc;
	/* count <= table_size here (each entry took at least one byte), so these cannot wrap. */
	w->summary.count[kind] += count;
	w->summary.total += count;
	return KS_OK;
}

/* One group's fields in ascending order, decoded lazily from a table that passed the walk. */
struct field_cursor {
	struct decoder d;
	uint64_t left;   /* fields not yet read */
	uint64_t offset; /* the current field */
	unsigned width;
};

/* Start reading the group at p; returns the position just past the group. */
static const uint8_t *cursor_open(struct field_cursor *c, const uint8_t *p, const uint8_t *end)
{
	c->d = (struct decoder){ p + 1, end };
	c->width = kind_width(*p);
	c->left = 0;
	c->offset = 0;
	read_uleb128(&c->d, &c->left);
	struct decoder skip = c->d;
	for (uint64_t i = 0, gap; i < c->left; i++)
		read_uleb128(&skip, &gap);
	return skip.p;
}

static bool cursor_next(struct field_cursor *c)
{
	uint64_t gap = 0;
	if (c->left == 0)
		return false;
	c->left--;
	read_uleb128(&c->d, &gap);
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
 * patch on top of a patch could overflow, or fail halfway through writing. walk_fields
 * refuses overlap inside a group and notes whether the groups follow one another in the
 * image, as the packer writes them; only other tables need this pairwise comparison,
 * O(groups x fields).
 */
static int check_disjoint(const uint8_t *table, size_t table_size)
{
	const uint8_t *end = table + table_size;
	for (const uint8_t *later = table; later != end;) {
		struct field_cursor b;
		const uint8_t *next = cursor_open(&b, later, end);
		for (const uint8_t *earlier = table; earlier != later;) {
			struct field_cursor a;
			earlier = cursor_open(&a, earlier, end);
			cursor_open(&b, later, end);
			if (groups_overlap(&a, &b))
				return KS_EFORMAT;
		}
		later = next;
	}
	return KS_OK;
}

static int walk_table(struct walk *w, const uint8_t *table, size_t table_size, enum pass pass)
{
	w->d = (struct decoder){ table, table + table_size };
	w->ordered = true;
	w->prev_end = 0;
	for (unsigned k = 0; k < RELOC_KIND_SLOTS; k++)
		w->summary.count[k] = 0;
	w->summary.total = 0;
	while (w->d.p != w->d.end) {
		int rc = walk_group(w, pass);
		if (rc != KS_OK)
			return rc;
	}
	/* The write pass follows a checking pass over the same table. */
	if (pass == PASS_WRITE || w->ordered)
		return KS_OK;
	return check_disjoint(table, table_size);
}

int reloc_validate(const uint8_t *table, size_t table_size, uint64_t image_size,
		   struct reloc_summary *summary)
{
	if (table == NULL && table_size != 0)
		return KS_EINVAL;
	struct walk w = { .image_size = image_size };
	int rc = table_size ? walk_table(&w, table, table_size, PASS_BOUNDS) : KS_OK;
	if (rc == KS_OK && summary != NULL)
		*summary = w.summary;
	return rc;
}

int reloc_apply(uint8_t *image, uint64_t image_size, const uint8_t *table, size_t table_size,
		int64_t delta)
{
	if ((table == NULL && table_size != 0) || (image == NULL && image_size != 0))
		return KS_EINVAL;
	if (table_size == 0)
		return KS_OK;
	struct walk w = {
		.image = image,
		.image_size = image_size,
		.delta = delta,
		.range = range32_for(delta),
	};
	/* First pass touches nothing, so a bad entry anywhere leaves the image as it was. */
	int rc = walk_table(&w, table, table_size, PASS_VALUES);
	if (rc != KS_OK)
		return rc;
	return walk_table(&w, table, table_size, PASS_WRITE);
}

/*
 * reloc_move's copy runs this far ahead of the relocation cursor, so each field is patched
 * while its bytes are still in cache. GCC requires memcpy even of freestanding code, and the
 * stub has one (lib/string.c).
 */
#define MOVE_BLOCK 0x1000u

struct mover {
	uint8_t *dst;
	const uint8_t *src;
	uint64_t file_size; /* bytes from src; zeros follow up to the image size */
	uint64_t size;
	uint64_t copied; /* dst[0, copied) is filled, some fields in it patched */
};

/* Fill dst up to at least end (at most the image size), a block at a time. */
static void copy_through(struct mover *m, uint64_t end)
{
	while (m->copied < end) {
		uint64_t limit = m->copied < m->file_size ? m->file_size : m->size;
		uint64_t left = limit - m->copied;
		size_t n = left < MOVE_BLOCK ? (size_t)left : MOVE_BLOCK;
		if (m->copied < m->file_size)
			__builtin_memcpy(m->dst + m->copied, m->src + m->copied, n);
		else
			__builtin_memset(m->dst + m->copied, 0, n);
		m->copied += n;
	}
}

/*
 * One group's fields, checked and patched one by one right behind the copy. A first field
 * below the previous group's end (groups out of image order) stops the walk before it is
 * touched; the later ones lie above the first.
 */
static inline __attribute__((always_inline)) int move_fields(struct walk *w, struct mover *m,
							     uint32_t bias, uint64_t count,
							     const unsigned width)
{
	if (count == 0)
		return KS_OK;
	if (width > w->image_size)
		return KS_ERANGE;
	if (width == 4 && !w->range.possible)
		return KS_EOVERFLOW;
	/* Locals, not w's and m's fields: see read_uleb128. */
	struct decoder d = w->d;
	uint8_t *image = m->dst;
	uint64_t room = w->image_size - width; /* how far the next field may lie past offset */
	uint32_t shift = bias - w->range.lo;   /* the bias flips bit 31: the same as adding it */
	uint32_t span = w->range.span, add = (uint32_t)w->delta;
	uint64_t add64 = (uint64_t)w->delta;
	uint64_t offset = 0, copied = m->copied, min_gap = 0;
	const uint8_t *src = m->src;
	uint64_t prefetch_end = m->file_size > MOVE_BLOCK ? m->file_size - MOVE_BLOCK : 0;
	int rc = KS_OK;
	for (uint64_t i = 0; i < count; i++) {
		uint64_t gap;
		rc = read_uleb128(&d, &gap);
		if (rc != KS_OK)
			break;
		if (gap < min_gap) {
			rc = KS_EFORMAT;
			break;
		}
		if (gap > room) {
			rc = KS_ERANGE;
			break;
		}
		room -= gap;
		offset += gap;
		if (min_gap == 0) {
			if (offset < w->prev_end) {
				w->ordered = false; /* may overlap a patched field: start over */
				break;
			}
			min_gap = width;
		}
		if (offset + width > copied) {
			copy_through(m, offset + width);
			copied = m->copied;
		}
		/* Ask for the next block's source now, so its copy does not wait on memory. */
		if (offset < prefetch_end)
			__builtin_prefetch(src + offset + MOVE_BLOCK);
		uint8_t *field = image + offset;
		if (width == 8) {
			store64(field, load64(field) + add64);
			continue;
		}
		uint32_t old = load32(field);
		if ((uint32_t)(old + shift) > span) {
			rc = KS_EOVERFLOW;
			break;
		}
		store32(field, old + add);
	}
	w->d = d;
	w->prev_end = offset + width;
	return rc;
}

/* The fused pass: KS_OK with dst moved and relocated, or an error, or w->ordered false. */
static int move_table(struct walk *w, struct mover *m, const uint8_t *table, size_t table_size)
{
	w->d = (struct decoder){ table, table + table_size };
	w->ordered = true;
	w->prev_end = 0;
	while (w->d.p != w->d.end && w->ordered) {
		uint8_t kind = *w->d.p++;
		uint64_t count;
		int rc = read_uleb128(&w->d, &count);
		if (rc != KS_OK)
			return rc;
		unsigned width = kind_width(kind);
		if (width == 0)
			return KS_EINVAL;
		uint32_t bias = kind == RELOC_ADD32S ? ADD32S_BIAS : 0;
		rc = width == 8 ? move_fields(w, m, 0, count, 8) : move_fields(w, m, bias, count, 4);
		if (rc != KS_OK)
			return rc;
	}
	return KS_OK;
}

int reloc_move(uint8_t *dst, const uint8_t *src, uint64_t file_size, uint64_t size,
	       const uint8_t *table, size_t table_size, int64_t delta)
{
	if ((table == NULL && table_size != 0) || (dst == NULL && size != 0) ||
	    (src == NULL && file_size != 0) || file_size > size)
		return KS_EINVAL;
	struct walk w = {
		.image = dst,
		.image_size = size,
		.delta = delta,
		.range = range32_for(delta),
	};
	struct mover m = { dst, src, file_size, size, 0 };
	int rc = move_table(&w, &m, table, table_size);
	if (rc == KS_OK && w.ordered) {
		copy_through(&m, size);
		return KS_OK;
	}
	/* Undo by copying again: dst becomes the plain copy, as if nothing had been patched. */
	m.copied = 0;
	copy_through(&m, size);
	if (rc != KS_OK)
		return rc;
	/* Groups out of image order: the general two-pass path, with its overlap check. */
	return reloc_apply(dst, size, table, table_size, delta);
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
