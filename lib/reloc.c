/*
 * Checking and applying kslide relocation tables (format in lib/reloc.h).
 *
 * One per-field core, walk_fields, serves every caller; a pass says what it does to a field
 * after decoding its offset and checking its bounds:
 *
 *   PASS_BOUNDS  nothing more                          reloc_validate
 *   PASS_VALUES  check that the patched value fits     reloc_apply, first pass (writes nothing)
 *   PASS_WRITE   patch (only after a clean PASS_VALUES) reloc_apply, second pass
 *   PASS_MOVE    copy the image up to the field, check it, patch it: reloc_move (the stub)
 *
 * The pass and the field width are constants at every call, so the core inlines into one
 * tight loop per pass and width (the stub runs it over every relocation of the kernel at every
 * boot; docs/results.md).
 */
#include "lib/reloc.h"
#include "lib/errors.h"
#include "lib/reloc_table.h"

#include <stdbool.h>

/* A uint64_t needs at most ceil(64 / 7) = 10 ULEB128 bytes; the 10th carries only bit 63. */
#define ULEB128_MAX_BYTES 10
#define ULEB128_LAST_BYTE_MAX 1u

/* Any |delta| of 2^32 or more overflows every 32-bit field, whatever its value. */
#define DELTA32_LIMIT ((int64_t)1 << 32)
/* Flipping the sign bit maps int32 order onto uint32 order: one range check serves both. */
#define SIGNED32_BIAS 0x80000000u

/*
 * reloc_move's copy runs this far ahead of the relocation cursor, so each field is patched
 * while its bytes are still in cache. GCC requires memcpy even of freestanding code, and the
 * stub has one (lib/string.c).
 */
#define MOVE_BLOCK 0x1000u

/* Truncated, longer than 10 bytes, or carrying bits above 63: all malformed. */
const uint8_t *reloc_uleb128_slow(const uint8_t *p, const uint8_t *end, uint64_t *value)
{
	uint64_t v = 0;
	for (unsigned i = 0; i < ULEB128_MAX_BYTES && p != end; i++) {
		uint8_t byte = *p++;
		uint64_t payload = byte & ULEB128_PAYLOAD_MASK;
		if (i == ULEB128_MAX_BYTES - 1 && byte > ULEB128_LAST_BYTE_MAX)
			break;
		v |= payload << (i * ULEB128_PAYLOAD_BITS);
		if (!(byte & ULEB128_MORE)) {
			*value = v;
			return p;
		}
	}
	return NULL;
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
 * What a group of 32-bit fields adds, and which old values may take it: old + add stays in
 * range exactly when (uint32_t)(old + shift) <= span. ADD32 needs 0 <= old + d <= UINT32_MAX;
 * the signed kinds the same for the int32 value, which the bias turns into unsigned order.
 * SUB32S is ADD32S with the slide negated.
 */
struct op32 {
	bool possible; /* false when |d| >= 2^32: no field can take it */
	uint32_t add;
	uint32_t shift;
	uint32_t span;
};

static struct op32 op32_for(uint8_t kind, int64_t delta)
{
	struct op32 op = { false, 0, 0, 0 };
	if (kind == RELOC_SUB32S) {
		if (delta == INT64_MIN)
			return op;
		delta = -delta;
	}
	if (delta >= DELTA32_LIMIT || delta <= -DELTA32_LIMIT)
		return op;
	uint32_t magnitude = (uint32_t)(delta < 0 ? -delta : delta);
	uint32_t lo = delta < 0 ? magnitude : 0;
	uint32_t bias = kind == RELOC_ADD32 ? 0 : SIGNED32_BIAS;
	op.possible = true;
	op.add = (uint32_t)delta;
	op.shift = bias - lo; /* the bias flips bit 31: the same as adding it */
	op.span = UINT32_MAX - magnitude;
	return op;
}

enum pass { PASS_BOUNDS, PASS_VALUES, PASS_WRITE, PASS_MOVE };

/* reloc_move's copy: dst[0, copied) is filled from src (zeros past file_size). */
struct mover {
	uint8_t *dst;
	const uint8_t *src;
	uint64_t file_size;
	uint64_t size;
	uint64_t copied;
};

struct walk {
	struct decoder d;
	uint8_t *image;
	uint64_t image_size;
	int64_t delta;
	struct mover *move; /* PASS_MOVE only */
	bool ordered;       /* so far every group starts after the previous one ends */
	uint64_t prev_end;  /* one past the last field of the previous non-empty group */
	struct reloc_summary summary;
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
 * The fields of one group whose kind and count are already read. Under PASS_MOVE a first field
 * below the previous group's end (groups out of image order) stops the walk before it is
 * touched, with w->ordered false; the later fields lie above the first.
 */
static inline __attribute__((always_inline)) int walk_fields(struct walk *w, const struct op32 *op,
							     uint64_t count, const unsigned width,
							     const enum pass pass)
{
	if (count == 0)
		return KS_OK;
	if (width > w->image_size)
		return KS_ERANGE;
	if (pass != PASS_BOUNDS && pass != PASS_WRITE && width == 4 && !op->possible)
		return KS_EOVERFLOW;
	/* Locals, not w's fields: see read_uleb128. */
	struct decoder d = w->d;
	uint8_t *image = w->image;
	uint64_t room = w->image_size - width; /* how far the next field may lie past offset */
	uint32_t shift = op->shift, span = op->span, add = op->add;
	uint64_t add64 = (uint64_t)w->delta;
	uint64_t offset = 0, min_gap = 0; /* the first gap is an offset: any value goes */
	struct mover *m = w->move;
	uint64_t copied = 0, prefetch_end = 0;
	if (pass == PASS_MOVE) {
		copied = m->copied;
		prefetch_end = m->file_size > MOVE_BLOCK ? m->file_size - MOVE_BLOCK : 0;
	}
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
		if (gap > room) {
			rc = KS_ERANGE;
			break;
		}
		room -= gap;
		offset += gap;
		if (min_gap == 0 && offset < w->prev_end) {
			w->ordered = false;
			if (pass == PASS_MOVE)
				break; /* may overlap a patched field: the caller starts over */
		}
		min_gap = width;
		if (pass == PASS_BOUNDS)
			continue;
		if (pass == PASS_MOVE) {
			if (offset + width > copied) {
				copy_through(m, offset + width);
				copied = m->copied;
			}
			/* Ask for the next block's source now, so its copy does not wait on memory. */
			if (offset < prefetch_end)
				__builtin_prefetch(m->src + offset + MOVE_BLOCK);
		}
		uint8_t *field = image + offset;
		if (width == 8) {
			if (pass != PASS_VALUES)
				store64(field, load64(field) + add64); /* wraps by design */
			continue;
		}
		uint32_t old = load32(field);
		if (pass != PASS_WRITE && (uint32_t)(old + shift) > span) {
			rc = KS_EOVERFLOW;
			break;
		}
		if (pass != PASS_VALUES)
			store32(field, old + add);
	}
	w->d = d;
	w->prev_end = offset + width;
	return rc;
}

/* One group, whatever its kind, under a pass fixed at each call site. */
#define WALK_FIELDS(pass)                                                                    \
	(width == 8 ? walk_fields(w, &op, count, 8, pass) : walk_fields(w, &op, count, 4, pass))

static inline __attribute__((always_inline)) int walk_group(struct walk *w, const enum pass pass)
{
	if (w->d.p == w->d.end)
		return KS_EFORMAT;
	uint8_t kind = *w->d.p++;
	uint64_t count;
	int rc = read_uleb128(&w->d, &count);
	if (rc != KS_OK)
		return rc;
	unsigned width = reloc_kind_width(kind);
	if (width == 0)
		return KS_EINVAL;
	struct op32 op = op32_for(kind, w->delta);
	switch (pass) {
	case PASS_BOUNDS: rc = WALK_FIELDS(PASS_BOUNDS); break;
	case PASS_VALUES: rc = WALK_FIELDS(PASS_VALUES); break;
	case PASS_WRITE: rc = WALK_FIELDS(PASS_WRITE); break;
	case PASS_MOVE: rc = WALK_FIELDS(PASS_MOVE); break;
	}
	if (rc != KS_OK)
		return rc;
	/* count <= table_size here (each entry took at least one byte), so these cannot wrap. */
	w->summary.count[kind] += count;
	w->summary.total += count;
	return KS_OK;
}

/*
 * Walk every group. A table out of image order gets the pairwise overlap check after a
 * checking pass; PASS_MOVE instead stops at the first such group and leaves the rest to the
 * caller (w->ordered false).
 */
static inline __attribute__((always_inline)) int walk_table(struct walk *w, const uint8_t *table,
							    size_t table_size,
							    const enum pass pass)
{
	w->d = (struct decoder){ table, table + table_size };
	w->ordered = true;
	w->prev_end = 0;
	for (unsigned k = 0; k <= RELOC_KIND_LAST; k++)
		w->summary.count[k] = 0;
	w->summary.total = 0;
	while (w->d.p != w->d.end) {
		int rc = walk_group(w, pass);
		if (rc != KS_OK)
			return rc;
		if (pass == PASS_MOVE && !w->ordered)
			return KS_OK;
	}
	/* The write pass follows a checking pass over the same table. */
	if (pass == PASS_WRITE || pass == PASS_MOVE || w->ordered)
		return KS_OK;
	return reloc_check_disjoint(table, table_size);
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
	struct walk w = { .image = image, .image_size = image_size, .delta = delta };
	/* First pass touches nothing, so a bad entry anywhere leaves the image as it was. */
	int rc = walk_table(&w, table, table_size, PASS_VALUES);
	if (rc != KS_OK)
		return rc;
	return walk_table(&w, table, table_size, PASS_WRITE);
}

int reloc_move(uint8_t *dst, const uint8_t *src, uint64_t file_size, uint64_t size,
	       const uint8_t *table, size_t table_size, int64_t delta)
{
	if ((table == NULL && table_size != 0) || (dst == NULL && size != 0) ||
	    (src == NULL && file_size != 0) || file_size > size)
		return KS_EINVAL;
	struct mover m = { dst, src, file_size, size, 0 };
	struct walk w = { .image = dst, .image_size = size, .delta = delta, .move = &m };
	int rc = walk_table(&w, table, table_size, PASS_MOVE);
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
