/*
 * LZ4 frames and blocks, decoded straight into the caller's buffer (lib/lz4.h). Written from
 * lz4_Frame_format.md and lz4_Block_format.md. The end-of-block rules are the reference
 * decoder's careful path's reading of the format's "End of block conditions"; no block that
 * meets those conditions breaks them. Refusals for them say "end rule": the reference
 * decoder's faster paths let some such blocks through (tests/fuzz/fuzz_lz4.c).
 */
#include "lib/lz4.h"

#include "lib/errors.h"
#include "lib/lz_copy.h"
#include "lib/unaligned.h"
#include "lib/xxhash.h"

/* lz4_Block_format.md, "End of block conditions" and the length fields. */
#define LZ4_MIN_MATCH	      4
#define LZ4_LAST_LITERALS     5	 /* the last 5 bytes of a block are literals */
#define LZ4_MATCH_LIMIT	      12 /* the last match starts at least 12 bytes before the end */
#define LZ4_RUN_MASK	      15 /* a 4-bit length field of 15 continues in extra bytes */
#define LZ4_LAST_SEQUENCE_MIN 8	 /* offset (2) + token (1) + last literals (5) after a run */
/*
 * The fast loop's room: a sequence that starts with more than FAST_INPUT_ROOM bytes of input
 * and FAST_OUTPUT_ROOM bytes of output left meets every end rule if its lengths fit the
 * checks below, and its copies' overrun (LZ_COPY_OVERRUN) stays inside both buffers. Input:
 * a token, at most 14 literals read as one 16-byte chunk, the 2-byte offset, and the 8 bytes
 * the end rules want after a match's offset. Output: 14 literals and 18 match bytes written
 * as 16 and 24, and 32 bytes of overrun.
 */
#define FAST_INPUT_ROOM	 32
#define FAST_OUTPUT_ROOM 64

/* lz4_Frame_format.md: FLG and BD bytes, block size word, skippable frames. */
#define LZ4_SKIPPABLE_MAGIC   0x184D2A50u
#define LZ4_SKIPPABLE_MASK    0xFFFFFFF0u
#define FLG_VERSION_SHIFT     6
#define FLG_VERSION	      1
#define FLG_BLOCK_INDEPENDENT 0x20
#define FLG_BLOCK_CHECKSUM    0x10
#define FLG_CONTENT_SIZE      0x08
#define FLG_CONTENT_CHECKSUM  0x04
#define FLG_RESERVED	      0x02
#define FLG_DICT_ID	      0x01
#define BD_RESERVED	      0x8F
#define BD_SIZE_SHIFT	      4
#define BD_SIZE_MIN	      4 /* 64 KiB; 0-3 are not defined */
#define BLOCK_UNCOMPRESSED    0x80000000u
#define BLOCK_SIZE_MASK	      0x7FFFFFFFu

static int refuse(const char **why, const char *reason, int status)
{
	if (why)
		*why = reason;
	return status;
}

/* Where decode_fast may go: see FAST_INPUT_ROOM. */
struct fast_limits {
	const uint8_t *base;  /* the history's start */
	const uint8_t *ifast; /* a sequence starts before it, */
	uint8_t *ofast;	      /* and before it, */
	uint8_t *owild;	      /* and its wild copies end before it */
};

/*
 * Add a length's extra bytes (each 255 says another follows) to *length, reading none at or
 * past 'limit'; 0 if it would have to.
 */
static inline __attribute__((always_inline)) int
add_extra_length(const uint8_t **ipp, const uint8_t *limit, size_t *length)
{
	const uint8_t *ip = *ipp;
	size_t byte;
	do {
		if (ip >= limit)
			return 0;
		byte = *ip++;
		*length += byte;
	} while (byte == 255);
	*ipp = ip;
	return 1;
}

/*
 * Decode sequences while both ends are far, each length and offset checked once against
 * limits that leave room for every wild copy; return at the first sequence that fails a
 * check, or near either end, with *ipp at its token and *opp where it goes. The careful path
 * in decode_block decodes that one again, checking each rule on its own, and names the fault
 * (writing a sequence's literals twice writes the same bytes). With 'whole_window' the
 * output starts at least LZ4_WINDOW bytes past the history's start, so that every offset
 * but 0 stays inside it: as in every block of a linked frame but the first.
 *
 * A sequence with both lengths in its token takes 3 input bytes more than its literals and
 * writes at least 4 more, so while op stays below olimit, set no further past op than ip is
 * from ifast, ip stays below ifast too: such sequences check only op.
 */
static inline __attribute__((always_inline)) void
decode_sequences(const struct fast_limits *limits, const uint8_t **ipp, uint8_t **opp,
		 int whole_window)
{
	const uint8_t *ip = *ipp;
	uint8_t *op = *opp;
	const uint8_t *const base = limits->base, *const ifast = limits->ifast;
	uint8_t *const ofast = limits->ofast, *const owild = limits->owild;
	const uint8_t *token_at;
	uint8_t *sequence;
	while (ip < ifast && op < ofast) {
		size_t in_room = (size_t)(ifast - ip), out_room = (size_t)(ofast - op);
		uint8_t *const olimit = op + (in_room < out_room ? in_room : out_room);
		size_t token, literals, length, offset;
		do {
			token = *ip;
			literals = token >> 4;
			length = token & LZ4_RUN_MASK;
			if (literals == LZ4_RUN_MASK || length == LZ4_RUN_MASK)
				goto long_lengths;
			offset = load_le16(ip + 1 + literals);
			copy_chunk(op, ip + 1);
			if (whole_window ? offset == 0
					 : offset - 1 >= (size_t)(op + literals - base))
				goto out; /* 0, or before the history */
			op += literals;
			ip += literals + 3;
			length += LZ4_MIN_MATCH;
			if (offset >= 8) {
				/* 8-byte words, each read after the one before it is written */
				const uint8_t *match = op - offset;
				store_le64(op, load_le64(match));
				store_le64(op + 8, load_le64(match + 8));
				store_le64(op + 16, load_le64(match + 16));
			} else {
				wild_match(op, offset, length);
			}
			op += length;
		} while (op < olimit);
		continue;
	long_lengths:
		/* Checked against ifast and owild themselves; then olimit is set again. */
		token_at = ip++;
		sequence = op;
		if (literals == LZ4_RUN_MASK &&
		    (!add_extra_length(&ip, ifast, &literals) || literals > (size_t)(ifast - ip) ||
		     literals > (size_t)(owild - op)))
			goto careful;
		wild_copy(op, ip, literals);
		op += literals;
		ip += literals;
		offset = load_le16(ip);
		ip += 2;
		if (length == LZ4_RUN_MASK && !add_extra_length(&ip, ifast, &length))
			goto careful;
		length += LZ4_MIN_MATCH;
		if (length > (size_t)(owild - op) ||
		    (whole_window ? offset == 0 : offset - 1 >= (size_t)(op - base)))
			goto careful;
		wild_long_match(op, offset, length);
		op += length;
	}
	goto out;
careful:
	ip = token_at;
	op = sequence;
out:
	*ipp = ip;
	*opp = op;
}

/*
 * In a function of its own, so that the loop's few pointers stay in registers. The loop for
 * whole windows is a second copy of it, 1.1 KB of i386 code: the i386 stub, whose images must
 * stay small (docs/results.md, 4b), keeps the one that checks every offset.
 */
static __attribute__((noinline)) void decode_fast(const struct fast_limits *limits,
						  const uint8_t **ipp, uint8_t **opp)
{
	if (sizeof(void *) > 4 && (size_t)(*opp - limits->base) >= LZ4_WINDOW)
		decode_sequences(limits, ipp, opp, 1);
	else
		decode_sequences(limits, ipp, opp, 0);
}

/*
 * One block to op, history from 'base', rules relative to op + capacity, writes at most
 * 'writable' (<= capacity) bytes.
 */
static int decode_block(const uint8_t *base, uint8_t *op, size_t capacity, size_t writable,
			const uint8_t *ip, size_t src_len, size_t *decoded, const char **why)
{
	uint8_t *const start = op;
	uint8_t *const wend = op + writable;
	const uint8_t *const iend = ip + src_len;
	/* The reference decoder's reading for no room at all: only the empty block, one 0. */
	if (capacity == 0 && !(src_len == 1 && ip[0] == 0))
		return refuse(why, "LZ4 block: not empty, and no room", KS_EFORMAT);
	int far = src_len > FAST_INPUT_ROOM && writable > FAST_OUTPUT_ROOM;
	struct fast_limits limits = {
		.base = base,
		.ifast = far ? iend - FAST_INPUT_ROOM : ip,
		.ofast = far ? wend - FAST_OUTPUT_ROOM : op,
		.owild = far ? wend - LZ_COPY_OVERRUN : op,
	};
	for (;;) {
		if (ip < limits.ifast && op < limits.ofast)
			decode_fast(&limits, &ip, &op);
		if (ip >= iend)
			return refuse(why, "LZ4 block: truncated sequence", KS_EFORMAT);
		unsigned token = *ip++;
		size_t literals = token >> 4;
		if (literals == LZ4_RUN_MASK) {
			if ((size_t)(iend - ip) <= LZ4_RUN_MASK)
				return refuse(
					why,
					"LZ4 block: end rule: literal length in the last 15 bytes",
					KS_EFORMAT);
			unsigned byte;
			do {
				/* A partial length beyond the input left can only grow. */
				if (ip >= iend || literals > (size_t)(iend - ip))
					return refuse(why, "LZ4 block: literals past the end",
						      KS_EFORMAT);
				byte = *ip++;
				literals += byte;
			} while (byte == 255);
		}
		size_t in_left = (size_t)(iend - ip);
		size_t out_left = capacity - (size_t)(op - start);
		if (literals + LZ4_MATCH_LIMIT > out_left ||
		    literals + LZ4_LAST_SEQUENCE_MIN > in_left) {
			/* Too close to either end for a match to follow: the block ends here. */
			if (literals != in_left)
				return refuse(
					why, "LZ4 block: end rule: a match after the last literals",
					KS_EFORMAT);
			if (literals > out_left)
				return refuse(why, "LZ4 block: larger than its maximum",
					      KS_EFORMAT);
			if (literals > (size_t)(wend - op))
				return refuse(why, "LZ4 block: output buffer too small", KS_ENOSPC);
			exact_copy(op, ip, literals);
			op += literals;
			break;
		}
		if (literals > (size_t)(wend - op))
			return refuse(why, "LZ4 block: output buffer too small", KS_ENOSPC);
		if (in_left >= literals + LZ_COPY_OVERRUN &&
		    (size_t)(wend - op) >= literals + LZ_COPY_OVERRUN)
			wild_copy(op, ip, literals);
		else
			exact_copy(op, ip, literals);
		op += literals;
		ip += literals;

		size_t offset = load_le16(ip);
		ip += 2;
		size_t length = token & LZ4_RUN_MASK;
		if (length == LZ4_RUN_MASK) {
			unsigned byte;
			do {
				byte = *ip++; /* in bounds: at least LZ4_LAST_LITERALS bytes were
						 left */
				length += byte;
				if ((size_t)(iend - ip) < LZ4_LAST_LITERALS)
					return refuse(why,
						      "LZ4 block: end rule: match length in "
						      "the last 5 bytes",
						      KS_EFORMAT);
				if (length > capacity)
					return refuse(why, "LZ4 block: match longer than the block",
						      KS_EFORMAT);
			} while (byte == 255);
		}
		length += LZ4_MIN_MATCH;
		if (offset == 0)
			return refuse(why, "LZ4 block: match offset 0", KS_EFORMAT);
		if (offset > (size_t)(op - base))
			return refuse(why, "LZ4 block: match before the start of the output",
				      KS_EFORMAT);
		out_left = capacity - (size_t)(op - start);
		if (length + LZ4_LAST_LITERALS > out_left)
			return refuse(why, "LZ4 block: end rule: match in the last 5 bytes",
				      KS_EFORMAT);
		if (length > (size_t)(wend - op))
			return refuse(why, "LZ4 block: output buffer too small", KS_ENOSPC);
		if ((size_t)(wend - op) >= length + LZ_COPY_OVERRUN)
			wild_long_match(op, offset, length);
		else
			exact_match(op, offset, length);
		op += length;
	}
	*decoded = (size_t)(op - start);
	return KS_OK;
}

int lz4_block_decompress(uint8_t *out, size_t pos, size_t capacity, const uint8_t *src,
			 size_t src_len, size_t *decoded, const char **why)
{
	*decoded = 0;
	return decode_block(out, out + pos, capacity, capacity, src, src_len, decoded, why);
}

struct lz4_frame {
	uint8_t flags;
	size_t block_max;
	uint64_t content_size; /* 0: not given */
	size_t header_size;
};

/* Magic, FLG, BD, the optional fields and the header checksum. */
static int read_frame_header(const uint8_t *p, size_t len, struct lz4_frame *f, const char **why)
{
	if (len < 7)
		return refuse(why, "LZ4 frame: truncated header", KS_EFORMAT);
	uint8_t flg = p[4], bd = p[5];
	if (flg >> FLG_VERSION_SHIFT != FLG_VERSION)
		return refuse(why, "LZ4 frame: unknown version", KS_EFORMAT);
	if ((flg & FLG_RESERVED) || (bd & BD_RESERVED))
		return refuse(why, "LZ4 frame: reserved bit set", KS_EFORMAT);
	unsigned size_id = bd >> BD_SIZE_SHIFT;
	if (size_id < BD_SIZE_MIN)
		return refuse(why, "LZ4 frame: undefined block maximum size", KS_EFORMAT);
	f->flags = flg;
	f->block_max = (size_t)1 << (8 + 2 * size_id); /* 4 -> 64 KiB ... 7 -> 4 MiB */
	size_t size = 7;
	if (flg & FLG_CONTENT_SIZE)
		size += 8;
	if (flg & FLG_DICT_ID)
		size += 4;
	if (len < size)
		return refuse(why, "LZ4 frame: truncated header", KS_EFORMAT);
	f->content_size = (flg & FLG_CONTENT_SIZE) ? load_le64(p + 6) : 0;
	/* The dictionary ID names a dictionary we do not have: decode as if it were empty. */
	if (((xxh32(p + 4, size - 5, 0) >> 8) & 0xFF) != p[size - 1])
		return refuse(why, "LZ4 frame: header checksum mismatch", KS_EFORMAT);
	f->header_size = size;
	return KS_OK;
}

struct lz4_run {
	uint8_t *dst;
	size_t capacity;
	size_t pos; /* output written so far, over all frames */
	const struct decode_progress *progress;
	struct xxh32_state content;
	size_t hashed; /* content checksum covers dst[frame start, hashed) */
};

/* Checksum the newly final bytes, then tell the caller. */
static int report(struct lz4_run *r, int checksummed, size_t final)
{
	if (checksummed && final > r->hashed) {
		xxh32_update(&r->content, r->dst + r->hashed, final - r->hashed);
		r->hashed = final;
	}
	if (r->progress && r->progress->final)
		return r->progress->final(r->progress->ctx, final);
	return KS_OK;
}

static int decode_frame(struct lz4_run *r, const uint8_t *p, size_t len, size_t *used,
			const char **why)
{
	struct lz4_frame f;
	int rc = read_frame_header(p, len, &f, why);
	if (rc)
		return rc;
	int checksummed = (f.flags & FLG_CONTENT_CHECKSUM) != 0;
	size_t block_sum = (f.flags & FLG_BLOCK_CHECKSUM) ? 4 : 0;
	size_t window = (f.flags & FLG_BLOCK_INDEPENDENT) ? 0 : LZ4_WINDOW;
	size_t frame_start = r->pos;
	size_t at = f.header_size;
	xxh32_init(&r->content, 0);
	r->hashed = frame_start;
	for (;;) {
		if (len - at < 4)
			return refuse(why, "LZ4 frame: truncated block size", KS_EFORMAT);
		uint32_t word = load_le32(p + at);
		at += 4;
		size_t size = word & BLOCK_SIZE_MASK;
		if (word == 0)
			break; /* the EndMark; 0x80000000 is an empty uncompressed block */
		if (size > f.block_max)
			return refuse(why, "LZ4 frame: block larger than its maximum", KS_EFORMAT);
		if (len - at < size + block_sum)
			return refuse(why, "LZ4 frame: truncated block", KS_EFORMAT);
		const uint8_t *block = p + at;
		if (block_sum && xxh32(block, size, 0) != load_le32(block + size))
			return refuse(why, "LZ4 frame: block checksum mismatch", KS_EFORMAT);
		size_t room = r->capacity - r->pos, decoded;
		if (word & BLOCK_UNCOMPRESSED) {
			if (size > room)
				return refuse(why, "LZ4 frame: output buffer too small", KS_ENOSPC);
			exact_copy(r->dst + r->pos, block, size);
			decoded = size;
		} else {
			size_t history = r->pos - frame_start;
			if (history > window)
				history = window;
			rc = decode_block(r->dst + r->pos - history, r->dst + r->pos, f.block_max,
					  room < f.block_max ? room : f.block_max, block, size,
					  &decoded, why);
			if (rc)
				return rc;
		}
		r->pos += decoded;
		at += size + block_sum;
		size_t final = r->pos - frame_start > window ? r->pos - window : frame_start;
		if ((rc = report(r, checksummed, final)) < 0)
			return rc;
	}
	if (f.content_size && f.content_size != r->pos - frame_start)
		return refuse(why, "LZ4 frame: content size mismatch", KS_EFORMAT);
	if (checksummed) {
		if (len - at < 4)
			return refuse(why, "LZ4 frame: truncated content checksum", KS_EFORMAT);
		xxh32_update(&r->content, r->dst + r->hashed, r->pos - r->hashed);
		r->hashed = r->pos;
		if (xxh32_digest(&r->content) != load_le32(p + at))
			return refuse(why, "LZ4 frame: content checksum mismatch", KS_EFORMAT);
		at += 4;
	}
	*used = at;
	return KS_OK;
}

int lz4_decompress(void *dst, size_t dst_capacity, const void *src, size_t src_len, size_t *out_len,
		   const struct decode_progress *progress, const char **why)
{
	uint8_t none;
	struct lz4_run r = {
		.dst = dst ? dst : &none, .capacity = dst ? dst_capacity : 0, .progress = progress};
	const uint8_t *p = src;
	size_t at = 0;
	int rc = KS_OK;
	*out_len = 0;
	if (!src && src_len)
		return refuse(why, "LZ4: no input", KS_EINVAL);
	while (rc == KS_OK && at < src_len) {
		size_t left = src_len - at, used = 0;
		if (left < 4) {
			rc = refuse(why, "LZ4: truncated frame", KS_EFORMAT);
			break;
		}
		uint32_t magic = load_le32(p + at);
		if ((magic & LZ4_SKIPPABLE_MASK) == LZ4_SKIPPABLE_MAGIC) {
			if (left < 8 || load_le32(p + at + 4) > left - 8)
				rc = refuse(why, "LZ4: truncated skippable frame", KS_EFORMAT);
			else
				used = 8 + (size_t)load_le32(p + at + 4);
		} else if (magic != LZ4_FRAME_MAGIC) {
			rc = refuse(why, "LZ4: not an LZ4 frame", KS_EFORMAT);
		} else if ((rc = decode_frame(&r, p + at, left, &used, why)) == KS_OK) {
			rc = report(&r, 0, r.pos); /* a finished frame is final */
		}
		at += used;
	}
	*out_len = r.pos;
	return rc;
}
