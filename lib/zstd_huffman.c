/*
 * Huffman tree descriptions of Zstandard literals (RFC 8878, 4.2.1): weights stored directly
 * or FSE-compressed with two interleaved states, the last weight implied, and the decoding
 * table in which each code of n bits fills 2^(log - n) consecutive entries.
 */
#include "lib/errors.h"
#include "lib/unaligned.h"
#include "lib/zstd_bits.h"
#include "lib/zstd_internal.h"

#define HUF_DIRECT_MIN	     128 /* a header byte of 128 or more: 4-bit weights follow directly */
#define HUF_ENTRIES_PER_WORD 4
#define HUF_ENTRY_REPEAT     0x0001000100010001ull /* times one 2-byte entry: four of it */
_Static_assert(sizeof(struct huf_entry) == 2, "four Huffman entries fill 8 bytes");

static inline unsigned highbit(uint32_t v) /* v > 0 */
{
	return 31 - (unsigned)__builtin_clz(v);
}

/* 4.2.1.2: weights FSE-compressed in 'len' bytes, two states sharing one table. */
static int read_fse_weights(struct zstd_workspace *ws, const uint8_t *src, size_t len,
			    unsigned *count)
{
	unsigned symbols, log;
	size_t used;
	int rc = fse_read_distribution(ws, src, len, HUF_SYMBOLS - 1, HUF_WEIGHT_LOG_MAX, &symbols,
				       &log, &used);
	if (rc)
		return rc;
	if ((rc = fse_build(ws, symbols, log)))
		return rc;
	struct bits b;
	if (bits_init(&b, src + used, len - used))
		return zstd_refuse(ws, "zstd: bad Huffman weight stream", KS_EFORMAT);
	uint32_t state[2];
	state[0] = (uint32_t)bits_read(&b, log);
	state[1] = (uint32_t)bits_read(&b, log);
	bits_refill(&b);
	/*
	 * The states take turns. Once an update reads past the stream's first bit, the other
	 * state's symbol is the last weight (4.2.1.2, "tracking bitStream overflow").
	 */
	unsigned n = 0, turn = 0;
	for (;;) {
		if (n > HUF_SYMBOLS - 1 - 2)
			return zstd_refuse(ws, "zstd: too many Huffman weights", KS_EFORMAT);
		const struct fse_entry *e = &ws->fse[state[turn]];
		ws->weights[n++] = e->symbol;
		state[turn] = e->base + (uint32_t)bits_read(&b, e->bits);
		bits_refill(&b);
		turn ^= 1;
		if (bits_overflowed(&b)) {
			ws->weights[n++] = ws->fse[state[turn]].symbol;
			break;
		}
	}
	*count = n;
	return KS_OK;
}

/* 4.2.1.1: from the weights of symbols 0..count-1 (the last one implied) to ws->huf. */
static int build_table(struct zstd_workspace *ws, unsigned count)
{
	uint32_t total = 0;
	unsigned rank[HUF_LOG_MAX + 2] = {0};
	for (unsigned s = 0; s < count; s++) {
		unsigned w = ws->weights[s];
		if (w > HUF_LOG_MAX)
			return zstd_refuse(ws, "zstd: Huffman weight too large", KS_EFORMAT);
		rank[w]++;
		if (w)
			total += 1u << (w - 1);
	}
	if (total == 0)
		return zstd_refuse(ws, "zstd: Huffman weights all zero", KS_EFORMAT);
	unsigned log = highbit(total) + 1;
	if (log > HUF_LOG_MAX)
		return zstd_refuse(ws, "zstd: Huffman codes too long", KS_EFORMAT);
	uint32_t rest = (1u << log) - total;
	if (rest & (rest - 1))
		return zstd_refuse(ws, "zstd: Huffman weights leave no power of 2", KS_EFORMAT);
	unsigned last = highbit(rest) + 1;
	ws->weights[count] = (uint8_t)last;
	rank[last]++;
	count++;
	/* A complete prefix code has an even number, at least 2, of longest codes. */
	if (rank[1] < 2 || (rank[1] & 1))
		return zstd_refuse(ws, "zstd: Huffman tree incomplete", KS_EFORMAT);
	/* Codes in order of weight, then of symbol: the start of each weight's entries. */
	uint32_t start[HUF_LOG_MAX + 2], at = 0;
	for (unsigned w = 1; w <= log; w++) {
		start[w] = at;
		at += rank[w] << (w - 1);
	}
	for (unsigned s = 0; s < count; s++) {
		unsigned w = ws->weights[s];
		if (!w)
			continue;
		struct huf_entry e = {(uint8_t)s, (uint8_t)(log + 1 - w)};
		uint32_t n = 1u << (w - 1);
		struct huf_entry *fill = ws->huf + start[w];
		if (n >= HUF_ENTRIES_PER_WORD) {
			/* Long runs (the short codes of frequent bytes), 4 entries a store. */
			uint64_t four = (uint64_t)(e.symbol | e.bits << 8) * HUF_ENTRY_REPEAT;
			for (uint32_t i = 0; i < n; i += HUF_ENTRIES_PER_WORD)
				store_le64(fill + i, four);
		} else {
			for (uint32_t i = 0; i < n; i++)
				fill[i] = e;
		}
		start[w] += n;
	}
	ws->huf_log = log;
	ws->huf_valid = 1;
	return KS_OK;
}

int huf_read_table(struct zstd_workspace *ws, const uint8_t *src, size_t len, size_t *used)
{
	if (len < 1)
		return zstd_refuse(ws, "zstd: truncated Huffman tree", KS_EFORMAT);
	unsigned header = src[0], count;
	size_t size;
	if (header >= HUF_DIRECT_MIN) {
		count = header - (HUF_DIRECT_MIN - 1);
		size = (count + 1) / 2;
		if (len - 1 < size)
			return zstd_refuse(ws, "zstd: truncated Huffman weights", KS_EFORMAT);
		for (unsigned i = 0; i < count; i++)
			ws->weights[i] = (src[1 + i / 2] >> ((i & 1) ? 0 : 4)) & 0xF;
	} else {
		size = header;
		if (len - 1 < size)
			return zstd_refuse(ws, "zstd: truncated Huffman weights", KS_EFORMAT);
		int rc = read_fse_weights(ws, src + 1, size, &count);
		if (rc)
			return rc;
	}
	*used = 1 + size;
	ws->huf_valid = 0;
	return build_table(ws, count);
}
