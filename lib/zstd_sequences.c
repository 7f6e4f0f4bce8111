/*
 * The sequences section of a Zstandard block (RFC 8878, 3.1.1.3.2 and 3.1.1.4): each
 * sequence is decoded from the three interleaved FSE states and executed at once into the
 * output, literals first, then the match; repeat offsets follow 3.1.1.5. Far from the ends of
 * both buffers the copies are wild (lib/lz_copy.h); near them, exact.
 */
#include "lib/errors.h"
#include "lib/zstd_bits.h"
#include "lib/zstd_internal.h"

#define REPEAT_CODES 3        /* Offset_Value 1..3 names a repeat offset */
#define LONG_NUMBERS_SEQ 0x80 /* Number_of_Sequences: 1 byte below this, ... */
#define LONGEST_NUMBERS_SEQ 0xFF
#define LONGEST_NUMBERS_BASE 0x7F00
#define MODES_RESERVED 3

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

int zstd_execute_sequences(struct zstd_workspace *ws, const uint8_t *src, size_t len,
			   const struct zstd_literals *lit, uint8_t *dst, size_t frame_start,
			   size_t *pos, size_t limit)
{
	size_t count, at;
	int rc = read_count(ws, src, len, &count, &at);
	if (rc)
		return rc;
	const uint8_t *lp = lit->ptr, *const lit_end = lit->ptr + lit->len;
	uint8_t *op = dst + *pos, *const oend = dst + limit;
	const uint8_t *const frame_base = dst + frame_start;
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
		struct bits b;
		if (bits_init(&b, src + at, len - at))
			return zstd_refuse(ws, "zstd: bad sequences bitstream", KS_EFORMAT);
		const struct seq_entry *ll_t = ws->ll.entries, *of_t = ws->of.entries,
				       *ml_t = ws->ml.entries;
		size_t ll_state = bits_read(&b, ws->ll.log);
		if (!BITS_WIDE)
			bits_refill(&b);
		size_t of_state = bits_read(&b, ws->of.log);
		size_t ml_state = bits_read(&b, ws->ml.log);
		size_t rep0 = ws->rep[0], rep1 = ws->rep[1], rep2 = ws->rep[2];
		size_t window = ws->window;
		for (size_t i = 0; i < count; i++) {
			bits_refill(&b);
			const struct seq_entry ll_e = ll_t[ll_state], of_e = of_t[of_state],
					       ml_e = ml_t[ml_state];
			size_t offset = of_e.value + read_extra(&b, of_e.extra_bits);
			if (!BITS_WIDE)
				bits_refill(&b);
			size_t match = ml_e.value + bits_read(&b, ml_e.extra_bits);
			bits_refill(&b);
			size_t literals = ll_e.value + bits_read(&b, ll_e.extra_bits);
			if (i + 1 < count) {
				if (!BITS_WIDE)
					bits_refill(&b);
				ll_state = ll_e.next_base + bits_read(&b, ll_e.state_bits);
				ml_state = ml_e.next_base + bits_read(&b, ml_e.state_bits);
				if (!BITS_WIDE)
					bits_refill(&b);
				of_state = of_e.next_base + bits_read(&b, of_e.state_bits);
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
			if (literals > (size_t)(lit_end - lp))
				return zstd_refuse(ws, "zstd: sequence past the literals", KS_EFORMAT);
			size_t room = (size_t)(oend - op);
			if (literals > room || match > room - literals)
				return zstd_refuse(ws, "zstd: block output too large", KS_ENOSPC);
			size_t behind = (size_t)(op - frame_base) + literals;
			if (offset == 0 || offset > behind)
				return zstd_refuse(ws, "zstd: match before the frame's start",
						   KS_EFORMAT);
			if (offset > window)
				return zstd_refuse(ws, "zstd: match offset beyond the window",
						   KS_EFORMAT);
			if (room >= literals + match + LZ_COPY_OVERRUN &&
			    (size_t)(lit->readable_end - lp) >= literals + LZ_COPY_OVERRUN) {
				wild_copy(op, lp, literals);
				op += literals;
				wild_match(op, offset, match);
			} else {
				exact_copy(op, lp, literals);
				op += literals;
				exact_match(op, offset, match);
			}
			op += match;
			lp += literals;
		}
		bits_refill(&b);
		if (bits_overflowed(&b))
			return zstd_refuse(ws, "zstd: sequences read past their bitstream",
					   KS_EFORMAT);
		if (!bits_finished(&b))
			return zstd_refuse(ws, "zstd: sequences bitstream not consumed exactly",
					   KS_EFORMAT);
		ws->rep[0] = rep0;
		ws->rep[1] = rep1;
		ws->rep[2] = rep2;
	} else if (at != len) {
		return zstd_refuse(ws, "zstd: bytes after an empty sequences section", KS_EFORMAT);
	}
	size_t rest = (size_t)(lit_end - lp);
	if (rest > (size_t)(oend - op))
		return zstd_refuse(ws, "zstd: block output too large", KS_ENOSPC);
	exact_copy(op, lp, rest);
	*pos = (size_t)(op + rest - dst);
	return KS_OK;
}
