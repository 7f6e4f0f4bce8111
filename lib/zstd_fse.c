/*
 * FSE for Zstandard (RFC 8878, 4.1): reading a distribution (4.1.1), spreading it into a
 * decoding table, and the three sequence tables in their four modes (3.1.1.3.2.1): predefined,
 * RLE, FSE-compressed, and repeat.
 */
#include "lib/errors.h"
#include "lib/unaligned.h"
#include "lib/zstd_internal.h"

/* Added to a word of 8 equal bytes: the next symbol in each of them. */
#define SPREAD_BYTE_STEP 0x0101010101010101ull

/* 3.1.1.3.2.1.1 and .2: the Baseline and Number_of_Bits of every length code. */
static const uint32_t ll_value[LL_MAX_CODE + 1] = {
	0,  1,	2,  3,	4,  5,	6,  7,	8,   9,	  10,  11,   12,   13,	 14,   15,    16,    18,
	20, 22, 24, 28, 32, 40, 48, 64, 128, 256, 512, 1024, 2048, 4096, 8192, 16384, 32768, 65536,
};
static const uint8_t ll_extra[LL_MAX_CODE + 1] = {
	0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,  0,	 0,  0,	 0,  1,	 1,
	1, 1, 2, 2, 3, 3, 4, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16,
};
static const uint32_t ml_value[ML_MAX_CODE + 1] = {
	3,  4,	5,  6,	7,  8,	9,  10,	 11,  12,  13,	 14,   15,   16,   17,	  18,	 19,	20,
	21, 22, 23, 24, 25, 26, 27, 28,	 29,  30,  31,	 32,   33,   34,   35,	  37,	 39,	41,
	43, 47, 51, 59, 67, 83, 99, 131, 259, 515, 1027, 2051, 4099, 8195, 16387, 32771, 65539,
};
static const uint8_t ml_extra[ML_MAX_CODE + 1] = {
	0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,  0,	 0,  0,	 0,  0,	 0,  0,
	0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 3, 3, 4, 4, 5, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16,
};

/* 3.1.1.3.2.2: the predefined distributions and their accuracy logs. */
#define LL_DEFAULT_LOG	    6
#define ML_DEFAULT_LOG	    6
#define OF_DEFAULT_LOG	    5
#define OF_DEFAULT_MAX_CODE 28
static const int16_t ll_default[LL_MAX_CODE + 1] = {
	4, 3, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 1, 1,  1,  2,  2,
	2, 2, 2, 2, 2, 2, 2, 3, 2, 1, 1, 1, 1, 1, -1, -1, -1, -1,
};
static const int16_t ml_default[ML_MAX_CODE + 1] = {
	1, 4, 3, 2, 2, 2, 2, 2, 2, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,  1,	 1,  1,	 1,  1,	 1,  1,
	1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, -1, -1, -1, -1, -1, -1, -1,
};
static const int16_t of_default[OF_DEFAULT_MAX_CODE + 1] = {
	1, 1, 1, 1, 1, 1, 2, 2, 2, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, -1, -1, -1, -1, -1,
};

enum seq_kind { SEQ_LL, SEQ_OF, SEQ_ML };

enum seq_mode { MODE_PREDEFINED = 0, MODE_RLE = 1, MODE_COMPRESSED = 2, MODE_REPEAT = 3 };

static inline unsigned highbit(uint32_t v) /* v > 0 */
{
	return 31 - (unsigned)__builtin_clz(v);
}

/* Up to 25 bits at bit position pos of a forward little-endian stream; zeros past its end. */
static uint32_t forward_bits(const uint8_t *src, size_t len, size_t pos)
{
	size_t byte = pos >> 3;
	if (byte + 4 <= len)
		return load_le32(src + byte) >> (pos & 7);
	uint32_t v = 0;
	for (unsigned i = 0; i < 4; i++)
		if (byte + i < len)
			v |= (uint32_t)src[byte + i] << (8 * i);
	return v >> (pos & 7);
}

/*
 * 4.1.1: the normalized counts of symbols 0..*symbols-1 into ws->norm, summing to 1 << *log.
 * *used is the whole bytes the description takes.
 */
int fse_read_distribution(struct zstd_workspace *ws, const uint8_t *src, size_t len,
			  unsigned max_symbol, unsigned max_log, unsigned *symbols, unsigned *log,
			  size_t *used)
{
	if (len == 0)
		return zstd_refuse(ws, "zstd: truncated FSE table", KS_EFORMAT);
	size_t pos = 4;
	unsigned accuracy = (src[0] & 0xF) + FSE_LOG_MIN;
	if (accuracy > max_log)
		return zstd_refuse(ws, "zstd: FSE accuracy too large", KS_EFORMAT);
	int32_t remaining = (1 << accuracy) + 1;
	int32_t threshold = 1 << accuracy;
	unsigned width = accuracy + 1, symbol = 0;
	while (remaining > 1) {
		if (symbol > max_symbol)
			return zstd_refuse(ws, "zstd: FSE table has too many symbols", KS_EFORMAT);
		/* Values below 'small' fit in width - 1 bits (4.1.1's table). */
		int32_t small = 2 * threshold - 1 - remaining;
		uint32_t bits = forward_bits(src, len, pos);
		int32_t value = (int32_t)(bits & (uint32_t)(threshold - 1));
		if (value < small) {
			pos += width - 1;
		} else {
			value = (int32_t)(bits & (uint32_t)(2 * threshold - 1));
			if (value >= threshold)
				value -= small;
			pos += width;
		}
		int32_t proba = value - 1;
		remaining -= proba < 0 ? -proba : proba;
		ws->norm[symbol++] = (int16_t)proba;
		if (proba == 0) {
			/* 2-bit repeat flags: that many more zeros; 3 means another flag follows.
			 */
			unsigned repeat;
			do {
				repeat = forward_bits(src, len, pos) & 3;
				pos += 2;
				if (symbol + repeat > max_symbol + 1)
					return zstd_refuse(ws,
							   "zstd: FSE zeros past the last symbol",
							   KS_EFORMAT);
				for (unsigned i = 0; i < repeat; i++)
					ws->norm[symbol++] = 0;
			} while (repeat == 3);
		}
		while (remaining < threshold) {
			width--;
			threshold >>= 1;
		}
	}
	if (remaining != 1)
		return zstd_refuse(ws, "zstd: FSE probabilities do not add up", KS_EFORMAT);
	*used = (pos + 7) >> 3;
	if (*used > len)
		return zstd_refuse(ws, "zstd: truncated FSE table", KS_EFORMAT);
	*symbols = symbol;
	*log = accuracy;
	return KS_OK;
}

/*
 * 4.1.1, "From normalized distribution to decoding tables", first half: the symbol of each
 * state into ws->spread, and each symbol's first state number into ws->next.
 */
int fse_spread(struct zstd_workspace *ws, unsigned symbols, unsigned log)
{
	uint32_t size = 1u << log, high = size - 1;
	for (unsigned s = 0; s < symbols; s++) {
		if (ws->norm[s] == -1) {
			ws->spread[high--] = (uint8_t)s; /* "less than 1": the table's end */
			ws->next[s] = 1;
		} else {
			ws->next[s] = (uint16_t)ws->norm[s];
		}
	}
	uint32_t step = (size >> 1) + (size >> 3) + 3, pos = 0, mask = size - 1;
	if (high == mask) {
		/*
		 * No "less than 1" symbol, so no position to skip (most tables): the symbols in
		 * order, 8 at a time (a symbol's last word runs into the next one's, or the
		 * slack), then placed 'step' apart.
		 */
		uint64_t eight = 0;
		uint32_t at = 0;
		for (unsigned s = 0; s < symbols; s++, eight += SPREAD_BYTE_STEP) {
			int count = ws->norm[s];
			for (int i = 0; i < count; i += 8)
				store_le64(ws->sorted + at + (uint32_t)i, eight);
			at += (uint32_t)count;
		}
		if (at != size)
			return zstd_refuse(ws, "zstd: FSE table does not fill", KS_EFORMAT);
		for (uint32_t u = 0; u < size; u += 2) {
			ws->spread[pos] = ws->sorted[u];
			ws->spread[(pos + step) & mask] = ws->sorted[u + 1];
			pos = (pos + 2 * step) & mask;
		}
		return KS_OK;
	}
	for (unsigned s = 0; s < symbols; s++) {
		for (int i = 0; i < ws->norm[s]; i++) {
			ws->spread[pos] = (uint8_t)s;
			do
				pos = (pos + step) & mask;
			while (pos > high);
		}
	}
	if (pos != 0)
		return zstd_refuse(ws, "zstd: FSE table does not fill", KS_EFORMAT);
	return KS_OK;
}

/* A symbol's states in increasing order: the lower ones read one bit more. */
static inline unsigned state_bits(unsigned log, uint32_t x)
{
	return log - highbit(x);
}

/* The whole of 4.1.1's table building: ws->norm into ws->fse. */
int fse_build(struct zstd_workspace *ws, unsigned symbols, unsigned log)
{
	int rc = fse_spread(ws, symbols, log);
	if (rc)
		return rc;
	uint32_t size = 1u << log;
	for (uint32_t u = 0; u < size; u++) {
		uint8_t s = ws->spread[u];
		uint32_t x = ws->next[s]++;
		unsigned bits = state_bits(log, x);
		ws->fse[u] = (struct fse_entry){s, (uint8_t)bits, (uint16_t)((x << bits) - size)};
	}
	return KS_OK;
}

static struct seq_entry code_entry(enum seq_kind kind, unsigned code)
{
	struct seq_entry e = {0, 0, 0, 0};
	if (kind == SEQ_LL) {
		e.value = ll_value[code];
		e.extra_bits = ll_extra[code];
	} else if (kind == SEQ_ML) {
		e.value = ml_value[code];
		e.extra_bits = ml_extra[code];
	} else {
		e.value = (uint32_t)1
			  << code; /* 3.1.1.3.2.1.3: Offset_Value = (1 << code) + bits */
		e.extra_bits = (uint8_t)code;
	}
	return e;
}

static int build_seq_table(struct zstd_workspace *ws, struct seq_table *t, enum seq_kind kind,
			   unsigned mode, const uint8_t *src, size_t len, size_t *used)
{
	static const unsigned max_code[] = {LL_MAX_CODE, OF_MAX_CODE, ML_MAX_CODE};
	static const unsigned max_log[] = {LL_LOG_MAX, OF_LOG_MAX, ML_LOG_MAX};
	unsigned symbols, log;
	int rc;
	*used = 0;
	switch (mode) {
	case MODE_PREDEFINED: {
		const int16_t *dist = kind == SEQ_LL   ? ll_default
				      : kind == SEQ_ML ? ml_default
						       : of_default;
		symbols = kind == SEQ_LL   ? LL_MAX_CODE + 1
			  : kind == SEQ_ML ? ML_MAX_CODE + 1
					   : OF_DEFAULT_MAX_CODE + 1;
		log = kind == SEQ_LL   ? LL_DEFAULT_LOG
		      : kind == SEQ_ML ? ML_DEFAULT_LOG
				       : OF_DEFAULT_LOG;
		for (unsigned s = 0; s < symbols; s++)
			ws->norm[s] = dist[s];
		break;
	}
	case MODE_RLE:
		if (len < 1)
			return zstd_refuse(ws, "zstd: truncated RLE sequence table", KS_EFORMAT);
		if (src[0] > max_code[kind])
			return zstd_refuse(ws, "zstd: RLE code out of range", KS_EFORMAT);
		t->entries[0] = code_entry(kind, src[0]);
		t->log = 0;
		t->valid = 1;
		*used = 1;
		return KS_OK;
	case MODE_COMPRESSED:
		rc = fse_read_distribution(ws, src, len, max_code[kind], max_log[kind], &symbols,
					   &log, used);
		if (rc)
			return rc;
		break;
	default:
		if (!t->valid)
			return zstd_refuse(ws, "zstd: repeated sequence table never defined",
					   KS_EFORMAT);
		return KS_OK;
	}
	if ((rc = fse_spread(ws, symbols, log)))
		return rc;
	struct seq_entry codes[ML_MAX_CODE + 1]; /* each symbol's Baseline and extra bits, once */
	for (unsigned s = 0; s < symbols; s++)
		codes[s] = code_entry(kind, s);
	uint32_t size = 1u << log;
	for (uint32_t u = 0; u < size; u++) {
		uint8_t s = ws->spread[u];
		uint32_t x = ws->next[s]++;
		unsigned bits = state_bits(log, x);
		struct seq_entry e = codes[s];
		e.state_bits = (uint8_t)bits;
		e.next_base = (uint16_t)((x << bits) - size);
		t->entries[u] = e;
	}
	t->log = log;
	t->valid = 1;
	return KS_OK;
}

/* The tables after Number_of_Sequences: modes byte bits 7-6 LL, 5-4 OF, 3-2 ML (3.1.1.3.2). */
int fse_read_sequence_tables(struct zstd_workspace *ws, unsigned modes, const uint8_t *src,
			     size_t len, size_t *used)
{
	struct seq_table *tables[] = {&ws->ll, &ws->of, &ws->ml};
	size_t at = 0;
	for (unsigned k = 0; k < 3; k++) {
		size_t n;
		unsigned mode = (modes >> (6 - 2 * k)) & 3;
		int rc = build_seq_table(ws, tables[k], (enum seq_kind)k, mode, src + at, len - at,
					 &n);
		if (rc)
			return rc;
		at += n;
	}
	*used = at;
	return KS_OK;
}
