/*
 * What the parts of the Zstandard decoder share: the format's limits (RFC 8878), the decoding
 * table entries, and the layout of the caller's workspace (lib/zstd.h).
 *   zstd_frame.c      frames, blocks, checksum, progress
 *   zstd_literals.c   the literals section and its Huffman streams
 *   zstd_huffman.c    Huffman tree descriptions and decoding tables
 *   zstd_fse.c        FSE distributions and decoding tables for the sequences
 *   zstd_sequences.c  decoding sequences and executing them into the output
 */
#ifndef KSLIDE_LIB_ZSTD_INTERNAL_H
#define KSLIDE_LIB_ZSTD_INTERNAL_H

#include <stddef.h>
#include <stdint.h>

#include "lib/lz_copy.h"
#include "lib/xxhash.h"
#include "lib/zstd.h"

#define ZSTD_BLOCK_MAX (128u * 1024) /* 3.1.1.2: Block_Maximum_Size is at most 128 KiB */

/* 4.2.1: Huffman codes are at most 11 bits; weights are described by an FSE table of at
 * most 6 bits; there are 256 literal values. */
#define HUF_LOG_MAX	   11
#define HUF_WEIGHT_LOG_MAX 6
#define HUF_SYMBOLS	   256

/* 3.1.1.3.2.1: codes and the largest accuracy logs of the three sequence tables. */
#define LL_MAX_CODE 35
#define ML_MAX_CODE 52
#define OF_MAX_CODE 31
#define LL_LOG_MAX  9
#define ML_LOG_MAX  9
#define OF_LOG_MAX  8
/* Distributions of Huffman weights may name any byte value (only weights up to HUF_LOG_MAX
 * may be decoded), so the scratch tables cover 256 symbols. */
#define FSE_MAX_SYMBOLS	 256
#define FSE_LOG_MIN	 5		    /* 4.1.1: Accuracy_Log = low 4 bits + 5 */
#define FSE_TABLE_MAX	 (1u << LL_LOG_MAX) /* the largest of all (ML_LOG_MAX is the same) */
#define FSE_SORTED_SLACK 8		    /* a symbol's last 8-byte store may run past the end */

/* One state of an FSE table: the symbol it decodes and how to reach the next state. */
struct fse_entry {
	uint8_t symbol;
	uint8_t bits;
	uint16_t base;
};

/* One state of a sequence table, its symbol already turned into Baseline and extra bits. */
struct seq_entry {
	uint32_t value;	    /* Baseline of the code (for offsets: 1 << code) */
	uint8_t extra_bits; /* Number_of_Bits to add to it */
	uint8_t state_bits; /* bits to read for the next state */
	uint16_t next_base; /* the next state is next_base + those bits */
};

/* One entry of the Huffman table, indexed by the next HUF_LOG_MAX (or fewer) bits. */
struct huf_entry {
	uint8_t symbol;
	uint8_t bits;
};

/* Sequences decoded per run of the loop: each run checks once whether its bits may reach the
 * stream's start (zstd_sequences.c). */
#define SEQ_BATCH 256

struct seq_table {
	struct seq_entry *entries;
	unsigned log;
	int valid; /* Repeat_Mode may reuse it */
};

struct zstd_workspace {
	/* The decoded literals of the current block, with room for wild copies to overrun. */
	uint8_t literals[ZSTD_BLOCK_MAX + LZ_COPY_OVERRUN];
	struct huf_entry huf[1u << HUF_LOG_MAX];
	struct seq_entry ll_entries[1u << LL_LOG_MAX];
	struct seq_entry of_entries[1u << OF_LOG_MAX];
	struct seq_entry ml_entries[1u << ML_LOG_MAX];
	struct seq_table ll, of, ml;
	unsigned huf_log;
	int huf_valid; /* Treeless_Literals_Block may reuse the table */
	size_t rep[3]; /* the repeat offsets, most recent first */
	size_t window; /* Window_Size of the current frame (at most ZSTD_WINDOW_MAX) */
	struct xxh64_state checksum;
	const char *why;
	/* Scratch for building tables. */
	int16_t norm[FSE_MAX_SYMBOLS];
	uint16_t next[FSE_MAX_SYMBOLS];
	uint8_t spread[FSE_TABLE_MAX];			  /* each state's symbol */
	uint8_t sorted[FSE_TABLE_MAX + FSE_SORTED_SLACK]; /* the symbols in order */
	struct fse_entry fse[1u << HUF_WEIGHT_LOG_MAX];
	uint8_t weights[HUF_SYMBOLS];
};

_Static_assert(sizeof(struct zstd_workspace) <= ZSTD_WORKSPACE_SIZE,
	       "ZSTD_WORKSPACE_SIZE is too small for struct zstd_workspace");
_Static_assert(_Alignof(struct zstd_workspace) <= ZSTD_WORKSPACE_ALIGN,
	       "ZSTD_WORKSPACE_ALIGN is too small for struct zstd_workspace");

/* Record why decoding stops; returns status (a negative KS_*). */
static inline int zstd_refuse(struct zstd_workspace *ws, const char *why, int status)
{
	ws->why = why;
	return status;
}

/* The literals of one block, wherever they are (the input, or ws->literals). */
struct zstd_literals {
	const uint8_t *ptr;
	size_t len;
	const uint8_t *readable_end; /* wild copies may read up to here */
};

/* zstd_fse.c */
int fse_read_distribution(struct zstd_workspace *ws, const uint8_t *src, size_t len,
			  unsigned max_symbol, unsigned max_log, unsigned *symbols, unsigned *log,
			  size_t *used);
int fse_spread(struct zstd_workspace *ws, unsigned symbols, unsigned log);
int fse_build(struct zstd_workspace *ws, unsigned symbols, unsigned log);
int fse_read_sequence_tables(struct zstd_workspace *ws, unsigned modes, const uint8_t *src,
			     size_t len, size_t *used);

/* zstd_huffman.c */
int huf_read_table(struct zstd_workspace *ws, const uint8_t *src, size_t len, size_t *used);

/* zstd_literals.c */
int zstd_read_literals(struct zstd_workspace *ws, const uint8_t *src, size_t len,
		       const uint8_t *input_end, struct zstd_literals *lit, size_t *used);

/* zstd_sequences.c: decode the sequences section and write the block to dst[*pos, limit). */
int zstd_execute_sequences(struct zstd_workspace *ws, const uint8_t *src, size_t len,
			   const struct zstd_literals *lit, uint8_t *dst, size_t frame_start,
			   size_t *pos, size_t limit);

#endif
