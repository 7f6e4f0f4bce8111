/*
 * Unit tests for lib/zstd_*.c with libzstd as the oracle: every frame the library makes (all
 * levels, --ultra 22, long-distance matching, checksums on and off, raw, RLE and compressed
 * blocks, the reference kernels) decodes to exactly its input, into a buffer of exactly that
 * size (ASan catches a byte more); every corrupted frame the library refuses, ours refuses.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <zstd.h>

#include "lib/errors.h"
#include "lib/zstd.h"
#include "tests/fuzz/deliberate.h"
#include "tests/fuzz/progress_check.h"
#include "tests/unit/support/i386_check.h"
#include "tests/unit/support/test_inputs.h"

#define MAX_LEVEL_ULTRA 22
#define NO_WINDOW_LOG	0
#define CORPUS_CONTENT	4096
#define CORRUPT_OUT_MAX (64u << 10) /* far more than the corpus frames hold */

static _Alignas(ZSTD_WORKSPACE_ALIGN) uint8_t workspace[ZSTD_WORKSPACE_SIZE];

struct knobs {
	int level;
	int checksum;
	int content_size;
	int window_log; /* NO_WINDOW_LOG: the level's own */
	int long_distance;
};

static struct buf compress_with(const uint8_t *data, size_t len, struct knobs k)
{
	ZSTD_CCtx *cctx = ZSTD_createCCtx();
	assert_non_null(cctx);
	ZSTD_CCtx_setParameter(cctx, ZSTD_c_compressionLevel, k.level);
	ZSTD_CCtx_setParameter(cctx, ZSTD_c_checksumFlag, k.checksum);
	ZSTD_CCtx_setParameter(cctx, ZSTD_c_contentSizeFlag, k.content_size);
	if (k.window_log != NO_WINDOW_LOG)
		ZSTD_CCtx_setParameter(cctx, ZSTD_c_windowLog, k.window_log);
	ZSTD_CCtx_setParameter(cctx, ZSTD_c_enableLongDistanceMatching, k.long_distance);
	struct buf out = {malloc(ZSTD_compressBound(len)), 0};
	if (k.content_size) {
		out.len = ZSTD_compress2(cctx, out.p, ZSTD_compressBound(len), data, len);
		assert_false(ZSTD_isError(out.len));
	} else {
		/* Streamed with the size unknown, so the library keeps the window it was given. */
		ZSTD_outBuffer o = {out.p, ZSTD_compressBound(len), 0};
		ZSTD_inBuffer in = {data, len, 0};
		assert_false(ZSTD_isError(ZSTD_compressStream2(cctx, &o, &in, ZSTD_e_continue)));
		size_t left;
		do {
			left = ZSTD_compressStream2(cctx, &o, &in, ZSTD_e_end);
			assert_false(ZSTD_isError(left));
		} while (left);
		out.len = o.pos;
	}
	ZSTD_freeCCtx(cctx);
	return out;
}

/* Ours into a buffer of exactly 'capacity' bytes, through the contract-checking hook. */
static int ours(const struct buf *frame, size_t capacity, uint8_t **out, size_t *out_len,
		const char **why, size_t *calls)
{
	*out = malloc(capacity ? capacity : 1);
	struct progress_check check;
	struct decode_progress hook = progress_check_hook(&check, *out, capacity);
	int rc = zstd_decompress(workspace, sizeof(workspace), *out, capacity, frame->p, frame->len,
				 out_len, &hook, why);
	assert_true(progress_restore(&check, rc, *out_len));
	if (calls)
		*calls = check.calls;
	return rc;
}

static void assert_round_trip(const uint8_t *data, size_t len, struct knobs k)
{
	struct buf frame = compress_with(data, len, k);
	uint8_t *out;
	size_t out_len;
	const char *why = NULL;
	int rc = ours(&frame, len, &out, &out_len, &why, NULL);
	if (rc != KS_OK)
		fail_msg("level %d checksum %d window %d: %s", k.level, k.checksum, k.window_log,
			 why);
	assert_int_equal(out_len, len);
	assert_memory_equal(out, data, len);
	free(out);
	free(frame.p);
}

/*
 * The same frames decoded by the i386 build of the decoders (tests/unit/i386/): 'frames'
 * frames of 'data' made with the knobs given, all checked by one run of the checker.
 */
static void assert_i386_decodes(const uint8_t *data, size_t len, const struct knobs *k,
				size_t frames)
{
	char dir[] = "/tmp/kslide-decoders.XXXXXX", path[256];
	assert_non_null(mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/original", dir);
	assert_int_equal(test_write_file(path, data, len), 0);
	for (size_t i = 0; i < frames; i++) {
		struct buf frame = compress_with(data, len, k[i]);
		snprintf(path, sizeof(path), "%s/frame%zu.zst", dir, i);
		assert_int_equal(test_write_file(path, frame.p, frame.len), 0);
		free(frame.p);
	}
	assert_i386_check_passes(dir, frames, "zst");
}

static void test_every_level_of_a_reference_kernel_round_trips(void **state)
{
	(void)state;
	struct buf kernel = test_read_file("build/i386/kernel.elf");
	if (!kernel.len)
		skip(); /* `make all` builds it; `make check` always has it */
	for (int level = 1; level <= MAX_LEVEL_ULTRA; level++)
		assert_round_trip(kernel.p, kernel.len, (struct knobs){level, level & 1, 1, 0, 0});
	free(kernel.p);
}

static void test_big_binaries_round_trip(void **state)
{
	(void)state;
	static const char *const paths[] = {"build/x86_64/kernel.elf",
					    "/usr/lib/x86_64-linux-gnu/libc.so.6"};
	int found = 0;
	for (size_t i = 0; i < sizeof(paths) / sizeof(paths[0]); i++) {
		struct buf b = test_read_file(paths[i]);
		if (!b.len)
			continue;
		found++;
		assert_round_trip(b.p, b.len, (struct knobs){3, 1, 1, 0, 0});
		/* A window far smaller than the input: matches reach its edge in every block. */
		assert_round_trip(b.p, b.len, (struct knobs){9, 0, 0, 12, 0});
		free(b.p);
	}
	if (!found)
		skip();
}

static void test_empty_one_byte_random_and_runs_round_trip(void **state)
{
	(void)state;
	struct buf random = test_random_bytes(300000, 7), zeros = {calloc(1, 400000), 400000};
	struct buf text = test_text_like(700000, 8), periodic = test_periodic(3000000, 256);
	for (int checksum = 0; checksum <= 1; checksum++) {
		for (int level = 1; level <= 19; level += 9) {
			struct knobs k = {level, checksum, checksum, 0, 0};
			assert_round_trip((const uint8_t *)"", 0, k);
			assert_round_trip((const uint8_t *)"x", 1, k);
			assert_round_trip(random.p, random.len, k); /* raw blocks */
			assert_round_trip(zeros.p, zeros.len, k);   /* RLE blocks */
			assert_round_trip(text.p, text.len, k);	    /* many compressed blocks */
			assert_round_trip(periodic.p, periodic.len, k); /* matches to blocks' ends */
		}
	}
	free(random.p);
	free(zeros.p);
	free(text.p);
	free(periodic.p);
}

/* A repeat 9 MiB back, found only by long-distance matching, in a 2^27-byte window. */
static void test_long_distance_matching_at_the_largest_window(void **state)
{
	(void)state;
	size_t part = 1u << 20, gap = 9u << 20;
	struct buf head = test_random_bytes(part, 9), middle = test_random_bytes(gap, 10);
	struct buf whole = {malloc(2 * part + gap), 2 * part + gap};
	memcpy(whole.p, head.p, part);
	memcpy(whole.p + part, middle.p, gap);
	memcpy(whole.p + part + gap, head.p, part);
	struct knobs k = {1, 1, 0, ZSTD_WINDOW_LOG_MAX, 1};
	struct buf frame = compress_with(whole.p, whole.len, k);
	assert_true(frame.len < whole.len - part / 2); /* the far repeat was found */
	uint8_t *out;
	size_t out_len, calls;
	assert_int_equal(ours(&frame, whole.len, &out, &out_len, NULL, &calls), KS_OK);
	assert_memory_equal(out, whole.p, whole.len);
	free(out);
	free(frame.p);
	free(head.p);
	free(middle.p);
	free(whole.p);
}

/* One window log more than the bound: refused by us and by libzstd's default limit alike. */
static void test_a_window_past_the_bound_is_refused(void **state)
{
	(void)state;
	struct buf text = test_text_like(100000, 11);
	struct buf frame = compress_with(text.p, text.len,
					 (struct knobs){1, 0, 0, ZSTD_WINDOW_LOG_MAX + 1, 0});
	uint8_t *out;
	size_t out_len;
	const char *why = NULL;
	assert_int_equal(ours(&frame, text.len, &out, &out_len, &why, NULL), KS_EFORMAT);
	assert_string_equal(why, "zstd: window larger than supported");
	ZSTD_DStream *ds = ZSTD_createDStream();
	ZSTD_inBuffer in = {frame.p, frame.len, 0};
	ZSTD_outBuffer o = {out, text.len, 0};
	assert_true(ZSTD_isError(ZSTD_decompressStream(ds, &o, &in)));
	ZSTD_freeDStream(ds);
	free(out);
	free(frame.p);
	free(text.p);
}

/* The watermark trails the output by the window, and bytes below it are never read again. */
static void test_progress_reports_each_block_a_window_behind(void **state)
{
	(void)state;
	struct buf text = test_text_like(1u << 20, 12);
	struct knobs k = {5, 1, 0, 14, 0};
	struct buf frame = compress_with(text.p, text.len, k);
	uint8_t *out;
	size_t out_len, calls;
	assert_int_equal(ours(&frame, text.len, &out, &out_len, NULL, &calls), KS_OK);
	assert_memory_equal(out, text.p, text.len);
	assert_true(calls >= 8); /* one per 128 KiB block at least */
	free(out);
	free(frame.p);
	free(text.p);
}

static void test_too_small_a_buffer_or_workspace_is_refused(void **state)
{
	(void)state;
	struct buf text = test_text_like(50000, 13);
	struct buf frame = compress_with(text.p, text.len, (struct knobs){3, 0, 0, 0, 0});
	uint8_t *out;
	size_t out_len;
	assert_int_equal(ours(&frame, text.len - 1, &out, &out_len, NULL, NULL), KS_ENOSPC);
	free(out);
	out = malloc(text.len);
	assert_int_equal(zstd_decompress(workspace, ZSTD_WORKSPACE_SIZE / 2, out, text.len, frame.p,
					 frame.len, &out_len, NULL, NULL),
			 KS_EINVAL);
	assert_int_equal(zstd_decompress(workspace + 1, ZSTD_WORKSPACE_SIZE - 1, out, text.len,
					 frame.p, frame.len, &out_len, NULL, NULL),
			 KS_EINVAL);
	free(out);
	free(frame.p);
	free(text.p);
}

/* Whatever libzstd refuses, ours refuses; whatever both accept, both decode alike. */
static void assert_same_verdict(const uint8_t *frame, size_t len)
{
	static uint8_t lib[CORRUPT_OUT_MAX];
	size_t lib_len = ZSTD_decompress(lib, sizeof(lib), frame, len);
	int lib_ok = !ZSTD_isError(lib_len);
	struct buf b = {(uint8_t *)frame, len};
	uint8_t *out;
	size_t out_len;
	const char *why = NULL;
	int rc = ours(&b, lib_ok ? lib_len : CORRUPT_OUT_MAX, &out, &out_len, &why, NULL);
	if (rc == KS_OK) {
		assert_true(lib_ok);
		assert_int_equal(out_len, lib_len);
		assert_memory_equal(out, lib, lib_len);
	} else if (lib_ok && !zstd_deliberately_refused(why)) {
		fail_msg("libzstd accepts a frame we refuse: %s", why);
	}
	free(out);
}

static void test_corrupted_frames_refused_like_the_library(void **state)
{
	(void)state;
	struct buf text = test_text_like(CORPUS_CONTENT, 14), random = test_random_bytes(300, 15);
	const struct knobs kinds[] = {
		{1, 0, 1, 0, 0}, {3, 1, 1, 0, 0}, {19, 0, 0, 0, 0}, {19, 1, 1, 10, 0}};
	for (size_t k = 0; k < sizeof(kinds) / sizeof(kinds[0]); k++) {
		struct buf frame = compress_with(text.p, text.len, kinds[k]);
		uint8_t *copy = malloc(frame.len);
		for (size_t at = 0; at < frame.len; at++) {
			memcpy(copy, frame.p, frame.len);
			copy[at] ^= (uint8_t)(1u << (at % 8)); /* one bit flipped */
			assert_same_verdict(copy, frame.len);
			copy[at] = (uint8_t)(frame.p[at] + 0x41); /* one byte replaced */
			assert_same_verdict(copy, frame.len);
			assert_same_verdict(frame.p, at); /* truncated */
		}
		free(copy);
		free(frame.p);
	}
	struct buf raw = compress_with(random.p, random.len, (struct knobs){1, 1, 1, 0, 0});
	for (size_t at = 0; at < raw.len; at++)
		assert_same_verdict(raw.p, at);
	free(raw.p);
	free(text.p);
	free(random.p);
}

/* Hand-made frames for the header's own rules (RFC 8878, 3.1.1.1). */
static void test_header_rules(void **state)
{
	(void)state;
	/* magic, FHD = single segment with a 1-byte size 1, last raw block of 1 byte 'k' */
	uint8_t good[] = {0x28, 0xB5, 0x2F, 0xFD, 0x20, 0x01, 0x09, 0x00, 0x00, 'k'};
	uint8_t out[1];
	size_t out_len;
	const char *why = NULL;
	assert_int_equal(zstd_decompress(workspace, sizeof(workspace), out, 1, good, sizeof(good),
					 &out_len, NULL, &why),
			 KS_OK);
	assert_int_equal(out[0], 'k');
	uint8_t bad[sizeof(good)];
	memcpy(bad, good, sizeof(good));
	bad[4] |= 0x08; /* Reserved_bit */
	assert_int_equal(zstd_decompress(workspace, sizeof(workspace), out, 1, bad, sizeof(bad),
					 &out_len, NULL, &why),
			 KS_EFORMAT);
	assert_same_verdict(bad, sizeof(bad));
	memcpy(bad, good, sizeof(good));
	bad[6] = 0x07; /* Block_Type 3: reserved */
	assert_int_equal(zstd_decompress(workspace, sizeof(workspace), out, 1, bad, sizeof(bad),
					 &out_len, NULL, &why),
			 KS_EFORMAT);
	assert_same_verdict(bad, sizeof(bad));
	/* A skippable frame around the frame changes nothing. */
	uint8_t skip_then_good[8 + 3 + sizeof(good)] = {0x5A, 0x2A, 0x4D, 0x18, 3, 0,
							0,    0,    1,	  2,	3};
	memcpy(skip_then_good + 11, good, sizeof(good));
	assert_int_equal(zstd_decompress(workspace, sizeof(workspace), out, 1, skip_then_good,
					 sizeof(skip_then_good), &out_len, NULL, &why),
			 KS_OK);
	assert_int_equal(out_len, 1);
	assert_same_verdict(skip_then_good, sizeof(skip_then_good));
	/*
	 * One Huffman-coded literal whose tree has weights {2, 2} (a direct weight of 2, the
	 * last one implied): complete, but with no weight 1, which 4.2.1.1 calls corrupted.
	 * FHD 0 and Window_Descriptor 0: a 1 KiB window and no content size.
	 */
	uint8_t no_weight_one[] = {0x28, 0xB5, 0x2F, 0xFD, 0x00, 0x00, 0x3D, 0x00,
				   0x00, 0x12, 0xC0, 0x00, 0x81, 0x20, 0x02, 0x00};
	assert_int_equal(zstd_decompress(workspace, sizeof(workspace), out, 1, no_weight_one,
					 sizeof(no_weight_one), &out_len, NULL, &why),
			 KS_EFORMAT);
	assert_string_equal(why, "zstd: Huffman tree incomplete");
	assert_same_verdict(no_weight_one, sizeof(no_weight_one));
}

/*
 * A block of 21 RLE literals 'a' whose sequence count is 0: written as the byte 0 it ends the
 * section and the block; written long (0x80 0x00, then a modes byte and 4 more bytes) libzstd
 * reads on and ignores the rest, and we refuse it (tests/fuzz/deliberate.h; found by
 * fuzz_zstd, tests/fuzz/corpus/zstd/regress-zero-count-long).
 */
static void test_a_zero_sequence_count_is_the_byte_zero(void **state)
{
	(void)state;
	/* FHD 0, Window_Descriptor 0, an empty raw block, then the last, compressed block */
	uint8_t zero_long[] = {0x28, 0xB5, 0x2F, 0xFD, 0x00, 0x00, 0x00, 0x00, 0x00, 0x5D, 0x00, 0x00,
			       0x5D, 0x01, 0x00, 'a',  0x80, 0x00, 0x02, 0xF8, 0x80, 0x00, 0x3F};
	uint8_t zero_short[] = {0x28, 0xB5, 0x2F, 0xFD, 0x00, 0x00, 0x00, 0x00, 0x00,
				0x2D, 0x00, 0x00, 0x5D, 0x01, 0x00, 'a',  0x00};
	uint8_t zero_then_more[] = {0x28, 0xB5, 0x2F, 0xFD, 0x00, 0x00, 0x00, 0x00, 0x00, 0x35,
				    0x00, 0x00, 0x5D, 0x01, 0x00, 'a',	0x00, 0x00};
	uint8_t out[64], lib[64];
	size_t out_len;
	const char *why = NULL;
	assert_int_equal(zstd_decompress(workspace, sizeof(workspace), out, sizeof(out), zero_short,
					 sizeof(zero_short), &out_len, NULL, &why),
			 KS_OK);
	assert_int_equal(out_len, 21);
	assert_int_equal(ZSTD_decompress(lib, sizeof(lib), zero_short, sizeof(zero_short)), 21);
	assert_memory_equal(out, lib, 21);
	assert_same_verdict(zero_then_more, sizeof(zero_then_more));
	assert_int_equal(ZSTD_decompress(lib, sizeof(lib), zero_long, sizeof(zero_long)), 21);
	assert_int_equal(zstd_decompress(workspace, sizeof(workspace), out, sizeof(out), zero_long,
					 sizeof(zero_long), &out_len, NULL, &why),
			 KS_EFORMAT);
	assert_string_equal(why, "zstd: zero sequences counted in more than one byte");
}

/* The i386 build (narrow bit reader): kernel levels, small windows, a far match. */
static void test_the_i386_build_decodes_the_same_frames(void **state)
{
	(void)state;
	struct buf kernel = test_read_file("build/i386/kernel.elf");
	assert_i386_checker_built();
	const struct knobs kernel_kinds[] = {{1, 1, 1, 0, 0},
					     {3, 0, 0, 0, 0},
					     {19, 1, 1, 0, 0},
					     {MAX_LEVEL_ULTRA, 1, 0, 0, 0},
					     {9, 1, 0, 11, 0}};
	assert_i386_decodes(kernel.p, kernel.len, kernel_kinds, 5);
	struct buf text = test_text_like(700000, 16);
	const struct knobs text_kinds[] = {{19, 1, 0, 12, 0}, {1, 0, 1, 0, 0}};
	assert_i386_decodes(text.p, text.len, text_kinds, 2);
	/* A long match far back: more extra bits in one sequence than a refill gives on i386. */
	size_t part = 1u << 20, gap = 9u << 20;
	struct buf head = test_random_bytes(part, 17),
		   whole = test_random_bytes(2 * part + gap, 18);
	memcpy(whole.p, head.p, part);
	memcpy(whole.p + part + gap, head.p, part);
	const struct knobs far_kind = {1, 1, 0, ZSTD_WINDOW_LOG_MAX, 1};
	assert_i386_decodes(whole.p, whole.len, &far_kind, 1);
	free(head.p);
	free(whole.p);
	free(kernel.p);
	free(text.p);
}

/*
 * A hand-made frame (RFC 8878) with a 1 KiB window: two raw blocks of 1 KiB, then one
 * sequence with no literals and a 3-byte match 'offset' bytes back (RLE modes: no states,
 * only the offset's extra bits under the end marker), then a skippable frame, so that the
 * literals are followed by room enough for a wild copy and the sequence may take the fast
 * path. Returns the frame's length; frame[] holds WINDOW_FRAME_MAX bytes.
 */
#define WINDOW_FRAME_MAX 2200
#define SMALL_WINDOW	 1024
static size_t frame_with_one_match(uint8_t *frame, unsigned offset)
{
	static const uint8_t header[] = {0x28, 0xB5, 0x2F, 0xFD, 0x00 /* FHD */, 0x00 /* 1 KiB */};
	static const uint8_t raw_block[] = {0x00, 0x20, 0x00}; /* raw, 1024 bytes, not last */
	size_t at = 0;
	memcpy(frame, header, sizeof(header));
	at += sizeof(header);
	for (unsigned k = 0; k < 2; k++) {
		memcpy(frame + at, raw_block, sizeof(raw_block));
		at += sizeof(raw_block);
		for (unsigned i = 0; i < SMALL_WINDOW; i++)
			frame[at++] = (uint8_t)(i * 7 + k * 3 + (i >> 5));
	}
	unsigned value = offset + 3, code = 31 - (unsigned)__builtin_clz(value);
	unsigned stream = value; /* the end marker at bit 'code', the extra bits below it */
	static const uint8_t block_header[] = {0x45, 0x00, 0x00}; /* compressed, 8 bytes, last */
	const uint8_t block[] = {
		0x00,		 /* raw literals, none */
		0x01,		 /* one sequence */
		0x54,		 /* Literals_Lengths, Offsets, Match_Lengths: RLE */
		0x00,		 /* literal length code 0: none */
		(uint8_t)code,	 /* offset code */
		0x00,		 /* match length code 0: 3 bytes */
		(uint8_t)stream, /* the stream, little-endian */
		(uint8_t)(stream >> 8),
	};
	assert_true(code >= 8 && code < 16); /* two bytes of stream, the marker in the second */
	memcpy(frame + at, block_header, sizeof(block_header));
	at += sizeof(block_header);
	memcpy(frame + at, block, sizeof(block));
	at += sizeof(block);
	static const uint8_t skippable[8] = {0x50, 0x2A, 0x4D, 0x18, 64, 0, 0, 0};
	memcpy(frame + at, skippable, sizeof(skippable));
	at += sizeof(skippable);
	memset(frame + at, 0, 64);
	at += 64;
	assert_true(at <= WINDOW_FRAME_MAX);
	return at;
}

/* libzstd's one-shot decoder takes any offset within the frame; ours, only within the window. */
static void test_an_offset_beyond_the_window_is_refused(void **state)
{
	(void)state;
	static uint8_t frame[WINDOW_FRAME_MAX], lib[4 * SMALL_WINDOW], out[4 * SMALL_WINDOW];
	const char *why = NULL;
	size_t len = frame_with_one_match(frame, SMALL_WINDOW - 24), out_len;
	size_t lib_len = ZSTD_decompress(lib, sizeof(lib), frame, len);
	assert_false(ZSTD_isError(lib_len));
	assert_int_equal(lib_len, 2 * SMALL_WINDOW + 3);
	assert_int_equal(zstd_decompress(workspace, sizeof(workspace), out, sizeof(out), frame, len,
					 &out_len, NULL, &why),
			 KS_OK);
	assert_int_equal(out_len, lib_len);
	assert_memory_equal(out, lib, lib_len);
	len = frame_with_one_match(frame, SMALL_WINDOW + 476);
	lib_len = ZSTD_decompress(lib, sizeof(lib), frame, len);
	assert_false(ZSTD_isError(lib_len)); /* within the frame's output */
	assert_int_equal(zstd_decompress(workspace, sizeof(workspace), out, sizeof(out), frame, len,
					 &out_len, NULL, &why),
			 KS_EFORMAT);
	assert_string_equal(why, "zstd: match offset beyond the window");
}

int main(int argc, char **argv)
{
	/* make unit-i386-emulated runs only the i386 case: a cmocka filter. */
	if (argc > 1)
		cmocka_set_test_filter(argv[1]);
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_every_level_of_a_reference_kernel_round_trips),
		cmocka_unit_test(test_big_binaries_round_trip),
		cmocka_unit_test(test_empty_one_byte_random_and_runs_round_trip),
		cmocka_unit_test(test_long_distance_matching_at_the_largest_window),
		cmocka_unit_test(test_a_window_past_the_bound_is_refused),
		cmocka_unit_test(test_progress_reports_each_block_a_window_behind),
		cmocka_unit_test(test_too_small_a_buffer_or_workspace_is_refused),
		cmocka_unit_test(test_corrupted_frames_refused_like_the_library),
		cmocka_unit_test(test_header_rules),
		cmocka_unit_test(test_an_offset_beyond_the_window_is_refused),
		cmocka_unit_test(test_a_zero_sequence_count_is_the_byte_zero),
		cmocka_unit_test(test_the_i386_build_decodes_the_same_frames),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
