/*
 * The sequences section of a Zstandard block (RFC 8878, 3.1.1.3.2 and 3.1.1.4): each sequence
 * is decoded from the three interleaved FSE states (repeat offsets resolved as 3.1.1.5 says)
 * and executed at once into the output, literals first, then the match, in runs of up to
 * SEQ_BATCH. Far from the ends of both buffers the copies are wild (lib/lz_copy.h); near
 * them, exact. (Decoding a batch into memory and executing it in a second loop cost more
 * instructions, on x86-64 and i386 alike: docs/results.md.)
 */
#include "lib/errors.h"
#include "lib/zstd_bits.h"
#include "lib/zstd_internal.h"

#define REPEAT_CODES	     3	  /* Offset_Value 1..3 names a repeat offset */
#define LONG_NUMBERS_SEQ     0x80 /* Number_of_Sequences: 1 byte below this, ... */
#define LONGEST_NUMBERS_SEQ  0xFF
#define LONGEST_NUMBERS_BASE 0x7F00
#define MODES_RESERVED	     3
#define SEQUENCES_OVERREAD   "zstd: sequences read past their bitstream"

/* kslide-pack's own build of this file (tools/pack/zstd_observed.c) learns which output bytes
 * each match reads; everywhere else the hook is nothing. */
#ifndef ZSTD_OBSERVE_MATCH
#define ZSTD_OBSERVE_MATCH(from, len) ((void)0)
#endif

/* n extra bits (up to 31) on a narrow word: higher part, refill, lower 16 bits. */
static inline size_t read_extra(struct bits *b, unsigned n)
{
	if (BITS_WIDE || n <= BITS_AFTER_REFILL)
		return bits_read(b, n);
	size_t high = bits_read(b, n - 16);
	bits_refill(b);
	return high << 16 | bits_read(b, 16);
}

static int read_count(struct zstd_workspace *ws, const uint8_t *src, size_t len, size_t *count,
		      size_t *used)
{
	if (len < 1)
		return zstd_refuse(ws, "zstd: truncated sequences header", KS_EFORMAT);
	unsigned b0 = src[0];
	*used = b0 < LONG_NUMBERS_SEQ ? 1 : b0 < LONGEST_NUMBERS_SEQ ? 2 : 3;
	if (len < *used)
		return zstd_refuse(ws, "zstd: truncated sequences header", KS_EFORMAT);
	if (*used == 1)
		*count = b0;
	else if (*used == 2)
		*count = ((size_t)(b0 - LONG_NUMBERS_SEQ) << 8) + src[1];
	else
		*count = src[1] + ((size_t)src[2] << 8) + LONGEST_NUMBERS_BASE;
	return KS_OK;
}

/* Why a sequence cannot be executed, if it cannot: 'behind' bytes of the frame precede it. */
static int check_sequence(struct zstd_workspace *ws, size_t literals, size_t match, size_t offset,
			  size_t literals_left, size_t room, size_t behind, size_t window)
{
	if (literals > literals_left)
		return zstd_refuse(ws, "zstd: sequence past the literals", KS_EFORMAT);
	if (literals > room || match > room - literals)
		return zstd_refuse(ws, "zstd: block output too large", KS_ENOSPC);
	if (offset == 0 || offset > behind + literals)
		return zstd_refuse(ws, "zstd: match before the frame's start", KS_EFORMAT);
	if (offset > window)
		return zstd_refuse(ws, "zstd: match offset beyond the window", KS_EFORMAT);
	return KS_OK;
}

struct seq_decoder {
	struct bits bits;
	size_t ll_state, of_state, ml_state;
	size_t rep[3];
};

/* The most bits one sequence reads: offset 31, lengths 16 + 16, states 9 + 9 + 8. */
#define SEQ_MAX_BITS (OF_MAX_CODE + 16 + 16 + LL_LOG_MAX + ML_LOG_MAX + OF_LOG_MAX)

#define REFILL(b) ((far) ? bits_refill_far(b) : bits_refill(b))

struct seq_output {
	uint8_t *op;
	uint8_t *end;
	const uint8_t *frame_base;
	const uint8_t *lp;
	const uint8_t *lit_end;
	const uint8_t *lit_readable_end;
	size_t window;
};

/*
 * One more than the literals from lp on that a wild copy may take: it reads LZ_COPY_OVERRUN
 * bytes past them, and a chunk even for none, so 0 when it may take none at all.
 */
static inline size_t wild_literals(const struct seq_output *o, const uint8_t *lp)
{
	size_t left = (size_t)(o->lit_end - lp), readable = (size_t)(o->lit_readable_end - lp);
	if (readable < LZ_COPY_OVERRUN)
		return 0;
	return (left < readable - LZ_COPY_OVERRUN ? left : readable - LZ_COPY_OVERRUN) + 1;
}

/*
 * The lowest byte a match on the fast path may start at: the frame's first byte, or, when the
 * block could end more than a window past it, its end less a window. A match that starts in
 * the window but below this floor is still valid: it takes the careful path, which checks
 * the window exactly. So the fast path's test needs no separate window bound.
 */
static inline const uint8_t *match_floor(const struct seq_output *o)
{
	size_t span = (size_t)(o->end - o->frame_base);
	return o->frame_base + (span > o->window ? span - o->window : 0);
}

/* A sequence near an end of either buffer, or a bad one: checked, then exact copies. */
static __attribute__((noinline)) int execute_careful(struct zstd_workspace *ws,
						     struct seq_output *o, size_t literals,
						     size_t match, size_t offset)
{
	int rc = check_sequence(ws, literals, match, offset, (size_t)(o->lit_end - o->lp),
				(size_t)(o->end - o->op), (size_t)(o->op - o->frame_base),
				o->window);
	if (rc)
		return rc;
	exact_copy(o->op, o->lp, literals);
	ZSTD_OBSERVE_MATCH(o->op + literals - offset, match);
	exact_match(o->op + literals, offset, match);
	o->op += literals + match;
	o->lp += literals;
	return KS_OK;
}

/*
 * Decode n sequences and execute each at once; 'left' counts down the block's sequences (the
 * last one does not update the states, 3.1.1.3.2.1.4). 'far' (a constant in each copy the
 * compiler makes): the n sequences hold no last one and their bits cannot reach the stream's
 * start, so refills need no clamping and every state updates. The output bounds are locals:
 * the copies store through byte pointers, which could alias o's fields.
 */
static inline __attribute__((always_inline)) int run_batch(struct zstd_workspace *ws,
							   struct seq_decoder *d,
							   struct seq_output *o, size_t n,
							   size_t *left, const int far)
{
	struct bits b = d->bits;
	size_t ll_state = d->ll_state, of_state = d->of_state, ml_state = d->ml_state;
	size_t rep0 = d->rep[0], rep1 = d->rep[1], rep2 = d->rep[2];
	size_t remaining = *left;
	uint8_t *op = o->op;
	const uint8_t *lp = o->lp;
	uint8_t *const end = o->end;
	const uint8_t *const floor = match_floor(o);
	size_t lit_fast = wild_literals(o, lp);
	int rc = KS_OK;
	for (size_t todo = n; todo; todo--) {
		REFILL(&b);
		/* Pointers, not copies: each field is loaded where it is used, not kept. */
		const struct seq_entry *ll_e = &ws->ll_entries[ll_state],
				       *of_e = &ws->of_entries[of_state],
				       *ml_e = &ws->ml_entries[ml_state];
		size_t offset = of_e->value + read_extra(&b, of_e->extra_bits);
		if (!BITS_WIDE)
			REFILL(&b);
		/* Most lengths have no extra bits: a well-predicted branch skips the read. */
		size_t match = ml_e->value;
		if (ml_e->extra_bits)
			match += bits_read_nonzero(&b, ml_e->extra_bits);
		REFILL(&b);
		size_t literals = ll_e->value;
		if (ll_e->extra_bits)
			literals += bits_read_nonzero(&b, ll_e->extra_bits);
		if (far || --remaining) {
			if (!BITS_WIDE)
				REFILL(&b);
			ll_state = ll_e->next_base + bits_read(&b, ll_e->state_bits);
			ml_state = ml_e->next_base + bits_read(&b, ml_e->state_bits);
			if (!BITS_WIDE)
				REFILL(&b);
			of_state = of_e->next_base + bits_read(&b, of_e->state_bits);
		}
		/* 3.1.1.5: with no literals, the repeat codes shift by one. */
		if (offset > REPEAT_CODES) {
			offset -= REPEAT_CODES;
			rep2 = rep1;
			rep1 = rep0;
			rep0 = offset;
		} else {
			size_t code = offset - 1 + (literals == 0);
			if (code) {
				offset = code == 1 ? rep1 : code == 2 ? rep2 : rep0 - 1;
				if (code != 1)
					rep2 = rep1;
				rep1 = rep0;
				rep0 = offset;
			} else {
				offset = rep0;
			}
		}
		/*
		 * One test for the common case: everything in bounds, and room left for the
		 * wild copies in both buffers. offset - 1 < reach refuses offset 0.
		 */
		size_t room = (size_t)(end - op);
		size_t reach = (size_t)(op - floor) + literals;
		int fast = (literals < lit_fast) & (offset - 1 < reach) &
			   (room >= literals + match + LZ_COPY_OVERRUN);
		if (__builtin_expect(fast, 1)) {
			wild_copy(op, lp, literals);
			op += literals;
			ZSTD_OBSERVE_MATCH(op - offset, match);
			wild_match(op, offset, match);
			op += match;
			lp += literals;
			lit_fast -= literals;
			continue;
		}
		o->op = op;
		o->lp = lp;
		if ((rc = execute_careful(ws, o, literals, match, offset))) {
			/* A sequence decoded from bits before the stream's start is garbage: that,
			 * not what the garbage asked for, is what is wrong with the block. */
			bits_refill(&b);
			if (bits_overflowed(&b))
				rc = zstd_refuse(ws, SEQUENCES_OVERREAD, KS_EFORMAT);
			break;
		}
		op = o->op;
		lp = o->lp;
		lit_fast = wild_literals(o, lp);
	}
	d->bits = b;
	d->ll_state = ll_state;
	d->of_state = of_state;
	d->ml_state = ml_state;
	d->rep[0] = rep0;
	d->rep[1] = rep1;
	d->rep[2] = rep2;
	*left = far ? remaining - n : remaining;
	o->op = op;
	o->lp = lp;
	return rc;
}

int zstd_execute_sequences(struct zstd_workspace *ws, const uint8_t *src, size_t len,
			   const struct zstd_literals *lit, uint8_t *dst, size_t frame_start,
			   size_t *pos, size_t limit)
{
	size_t count, at;
	int rc = read_count(ws, src, len, &count, &at);
	if (rc)
		return rc;
	struct seq_output o = {dst + *pos,	    dst + limit,       dst + frame_start, lit->ptr,
			       lit->ptr + lit->len, lit->readable_end, ws->window};
	if (count > 0) {
		if (len - at < 1)
			return zstd_refuse(ws, "zstd: truncated sequences header", KS_EFORMAT);
		unsigned modes = src[at++];
		if (modes & MODES_RESERVED)
			return zstd_refuse(ws, "zstd: reserved sequence mode bits", KS_EFORMAT);
		size_t used;
		if ((rc = fse_read_sequence_tables(ws, modes, src + at, len - at, &used)))
			return rc;
		at += used;
		struct seq_decoder d;
		if (bits_init(&d.bits, src + at, len - at))
			return zstd_refuse(ws, "zstd: bad sequences bitstream", KS_EFORMAT);
		d.ll_state = bits_read(&d.bits, ws->ll.log);
		if (!BITS_WIDE)
			bits_refill(&d.bits);
		d.of_state = bits_read(&d.bits, ws->of.log);
		d.ml_state = bits_read(&d.bits, ws->ml.log);
		for (unsigned k = 0; k < 3; k++)
			d.rep[k] = ws->rep[k];
		for (size_t left = count; left;) {
			/*
			 * Unclamped: as many as the bytes before ptr hold at SEQ_MAX_BITS each,
			 * a word kept in reserve (so no refill can move ptr before the start),
			 * and short of the block's last sequence.
			 */
			size_t before = (size_t)(d.bits.ptr - d.bits.start);
			size_t n = before > sizeof(uintptr_t)
					   ? (before - sizeof(uintptr_t)) * 8 / SEQ_MAX_BITS
					   : 0;
			if (n > left - 1)
				n = left - 1;
			if (n > SEQ_BATCH)
				n = SEQ_BATCH;
			if (n)
				rc = run_batch(ws, &d, &o, n, &left, 1);
			else
				rc = run_batch(ws, &d, &o, left < SEQ_BATCH ? left : SEQ_BATCH,
					       &left, 0);
			if (rc)
				return rc;
		}
		bits_refill(&d.bits);
		if (bits_overflowed(&d.bits))
			return zstd_refuse(ws, SEQUENCES_OVERREAD, KS_EFORMAT);
		if (!bits_finished(&d.bits))
			return zstd_refuse(ws, "zstd: sequences bitstream not consumed exactly",
					   KS_EFORMAT);
		for (unsigned k = 0; k < 3; k++)
			ws->rep[k] = d.rep[k];
	} else if (at != len) {
		return zstd_refuse(ws, "zstd: bytes after an empty sequences section", KS_EFORMAT);
	}
	size_t rest = (size_t)(o.lit_end - o.lp);
	if (rest > (size_t)(o.end - o.op))
		return zstd_refuse(ws, "zstd: block output too large", KS_ENOSPC);
	exact_copy(o.op, o.lp, rest);
	*pos = (size_t)(o.op + rest - dst);
	return KS_OK;
}
