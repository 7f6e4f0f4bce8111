/*
 * Checking and applying kslide relocation tables (format in lib/reloc.h).
 *
 * One per-field core, walk_fields, serves every caller; a pass says what it does to a field
 * after decoding its offset and checking its bounds:
 *
 *   PASS_BOUNDS  nothing more                          reloc_validate
 *   PASS_VALUES  check that the patched value fits     reloc_apply, first pass (writes nothing)
 *   PASS_WRITE   patch (only after a clean PASS_VALUES) reloc_apply, second pass
 *   PASS_STREAM  check each field and patch it, up to a limit, resumable: reloc_stream (the
 *                stub, after each block it copies or decodes; reloc_move)
 *   PASS_SKIP    a reloc_stream's run of fields another stream patches: bounds and order only
 *
 * The walk's state is a struct reloc_stream, so every pass can stop and resume; only
 * PASS_STREAM does. The pass and the field width are constants at every call, so the core
 * inlines into one tight loop per pass and width (the stub runs it over every relocation of
 * the kernel at every boot; docs/results.md).
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
 * reloc_move copies this much before it patches the fields in it, so each field is patched
 * while its bytes are still in cache (half of the smallest L2 of today's x86 cores); the
 * walk's work per block (resuming the group, its pending field) is paid once per block, a
 * thirty-second of what 4 KiB blocks cost the stub on Debian's cloud-amd64 kernel
 * (docs/results.md, section 3). GCC requires memcpy even of freestanding code, and the stub
 * has one (lib/string.c).
 */
#define MOVE_BLOCK 0x20000u

/* Truncated, longer than 10 bytes, or carrying bits above 63: all malformed. Each group's first
 * offset comes here, thousands of times a boot: the bounds are taken once. */
const uint8_t *reloc_uleb128_slow(const uint8_t *p, const uint8_t *end, uint64_t *value)
{
	size_t avail = (size_t)(end - p);
	size_t most = avail < ULEB128_MAX_BYTES ? avail : ULEB128_MAX_BYTES;
	uint64_t v = 0;
	unsigned shift = 0;
	for (size_t i = 0; i < most; i++, shift += ULEB128_PAYLOAD_BITS) {
		uint64_t byte = p[i];
		v |= (byte & ULEB128_PAYLOAD_MASK) << shift;
		if (!(byte & ULEB128_MORE)) {
			if (i == ULEB128_MAX_BYTES - 1 && byte > ULEB128_LAST_BYTE_MAX)
				return NULL;
			*value = v;
			return p + i + 1;
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
 * What a group of 32-bit fields adds, and which old values may take it (struct reloc_op32):
 * old + add stays in range exactly when (uint32_t)(old + shift) <= span. ADD32 needs
 * 0 <= old + d <= UINT32_MAX; the signed kinds the same for the int32 value, which the bias
 * turns into unsigned order. SUB32S is ADD32S with the slide negated.
 */
static struct reloc_op32 op32_for(uint8_t kind, int64_t delta)
{
	struct reloc_op32 op = { 0, 0, 0, 0, 0 };
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
	op.possible = 1;
	op.signed_add = kind != RELOC_ADD32 && delta >= INT32_MIN && delta <= INT32_MAX;
	op.add = (uint32_t)delta;
	op.shift = bias - lo; /* the bias flips bit 31: the same as adding it */
	op.span = UINT32_MAX - magnitude;
	return op;
}

enum pass { PASS_BOUNDS, PASS_VALUES, PASS_WRITE, PASS_STREAM, PASS_SKIP };

/* What a walk over the whole table learns besides its verdict (not kept under PASS_STREAM). */
struct walk_notes {
	bool ordered; /* every group starts past the previous group's last field */
	struct reloc_summary summary;
};

/* One field under a pass that patches or checks values: KS_OK or KS_EOVERFLOW. */
static inline __attribute__((always_inline)) int visit_field(const struct reloc_stream *s,
							     uint8_t *field, const unsigned width,
							     const enum pass pass)
{
	if (width == 8) {
		if (pass != PASS_VALUES)
			store64(field, load64(field) + (uint64_t)s->delta); /* wraps by design */
		return KS_OK;
	}
	uint32_t old = load32(field);
	if (pass != PASS_WRITE && (uint32_t)(old + s->shift) > s->span)
		return KS_EOVERFLOW;
	if (pass != PASS_VALUES)
		store32(field, old + s->add);
	return KS_OK;
}

/*
 * The run's patch of one field at q (see stream_short_gaps): KS_OK or KS_EOVERFLOW. A signed
 * kind whose slide fits int32 is judged by the addition's own overflow; every other 32-bit
 * case by struct reloc_op32's range (visit_field).
 */
static inline __attribute__((always_inline)) int patch_in_run(uint8_t *q, uint64_t delta,
							      uint32_t add, uint32_t shift,
							      uint32_t span, const unsigned width,
							      const bool signed_add)
{
	if (width == 8) {
		store64(q, load64(q) + delta); /* wraps by design */
		return KS_OK;
	}
	uint32_t old = load32(q);
	if (signed_add) {
		int32_t sum;
		if (__builtin_add_overflow((int32_t)old, (int32_t)add, &sum))
			return KS_EOVERFLOW;
		store32(q, (uint32_t)sum);
		return KS_OK;
	}
	if ((uint32_t)(old + shift) > span)
		return KS_EOVERFLOW;
	store32(q, old + add);
	return KS_OK;
}

/* Every byte of a word at once: one in each, and each one's top bit (lib/reloc.c's run). */
#define GAP_BYTES ((size_t)-1 / 0xff)
#define GAP_TOP_BITS (GAP_BYTES * ULEB128_MORE)

/*
 * PASS_STREAM's run of fields with short gaps, most of a kernel's (docs/results.md). Where no
 * one-byte gap (at most 127) can carry a field past last = limit - width, in stretches of
 * (last - offset) / 128 fields, a field costs a table byte, a load, an add and a store, and no
 * bounds check; the field that ends a stretch (a two-byte gap, or one near last) is checked
 * on its own, and the next stretch measured from it. A field that ends by the limit lies in
 * the image, since the limit does not pass its end: room follows from offset (room + offset
 * stays image_size - width). The run stops at the first gap it cannot take so (a longer form,
 * one too short, a field past the limit), which walk_fields' general loop then reads before
 * it calls this again, or at a field that overflows.
 * What the run costs a field decides the stub's time on a real kernel: the slide's values are
 * held in locals, as the image stores could alias s.
 */
static inline __attribute__((always_inline)) int
stream_run(const struct reloc_stream *s, struct decoder *d, size_t *left, size_t *offset,
	   size_t *room, size_t last, const unsigned width, const bool signed_add)
{
	const uint8_t *p = d->p, *start = p, *end = d->end;
	uint8_t *image = s->image;
	uint8_t *q = image + *offset;
	uint8_t *const q_last = image + last;
	uint64_t delta = (uint64_t)s->delta;
	uint32_t add = s->add, shift = s->shift, span = s->span;
	/* Where the group's fields or the table run out, a byte a field; each two-byte gap
	 * moves it one byte on, within the table. */
	size_t bytes = (size_t)(end - p);
	const uint8_t *fields_end = p + (*left < bytes ? *left : bytes);
	size_t longer = 0; /* two-byte gaps taken */
	int rc = KS_OK;
	if (q > q_last)
		goto out;
	for (;;) {
		size_t safe = (size_t)(q_last - q) >> ULEB128_PAYLOAD_BITS;
		size_t n = (size_t)(fields_end - p);
		const uint8_t *stop = p + (safe < n ? safe : n);
		size_t gap, length = 1;
		/* A word of gap bytes at a time while every byte of it is a one-byte gap the run
		 * takes (no top bit, none below width): then its fields need no check at all. */
		while ((size_t)(stop - p) >= sizeof(size_t)) {
			size_t word;
			__builtin_memcpy(&word, p, sizeof(word));
			if ((word | (word - GAP_BYTES * width)) & GAP_TOP_BITS)
				break;
#pragma GCC unroll 8
			for (unsigned k = 0; k < sizeof(size_t); k++) {
				size_t one = p[k];
				if ((rc = patch_in_run(q + one, delta, add, shift, span, width,
						       signed_add)) != KS_OK) {
					p += k;
					goto out;
				}
				q += one;
			}
			p += sizeof(size_t);
		}
		for (; p < stop; p++) {
			gap = *p;
			/* gap < width, or its top bit set: taken below */
			if (gap - width >= ULEB128_MORE - width)
				goto checked;
			if ((rc = patch_in_run(q + gap, delta, add, shift, span, width,
					       signed_add)) != KS_OK)
				goto out;
			q += gap;
		}
		if (p == fields_end)
			break;
		gap = *p;
checked: /* one field, a one- or two-byte gap, its bounds checked */
		if (gap & ULEB128_MORE) {
			if (end - p < 2 || (p[1] & ULEB128_MORE))
				break;
			gap = (gap & ULEB128_PAYLOAD_MASK) | (size_t)p[1] << ULEB128_PAYLOAD_BITS;
			length = 2;
		}
		if (gap < width || gap > (size_t)(q_last - q))
			break;
		if ((rc = patch_in_run(q + gap, delta, add, shift, span, width, signed_add)) != KS_OK)
			goto out;
		q += gap;
		p += length;
		if (length == 2) {
			longer++;
			if (fields_end != end)
				fields_end++;
		}
		if (p == fields_end)
			break;
	}
out:;
	size_t at = (size_t)(q - image);
	*left -= (size_t)(p - start) - longer;
	*room -= at - *offset;
	*offset = at;
	d->p = p;
	return rc;
}

/* The run for the group's kind: signed 32-bit kinds on the addition's overflow flag when
 * their slide fits int32 (every slide the stub draws), the rest on struct reloc_op32's range. */
static inline __attribute__((always_inline)) int stream_short_gaps(const struct reloc_stream *s,
								   struct decoder *d, size_t *left,
								   size_t *offset, size_t *room,
								   size_t last, const unsigned width)
{
	if (width == 4 && s->signed_add)
		return stream_run(s, d, left, offset, room, last, 4, true);
	return stream_run(s, d, left, offset, room, last, width, false);
}

/*
 * The fields of the group in progress, up to the first that does not lie wholly below limit
 * (PASS_STREAM only; it is left pending, read and bounds-checked). A group's first field
 * below the previous group's end (groups out of image order) stops PASS_STREAM with
 * KS_EORDER before it is touched; the other passes note it and go on. The first field (any
 * offset) and a pending one are taken before the loop, which then needs neither case: the
 * stub's i386 code runs it for every relocation of the kernel, with few registers to spare.
 */
static inline __attribute__((always_inline)) int walk_fields(struct reloc_stream *s,
							     struct walk_notes *notes, size_t limit,
							     const unsigned width,
							     const enum pass pass)
{
	/* Locals, not s's fields: see read_uleb128. */
	struct decoder d = { s->at, s->end };
	uint8_t *image = s->image;
	size_t left = s->left, offset = s->offset, room = s->room, gap;
	bool pending = s->pending;
	int rc = KS_OK;
	if (s->min_gap == 0) { /* the first gap is an offset: any value goes */
		if ((rc = read_uleb128_size(&d, &gap)) != KS_OK)
			goto out;
		if (gap > room) {
			rc = KS_ERANGE;
			goto out;
		}
		room -= gap;
		offset = gap;
		s->min_gap = width;
		pending = true;
		if (offset < s->prev_end) {
			if (pass == PASS_STREAM || pass == PASS_SKIP) {
				rc = KS_EORDER; /* may overlap a patched field */
				goto out;
			}
			notes->ordered = false;
		}
	}
	if (pending) {
		if (pass == PASS_STREAM && offset + width > limit)
			goto out;
		pending = false;
		left--;
		if (pass != PASS_BOUNDS && pass != PASS_SKIP &&
		    (rc = visit_field(s, image + offset, width, pass)) != KS_OK)
			goto out;
	}
	for (; left; left--) {
		/* Under PASS_STREAM the loop below takes only what the run cannot. */
		if (pass == PASS_STREAM && limit >= width &&
		    ((rc = stream_short_gaps(s, &d, &left, &offset, &room, limit - width,
					     width)) != KS_OK ||
		     left == 0))
			break;
		if ((rc = read_uleb128_size(&d, &gap)) != KS_OK)
			break;
		/* A repeated or overlapping field would be patched on top of a patch, past the
		 * overflow check, which sees only the original bytes. */
		if (gap < width) {
			rc = KS_EFORMAT;
			break;
		}
		if (gap > room) {
			rc = KS_ERANGE;
			break;
		}
		room -= gap;
		offset += gap;
		if (pass == PASS_BOUNDS || pass == PASS_SKIP)
			continue;
		if (pass == PASS_STREAM && offset + width > limit) {
			pending = true;
			break;
		}
		if ((rc = visit_field(s, image + offset, width, pass)) != KS_OK)
			break;
	}
out:
	s->at = d.p;
	s->left = left;
	s->offset = offset;
	s->room = room;
	s->pending = pending;
	if (rc == KS_OK && left == 0)
		s->prev_end = offset + width;
	return rc;
}

/* Read the next group's kind and count, and make it the group in progress. */
static inline __attribute__((always_inline)) int start_group(struct reloc_stream *s,
							     struct walk_notes *notes,
							     const enum pass pass)
{
	struct decoder d = { s->at, s->end };
	uint8_t kind = *d.p++;
	uint64_t count;
	int rc = read_uleb128(&d, &count);
	if (rc != KS_OK)
		return rc;
	unsigned width = reloc_kind_width(kind);
	if (width == 0)
		return KS_EINVAL;
	s->at = d.p;
	if (count == 0)
		return KS_OK;
	if (width > s->image_size)
		return KS_ERANGE;
	const struct reloc_op32 op = s->op32[kind];
	if (pass != PASS_BOUNDS && pass != PASS_WRITE && width == 4 && !op.possible)
		return KS_EOVERFLOW;
	/* Each field takes a table byte at least: a count beyond the bytes left runs out of table
	 * at the same field however large it is. */
	size_t bytes_left = (size_t)(s->end - s->at);
	s->left = count > bytes_left ? bytes_left + 1 : (size_t)count;
	s->offset = 0;
	s->room = s->image_size - width;
	s->min_gap = 0; /* the first gap is an offset: any value goes */
	s->pending = false;
	s->width = (uint8_t)width;
	s->add = op.add;
	s->shift = op.shift;
	s->span = op.span;
	s->signed_add = op.signed_add;
	if (pass != PASS_STREAM) {
		/* count <= table size (each entry takes a byte), so these cannot wrap. */
		notes->summary.count[kind] += count;
		notes->summary.total += count;
	}
	return KS_OK;
}

/* Patch the group in progress up to limit: the one copy of the loop for each width that
 * every stream runs, with runs or without. */
static __attribute__((noinline)) int patch_fields(struct reloc_stream *s, size_t limit)
{
	return s->width == 8 ? walk_fields(s, NULL, limit, 8, PASS_STREAM)
			     : walk_fields(s, NULL, limit, 4, PASS_STREAM);
}

/* Make the next run the current one; past the last, every field is late. */
static int next_run(struct reloc_stream *s)
{
	s->run_late = !s->run_late;
	if (s->runs == s->runs_end) {
		s->run_late = 1;
		s->run_left = SIZE_MAX;
		return KS_OK;
	}
	struct decoder d = { s->runs, s->runs_end };
	uint64_t count = 0;
	int rc = read_uleb128(&d, &count);
	s->runs = d.p;
	s->run_left = count > SIZE_MAX ? SIZE_MAX : (size_t)count;
	return rc;
}

/*
 * Walk over the group's next s->left fields, which the other stream patches and checks
 * (overlap with the field before, overflow): their gaps only, each kept in bounds, so that
 * this stream's next field is checked from the right offset. A group's first field, whose
 * gap is an offset, takes the general walk (a walk_fields of PASS_SKIP for every field cost
 * more: docs/results.md 5b).
 */
static int skip_fields(struct reloc_stream *s)
{
	if (s->min_gap == 0)
		return walk_fields(s, NULL, 0, s->width, PASS_SKIP);
	struct decoder d = { s->at, s->end };
	size_t left = s->left, offset = s->offset, room = s->room, gap;
	int rc = KS_OK;
	for (; left; left--) {
		if ((rc = read_uleb128_size(&d, &gap)) != KS_OK)
			break;
		if (gap > room) {
			rc = KS_ERANGE;
			break;
		}
		room -= gap;
		offset += gap;
	}
	s->at = d.p;
	s->left = left;
	s->offset = offset;
	s->room = room;
	if (rc == KS_OK && left == 0)
		s->prev_end = offset + s->width;
	return rc;
}

/*
 * The group in progress for a stream with runs: each walk stays within one run, patching it
 * or walking over it.
 */
static __attribute__((noinline)) int walk_runs(struct reloc_stream *s, size_t limit)
{
	while (s->left) {
		int rc = KS_OK;
		while (rc == KS_OK && s->run_left == 0)
			rc = next_run(s);
		if (rc != KS_OK)
			return rc;
		size_t group_left = s->left;
		size_t n = group_left < s->run_left ? group_left : s->run_left;
		s->left = n;
		rc = s->run_late != s->patches_late ? skip_fields(s) : patch_fields(s, limit);
		size_t done = n - s->left;
		s->left = group_left - done;
		s->run_left -= done;
		if (rc != KS_OK || (s->left && s->run_left))
			return rc; /* or a field beyond the limit is pending */
	}
	return KS_OK;
}

/* Walk on from where s stands, through the table's end or up to limit (PASS_STREAM). */
static inline __attribute__((always_inline)) int walk_on(struct reloc_stream *s,
							 struct walk_notes *notes, size_t limit,
							 const enum pass pass)
{
	for (;;) {
		if (s->left) {
			int rc = pass != PASS_STREAM ? s->width == 8
							       ? walk_fields(s, notes, limit, 8, pass)
							       : walk_fields(s, notes, limit, 4, pass)
			       : s->runs ? walk_runs(s, limit)
					 : patch_fields(s, limit);
			if (rc != KS_OK || s->left)
				return rc;
		}
		if (s->at == s->end)
			return KS_OK;
		int rc = start_group(s, notes, pass);
		if (rc != KS_OK)
			return rc;
	}
}

void reloc_stream_init(struct reloc_stream *s, uint8_t *image, uint64_t image_size,
		       const uint8_t *table, size_t table_size, int64_t delta)
{
	*s = (struct reloc_stream){
		.at = table,
		.end = table ? table + table_size : table,
		.image = image,
		.image_size = (size_t)image_size,
		.delta = delta,
	};
	/* Once, not per group: a kernel's ADD32S and SUB32S groups alternate thousands of times. */
	for (uint8_t kind = RELOC_ADD32; kind <= RELOC_KIND_LAST; kind++)
		s->op32[kind] = op32_for(kind, delta);
	if ((table == NULL && table_size != 0) || (image == NULL && image_size != 0) ||
	    image_size > SIZE_MAX)
		s->status = KS_EINVAL;
}

void reloc_stream_runs(struct reloc_stream *s, const uint8_t *runs, size_t runs_size,
		       int patch_late)
{
	s->runs = runs;
	s->runs_end = runs ? runs + runs_size : runs;
	s->run_left = 0;
	s->run_late = 0; /* the first run read is a late one */
	s->patches_late = patch_late != 0;
	if (runs == NULL && runs_size != 0)
		s->status = KS_EINVAL;
}

int reloc_stream_patch(struct reloc_stream *s, uint64_t limit)
{
	size_t below = limit < s->image_size ? (size_t)limit : s->image_size;
	if (s->status == KS_OK)
		s->status = walk_on(s, NULL, below, PASS_STREAM);
	return s->status;
}

/*
 * One pass over the whole table. A table out of image order gets the pairwise overlap check
 * after a checking pass.
 */
static inline __attribute__((always_inline)) int walk_table(struct reloc_stream *s,
							    struct walk_notes *notes,
							    const enum pass pass)
{
	notes->ordered = true;
	for (unsigned k = 0; k <= RELOC_KIND_LAST; k++)
		notes->summary.count[k] = 0;
	notes->summary.total = 0;
	const uint8_t *table = s->at;
	int rc = walk_on(s, notes, SIZE_MAX, pass);
	/* The write pass follows a checking pass over the same table. */
	if (rc != KS_OK || pass == PASS_WRITE || notes->ordered)
		return rc;
	return reloc_check_disjoint(table, (size_t)(s->end - table));
}

int reloc_validate(const uint8_t *table, size_t table_size, uint64_t image_size,
		   struct reloc_summary *summary)
{
	if (table == NULL && table_size != 0)
		return KS_EINVAL;
	struct reloc_stream s;
	struct walk_notes notes;
	reloc_stream_init(&s, NULL, 0, table, table_size, 0);
	if (image_size > SIZE_MAX)
		return KS_EINVAL;
	s.image_size = (size_t)image_size;
	int rc = walk_table(&s, &notes, PASS_BOUNDS);
	if (rc == KS_OK && summary != NULL)
		*summary = notes.summary;
	return rc;
}

int reloc_apply(uint8_t *image, uint64_t image_size, const uint8_t *table, size_t table_size,
		int64_t delta)
{
	struct reloc_stream s;
	struct walk_notes notes;
	reloc_stream_init(&s, image, image_size, table, table_size, delta);
	if (s.status != KS_OK || table_size == 0)
		return s.status;
	/* First pass touches nothing, so a bad entry anywhere leaves the image as it was. */
	int rc = walk_table(&s, &notes, PASS_VALUES);
	if (rc != KS_OK)
		return rc;
	reloc_stream_init(&s, image, image_size, table, table_size, delta);
	return walk_table(&s, &notes, PASS_WRITE);
}

/*
 * Fill dst from src (zeros past file_size, up to size) a block at a time, each block's fields
 * patched by s before the next block is copied; sums (if not NULL) take src's words, by copy.
 */
static int move_blocks(struct reloc_stream *s, uint8_t *dst, const uint8_t *src,
		       uint64_t file_size, uint64_t size, struct word_sums *sums,
		       const struct move_routines *with)
{
	uint64_t done = 0;
	do {
		uint64_t end = done < file_size ? file_size : size;
		size_t n = end - done < MOVE_BLOCK ? (size_t)(end - done) : MOVE_BLOCK;
		if (n == 0)
			; /* an empty image: only the table's verdict */
		else if (done >= file_size)
			with->zero(dst + done, n);
		else if (sums)
			with->copy(sums, dst + done, src + done, n);
		else
			__builtin_memcpy(dst + done, src + done, n);
		done += n;
		int rc = reloc_stream_patch(s, done);
		if (rc != KS_OK)
			return rc;
	} while (done < size);
	return KS_OK;
}

int reloc_move(uint8_t *dst, const uint8_t *src, uint64_t file_size, uint64_t size,
	       const uint8_t *table, size_t table_size, int64_t delta, struct word_sums *sums)
{
	return reloc_move_with(dst, src, file_size, size, table, table_size, delta, sums,
			       &move_routines_plain);
}

static void zero_plain(uint8_t *dst, size_t n)
{
	__builtin_memset(dst, 0, n);
}

const struct move_routines move_routines_plain = { word_sums_copy, zero_plain };

int reloc_move_with(uint8_t *dst, const uint8_t *src, uint64_t file_size, uint64_t size,
		    const uint8_t *table, size_t table_size, int64_t delta, struct word_sums *sums,
		    const struct move_routines *with)
{
	if ((table == NULL && table_size != 0) || (dst == NULL && size != 0) ||
	    (src == NULL && file_size != 0) || file_size > size)
		return KS_EINVAL;
	struct reloc_stream s;
	reloc_stream_init(&s, dst, size, table, table_size, delta);
	if (sums)
		*sums = (struct word_sums){ 0, 0 };
	int rc = move_blocks(&s, dst, src, file_size, size, sums, with);
	if (rc == KS_OK)
		return KS_OK;
	/* Undo by copying again: dst becomes the plain copy, as if nothing had been patched. */
	if (sums)
		*sums = (struct word_sums){ 0, 0 };
	reloc_stream_init(&s, dst, size, NULL, 0, 0);
	move_blocks(&s, dst, src, file_size, size, sums, with);
	if (rc != KS_EORDER)
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
