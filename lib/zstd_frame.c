/*
 * Zstandard frames (RFC 8878, 3.1): the frame header and its window, blocks (raw, RLE,
 * compressed), the optional content checksum, skippable frames (3.1.2), and the progress
 * watermark and written position after every block (lib/decompress.h). The entry point of
 * lib/zstd.h.
 */
#include "lib/errors.h"
#include "lib/unaligned.h"
#include "lib/zstd_internal.h"

#define ZSTD_SKIPPABLE_MAGIC 0x184D2A50u
#define ZSTD_SKIPPABLE_MASK  0xFFFFFFF0u
#define ZSTD_MAGIC_SIZE	     4
#define BLOCK_HEADER_SIZE    3
#define CHECKSUM_SIZE	     4

/* Frame_Header_Descriptor (3.1.1.1.1) and Window_Descriptor (3.1.1.1.2). */
#define FHD_SINGLE_SEGMENT  0x20
#define FHD_RESERVED	    0x08
#define FHD_CHECKSUM	    0x04
#define WINDOW_LOG_BASE	    10
#define FCS_TWO_BYTE_OFFSET 256

enum block_type { BLOCK_RAW = 0, BLOCK_RLE = 1, BLOCK_COMPRESSED = 2 };

struct frame {
	int checksummed;
	int content_size_known;
	uint64_t content_size;
	size_t block_max;
	size_t header_size; /* from the magic number to the first block */
};

static int read_frame_header(struct zstd_workspace *ws, const uint8_t *p, size_t len,
			     struct frame *f)
{
	static const uint8_t did_size[4] = {0, 1, 2, 4};
	static const uint8_t fcs_size[4] = {0, 2, 4, 8};
	if (len < ZSTD_MAGIC_SIZE + 1)
		return zstd_refuse(ws, "zstd: truncated frame header", KS_EFORMAT);
	unsigned fhd = p[ZSTD_MAGIC_SIZE];
	if (fhd & FHD_RESERVED)
		return zstd_refuse(ws, "zstd: reserved frame header bit set", KS_EFORMAT);
	int single = (fhd & FHD_SINGLE_SEGMENT) != 0;
	size_t fcs_bytes = fcs_size[fhd >> 6];
	if (fcs_bytes == 0 && single)
		fcs_bytes = 1;
	size_t did_bytes = did_size[fhd & 3];
	size_t at = ZSTD_MAGIC_SIZE + 1;
	f->header_size = at + !single + did_bytes + fcs_bytes;
	if (len < f->header_size)
		return zstd_refuse(ws, "zstd: truncated frame header", KS_EFORMAT);
	uint64_t window = 0;
	if (!single) {
		unsigned exponent = p[at] >> 3, mantissa = p[at] & 7;
		at++;
		uint64_t base = (uint64_t)1 << (WINDOW_LOG_BASE + exponent);
		window = base + (base / 8) * mantissa;
	}
	uint32_t dict = 0;
	for (size_t i = 0; i < did_bytes; i++)
		dict |= (uint32_t)p[at + i] << (8 * i);
	at += did_bytes;
	if (dict != 0)
		return zstd_refuse(ws, "zstd: frame needs a dictionary", KS_EFORMAT);
	uint64_t fcs = 0;
	for (size_t i = 0; i < fcs_bytes; i++)
		fcs |= (uint64_t)p[at + i] << (8 * i);
	if (fcs_bytes == 2)
		fcs += FCS_TWO_BYTE_OFFSET;
	f->content_size_known = fcs_bytes != 0;
	f->content_size = fcs;
	if (single)
		window = fcs;
	if (window > ZSTD_WINDOW_MAX)
		return zstd_refuse(ws, "zstd: window larger than supported", KS_EFORMAT);
	ws->window = (size_t)window;
	f->block_max = window < ZSTD_BLOCK_MAX ? (size_t)window : ZSTD_BLOCK_MAX;
	f->checksummed = (fhd & FHD_CHECKSUM) != 0;
	return KS_OK;
}

struct zstd_run {
	uint8_t *dst;
	size_t capacity;
	size_t pos; /* output so far, over all frames */
	const struct decode_progress *progress;
	size_t hashed; /* the checksum covers dst[frame start, hashed) */
};

/* Checksum what became final, then tell the caller. */
static int report(struct zstd_workspace *ws, struct zstd_run *r, int checksummed, size_t final)
{
	if (checksummed && final > r->hashed) {
		xxh64_update(&ws->checksum, r->dst + r->hashed, final - r->hashed);
		r->hashed = final;
	}
	if (r->progress && r->progress->final)
		return r->progress->final(r->progress->ctx, final);
	return KS_OK;
}

static int decode_block(struct zstd_workspace *ws, struct zstd_run *r, const struct frame *f,
			size_t frame_start, unsigned type, const uint8_t *body, size_t size,
			const uint8_t *input_end)
{
	size_t room = r->capacity - r->pos;
	if (type == BLOCK_RAW || type == BLOCK_RLE) {
		if (size > f->block_max)
			return zstd_refuse(ws, "zstd: raw or RLE block larger than its maximum",
					   KS_EFORMAT);
		if (size > room)
			return zstd_refuse(ws, "zstd: output buffer too small", KS_ENOSPC);
		if (type == BLOCK_RAW)
			exact_copy(r->dst + r->pos, body, size);
		else
			__builtin_memset(r->dst + r->pos, body[0], size);
		r->pos += size;
		return KS_OK;
	}
	if (size > f->block_max)
		return zstd_refuse(ws, "zstd: block larger than its maximum", KS_EFORMAT);
	struct zstd_literals lit;
	size_t used;
	int rc = zstd_read_literals(ws, body, size, input_end, &lit, &used);
	if (rc)
		return rc;
	size_t limit = r->pos + (room < f->block_max ? room : f->block_max);
	rc = zstd_execute_sequences(ws, body + used, size - used, &lit, r->dst, frame_start,
				    &r->pos, limit);
	if (rc == KS_ENOSPC && room >= f->block_max)
		return zstd_refuse(ws, "zstd: block decodes larger than its maximum", KS_EFORMAT);
	return rc;
}

static int decode_frame(struct zstd_workspace *ws, struct zstd_run *r, const uint8_t *p, size_t len,
			size_t *used)
{
	struct frame f;
	int rc = read_frame_header(ws, p, len, &f);
	if (rc)
		return rc;
	/* A new frame forgets the tables and repeat offsets of the last (3.1.1.5). */
	ws->huf_valid = 0;
	ws->ll = (struct seq_table){ws->ll_entries, 0, 0};
	ws->of = (struct seq_table){ws->of_entries, 0, 0};
	ws->ml = (struct seq_table){ws->ml_entries, 0, 0};
	ws->rep[0] = 1;
	ws->rep[1] = 4;
	ws->rep[2] = 8;
	xxh64_init(&ws->checksum, 0);
	size_t frame_start = r->pos, at = f.header_size;
	r->hashed = frame_start;
	for (;;) {
		if (len - at < BLOCK_HEADER_SIZE)
			return zstd_refuse(ws, "zstd: truncated block header", KS_EFORMAT);
		uint32_t header = load_le24(p + at);
		at += BLOCK_HEADER_SIZE;
		unsigned last = header & 1, type = (header >> 1) & 3;
		size_t size = header >> 3;
		size_t stored = type == BLOCK_RLE ? 1 : size;
		if (type > BLOCK_COMPRESSED)
			return zstd_refuse(ws, "zstd: reserved block type", KS_EFORMAT);
		if (len - at < stored)
			return zstd_refuse(ws, "zstd: truncated block", KS_EFORMAT);
		if ((rc = decode_block(ws, r, &f, frame_start, type, p + at, size, p + len)))
			return rc;
		at += stored;
		if (r->progress && r->progress->written &&
		    (rc = r->progress->written(r->progress->ctx, r->pos)) < 0)
			return rc;
		if (last)
			break;
		size_t behind = r->pos - frame_start;
		size_t final = behind > ws->window ? r->pos - ws->window : frame_start;
		if ((rc = report(ws, r, f.checksummed, final)) < 0)
			return rc;
	}
	if (f.content_size_known && f.content_size != r->pos - frame_start)
		return zstd_refuse(ws, "zstd: frame content size mismatch", KS_EFORMAT);
	if (f.checksummed) {
		if (len - at < CHECKSUM_SIZE)
			return zstd_refuse(ws, "zstd: truncated content checksum", KS_EFORMAT);
		xxh64_update(&ws->checksum, r->dst + r->hashed, r->pos - r->hashed);
		r->hashed = r->pos;
		if ((uint32_t)xxh64_digest(&ws->checksum) != load_le32(p + at))
			return zstd_refuse(ws, "zstd: content checksum mismatch", KS_EFORMAT);
		at += CHECKSUM_SIZE;
	}
	*used = at;
	return KS_OK;
}

int zstd_decompress(void *workspace, size_t workspace_size, void *dst, size_t dst_capacity,
		    const void *src, size_t src_len, size_t *out_len,
		    const struct decode_progress *progress, const char **why)
{
	*out_len = 0;
	if (!workspace || workspace_size < sizeof(struct zstd_workspace) ||
	    (uintptr_t)workspace % ZSTD_WORKSPACE_ALIGN || (!src && src_len)) {
		if (why)
			*why = "zstd: bad workspace or input";
		return KS_EINVAL;
	}
	struct zstd_workspace *ws = workspace;
	uint8_t none;
	struct zstd_run r = {
		.dst = dst ? dst : &none, .capacity = dst ? dst_capacity : 0, .progress = progress};
	const uint8_t *p = src;
	size_t at = 0;
	int rc = KS_OK;
	ws->why = NULL;
	while (rc == KS_OK && at < src_len) {
		size_t left = src_len - at, used = 0;
		if (left < ZSTD_MAGIC_SIZE) {
			rc = zstd_refuse(ws, "zstd: truncated frame", KS_EFORMAT);
			break;
		}
		uint32_t magic = load_le32(p + at);
		if ((magic & ZSTD_SKIPPABLE_MASK) == ZSTD_SKIPPABLE_MAGIC) {
			if (left < 8 || load_le32(p + at + 4) > left - 8)
				rc = zstd_refuse(ws, "zstd: truncated skippable frame", KS_EFORMAT);
			else
				used = 8 + (size_t)load_le32(p + at + 4);
		} else if (magic != ZSTD_MAGIC) {
			rc = zstd_refuse(ws, "zstd: not a Zstandard frame", KS_EFORMAT);
		} else if ((rc = decode_frame(ws, &r, p + at, left, &used)) == KS_OK) {
			rc = report(ws, &r, 0, r.pos); /* a finished frame is final */
		}
		at += used;
	}
	*out_len = r.pos;
	if (rc && why)
		*why = ws->why ? ws->why : "zstd: stopped by the progress hook";
	return rc;
}
