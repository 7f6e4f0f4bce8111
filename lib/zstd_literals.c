/*
 * The literals section of a Zstandard block (RFC 8878, 3.1.1.3.1): raw, RLE, or Huffman-coded
 * in one or four backward streams (4.2.2), decoded into the workspace. The four-stream loop
 * decodes several symbols per stream per refill, with no bounds checks inside: a refill
 * never moves before its stream's start, and overrunning streams are caught at the end.
 */
#include "lib/errors.h"
#include "lib/zstd_bits.h"
#include "lib/zstd_internal.h"

enum literals_type { LIT_RAW = 0, LIT_RLE = 1, LIT_COMPRESSED = 2, LIT_TREELESS = 3 };

#define JUMP_TABLE_SIZE 6 /* three 16-bit stream sizes before four streams */
/* Symbols per stream per refill: at most HUF_LOG_MAX bits each within BITS_AFTER_REFILL. */
#define HUF_PER_REFILL (BITS_AFTER_REFILL / HUF_LOG_MAX)

static inline uint8_t *decode_symbol(const struct huf_entry *table, unsigned log, struct bits *b,
				     uint8_t *op)
{
	struct huf_entry e = table[bits_peek_nonzero(b, log)];
	*op = e.symbol;
	bits_skip(b, e.bits);
	return op + 1;
}

static inline size_t min_size(size_t a, size_t b)
{
	return a < b ? a : b;
}

/* Whole words before the reader's ptr. */
static inline size_t words_before(const struct bits *b)
{
	return (size_t)(b->ptr - b->start) / sizeof(uintptr_t);
}

/* One stream's symbols one at a time into [op, end); whether it ended exactly there. */
static int decode_stream_tail(const struct huf_entry *table, unsigned log, struct bits *b,
			      uint8_t *op, uint8_t *end)
{
	while (op < end) {
		bits_refill(b);
		op = decode_symbol(table, log, b, op);
	}
	bits_refill(b);
	return bits_finished(b);
}

static int decode_one_stream(struct zstd_workspace *ws, const uint8_t *src, size_t len,
			     size_t regenerated)
{
	struct bits b;
	if (bits_init(&b, src, len))
		return zstd_refuse(ws, "zstd: bad Huffman stream", KS_EFORMAT);
	if (!decode_stream_tail(ws->huf, ws->huf_log, &b, ws->literals, ws->literals + regenerated))
		return zstd_refuse(ws, "zstd: Huffman stream not consumed exactly", KS_EFORMAT);
	return KS_OK;
}

static int decode_four_streams(struct zstd_workspace *ws, const uint8_t *src, size_t len,
			       size_t regenerated)
{
	if (len < JUMP_TABLE_SIZE)
		return zstd_refuse(ws, "zstd: truncated jump table", KS_EFORMAT);
	size_t size[4], rest = len - JUMP_TABLE_SIZE;
	for (unsigned k = 0; k < 3; k++) {
		size[k] = load_le16(src + 2 * k);
		if (size[k] > rest)
			return zstd_refuse(ws, "zstd: jump table past the literals", KS_EFORMAT);
		rest -= size[k];
	}
	size[3] = rest;
	size_t segment = (regenerated + 3) / 4;
	if (3 * segment > regenerated)
		return zstd_refuse(ws, "zstd: too few literals for four streams", KS_EFORMAT);
	struct bits b0, b1, b2, b3;
	const uint8_t *p = src + JUMP_TABLE_SIZE;
	if (bits_init(&b0, p, size[0]) || bits_init(&b1, p + size[0], size[1]) ||
	    bits_init(&b2, p + size[0] + size[1], size[2]) ||
	    bits_init(&b3, p + size[0] + size[1] + size[2], size[3]))
		return zstd_refuse(ws, "zstd: bad Huffman stream", KS_EFORMAT);
	const struct huf_entry *table = ws->huf;
	unsigned log = ws->huf_log;
	uint8_t *op0 = ws->literals, *op1 = op0 + segment, *op2 = op1 + segment,
		*op3 = op2 + segment;
	uint8_t *const end3 = ws->literals + regenerated;
	/*
	 * Stream 3 is the shortest, so its room bounds all four. First, rounds whose refills
	 * need no clamping: a round reads at most HUF_PER_REFILL codes of HUF_LOG_MAX bits
	 * after a refill that left fewer than 8 bits read, less than a word, so a refill moves
	 * back less than a word, and a stream with n words before its ptr lasts n rounds. The
	 * readers live in locals: the byte stores could alias the structs, which would keep
	 * each 'consumed' in memory.
	 */
	_Static_assert(HUF_PER_REFILL * HUF_LOG_MAX + 7 < BITS_WORD, "a round reads under a word");
	for (;;) {
		size_t rounds = (size_t)(end3 - op3) / HUF_PER_REFILL;
		rounds = min_size(rounds, words_before(&b0));
		rounds = min_size(rounds, words_before(&b1));
		rounds = min_size(rounds, words_before(&b2));
		rounds = min_size(rounds, words_before(&b3));
		if (rounds == 0)
			break;
		struct bits r0 = b0, r1 = b1, r2 = b2, r3 = b3;
		for (; rounds; rounds--) {
			bits_refill_far(&r0);
			bits_refill_far(&r1);
			bits_refill_far(&r2);
			bits_refill_far(&r3);
			/* Unrolled on a wide word: 1 % fewer instructions on the host. A narrow
			 * word's two symbols a round take fewer as a loop. */
#if UINTPTR_MAX > UINT32_MAX
#pragma GCC unroll 8
#endif
			for (unsigned i = 0; i < HUF_PER_REFILL; i++) {
				op0 = decode_symbol(table, log, &r0, op0);
				op1 = decode_symbol(table, log, &r1, op1);
				op2 = decode_symbol(table, log, &r2, op2);
				op3 = decode_symbol(table, log, &r3, op3);
			}
		}
		b0 = r0;
		b1 = r1;
		b2 = r2;
		b3 = r3;
	}
	/* Then clamped refills, near the streams' starts. */
	while ((size_t)(end3 - op3) >= HUF_PER_REFILL) {
		bits_refill(&b0);
		bits_refill(&b1);
		bits_refill(&b2);
		bits_refill(&b3);
		struct bits r0 = b0, r1 = b1, r2 = b2, r3 = b3;
		for (unsigned i = 0; i < HUF_PER_REFILL; i++) {
			op0 = decode_symbol(table, log, &r0, op0);
			op1 = decode_symbol(table, log, &r1, op1);
			op2 = decode_symbol(table, log, &r2, op2);
			op3 = decode_symbol(table, log, &r3, op3);
		}
		b0.consumed = r0.consumed;
		b1.consumed = r1.consumed;
		b2.consumed = r2.consumed;
		b3.consumed = r3.consumed;
	}
	uint8_t *const start = ws->literals;
	if (!decode_stream_tail(table, log, &b0, op0, start + segment) ||
	    !decode_stream_tail(table, log, &b1, op1, start + 2 * segment) ||
	    !decode_stream_tail(table, log, &b2, op2, start + 3 * segment) ||
	    !decode_stream_tail(table, log, &b3, op3, end3))
		return zstd_refuse(ws, "zstd: Huffman stream not consumed exactly", KS_EFORMAT);
	return KS_OK;
}

/*
 * Read the literals section at src (len bytes left in the block; the input ends at
 * input_end) into *lit; *used is its size.
 */
int zstd_read_literals(struct zstd_workspace *ws, const uint8_t *src, size_t len,
		       const uint8_t *input_end, struct zstd_literals *lit, size_t *used)
{
	if (len < 1)
		return zstd_refuse(ws, "zstd: truncated literals header", KS_EFORMAT);
	unsigned type = src[0] & 3, format = (src[0] >> 2) & 3;
	size_t header, regenerated, compressed = 0;
	if (type == LIT_RAW || type == LIT_RLE) {
		header = format == 1 ? 2 : format == 3 ? 3 : 1;
		if (len < header)
			return zstd_refuse(ws, "zstd: truncated literals header", KS_EFORMAT);
		if (header == 1)
			regenerated = src[0] >> 3;
		else if (header == 2)
			regenerated = (src[0] >> 4) + ((size_t)src[1] << 4);
		else
			regenerated =
				(src[0] >> 4) + ((size_t)src[1] << 4) + ((size_t)src[2] << 12);
	} else {
		header = format <= 1 ? 3 : format == 2 ? 4 : 5;
		if (len < header)
			return zstd_refuse(ws, "zstd: truncated literals header", KS_EFORMAT);
		uint32_t v = load_le24(src);
		if (header == 3) {
			regenerated = (v >> 4) & 0x3FF;
			compressed = v >> 14;
		} else if (header == 4) {
			v |= (uint32_t)src[3] << 24;
			regenerated = (v >> 4) & 0x3FFF;
			compressed = v >> 18;
		} else {
			v |= (uint32_t)src[3] << 24;
			regenerated = (v >> 4) & 0x3FFFF;
			compressed = (v >> 22) | ((size_t)src[4] << 10);
		}
	}
	if (regenerated > ZSTD_BLOCK_MAX)
		return zstd_refuse(ws, "zstd: more literals than a block holds", KS_EFORMAT);
	const uint8_t *body = src + header;
	size_t left = len - header;
	lit->len = regenerated;
	lit->ptr = ws->literals;
	lit->readable_end = ws->literals + sizeof(ws->literals);
	if (type == LIT_RAW) {
		if (left < regenerated)
			return zstd_refuse(ws, "zstd: truncated raw literals", KS_EFORMAT);
		lit->ptr = body;
		lit->readable_end = input_end;
		*used = header + regenerated;
		return KS_OK;
	}
	if (type == LIT_RLE) {
		if (left < 1)
			return zstd_refuse(ws, "zstd: truncated RLE literals", KS_EFORMAT);
		__builtin_memset(ws->literals, body[0], regenerated);
		*used = header + 1;
		return KS_OK;
	}
	if (compressed > left)
		return zstd_refuse(ws, "zstd: truncated Huffman literals", KS_EFORMAT);
	size_t tree = 0;
	int rc;
	if (type == LIT_COMPRESSED) {
		if ((rc = huf_read_table(ws, body, compressed, &tree)))
			return rc;
	} else if (!ws->huf_valid) {
		return zstd_refuse(ws, "zstd: treeless literals without a previous tree",
				   KS_EFORMAT);
	}
	rc = format == 0 ? decode_one_stream(ws, body + tree, compressed - tree, regenerated)
			 : decode_four_streams(ws, body + tree, compressed - tree, regenerated);
	if (rc)
		return rc;
	*used = header + compressed;
	return KS_OK;
}
