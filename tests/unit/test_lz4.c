/*
 * Unit tests for lib/lz4.c with liblz4 as the oracle: every frame the library makes (fast and
 * HC levels, linked and independent blocks, every block size, block and content checksums
 * on and off, the reference kernels) decodes to exactly its input in a buffer of exactly that
 * size; every corrupted frame the library refuses, ours refuses; blocks agree with
 * LZ4_decompress_safe.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <lz4.h>
#include <lz4frame.h>
#include <lz4hc.h>

#include "lib/errors.h"
#include "lib/lz4.h"
#include "tests/fuzz/deliberate.h"
#include "tests/fuzz/lz4_reference.h"
#include "tests/fuzz/progress_check.h"
#include "tests/unit/support/i386_check.h"
#include "tests/unit/support/test_inputs.h"

#define CORPUS_CONTENT	3000
#define CORRUPT_OUT_MAX (64u << 10) /* far more than the corpus frames hold */

struct knobs {
	int level;
	int independent;
	int checksums; /* block and content */
	LZ4F_blockSizeID_t block_size;
	int content_size;
};

static struct buf compress_with(const uint8_t *data, size_t len, struct knobs k)
{
	LZ4F_preferences_t prefs;
	memset(&prefs, 0, sizeof(prefs));
	prefs.compressionLevel = k.level;
	prefs.frameInfo.blockMode = k.independent ? LZ4F_blockIndependent : LZ4F_blockLinked;
	prefs.frameInfo.blockChecksumFlag = k.checksums;
	prefs.frameInfo.contentChecksumFlag = k.checksums;
	prefs.frameInfo.blockSizeID = k.block_size;
	prefs.frameInfo.contentSize = k.content_size ? len : 0;
	size_t bound = LZ4F_compressFrameBound(len, &prefs);
	struct buf out = {malloc(bound), 0};
	out.len = LZ4F_compressFrame(out.p, bound, data, len, &prefs);
	assert_false(LZ4F_isError(out.len));
	return out;
}

static int ours(const uint8_t *frame, size_t len, size_t capacity, uint8_t **out, size_t *out_len,
		const char **why, size_t *calls)
{
	*out = malloc(capacity ? capacity : 1);
	struct progress_check check;
	struct decode_progress hook = progress_check_hook(&check, *out, capacity);
	int rc = lz4_decompress(*out, capacity, frame, len, out_len, &hook, why);
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
	if (ours(frame.p, frame.len, len, &out, &out_len, &why, NULL) != KS_OK)
		fail_msg("level %d independent %d block size %d: %s", k.level, k.independent,
			 (int)k.block_size, why);
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
		snprintf(path, sizeof(path), "%s/frame%zu.lz4", dir, i);
		assert_int_equal(test_write_file(path, frame.p, frame.len), 0);
		free(frame.p);
	}
	assert_i386_check_passes(dir, frames, "lz4");
}

static void test_every_mode_of_a_reference_kernel_round_trips(void **state)
{
	(void)state;
	struct buf kernel = test_read_file("build/i386/kernel.elf");
	if (!kernel.len)
		skip(); /* `make all` builds it; `make check` always has it */
	for (int level = 0; level <= LZ4HC_CLEVEL_MAX; level += 3)
		for (int independent = 0; independent <= 1; independent++)
			for (int size = LZ4F_max64KB; size <= LZ4F_max4MB; size++)
				assert_round_trip(kernel.p, kernel.len,
						  (struct knobs){level, independent, size & 1,
								 (LZ4F_blockSizeID_t)size,
								 independent});
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
		assert_round_trip(b.p, b.len, (struct knobs){0, 0, 1, LZ4F_max64KB, 1});
		assert_round_trip(b.p, b.len, (struct knobs){9, 1, 0, LZ4F_max4MB, 0});
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
	for (int checksums = 0; checksums <= 1; checksums++) {
		for (int level = 0; level <= LZ4HC_CLEVEL_MAX; level += 12) {
			struct knobs k = {level, checksums, checksums, LZ4F_max64KB, checksums};
			assert_round_trip((const uint8_t *)"", 0, k);
			assert_round_trip((const uint8_t *)"x", 1, k);
			assert_round_trip(random.p, random.len, k); /* uncompressed blocks */
			assert_round_trip(zeros.p, zeros.len, k);
			assert_round_trip(text.p, text.len, k);
			assert_round_trip(periodic.p, periodic.len, k); /* matches to blocks' ends */
		}
	}
	free(random.p);
	free(zeros.p);
	free(text.p);
	free(periodic.p);
}

/* Linked blocks: final trails by the 64 KiB window; independent ones: every block is final. */
static void test_progress_trails_by_the_window_of_linked_blocks(void **state)
{
	(void)state;
	struct buf text = test_text_like(1u << 20, 9);
	for (int independent = 0; independent <= 1; independent++) {
		struct buf frame = compress_with(
			text.p, text.len, (struct knobs){9, independent, 1, LZ4F_max64KB, 0});
		uint8_t *out;
		size_t out_len, calls;
		assert_int_equal(ours(frame.p, frame.len, text.len, &out, &out_len, NULL, &calls),
				 KS_OK);
		assert_memory_equal(out, text.p, text.len);
		assert_true(calls >= text.len / LZ4_WINDOW); /* one per 64 KiB block */
		free(out);
		free(frame.p);
	}
	free(text.p);
}

static void test_too_small_a_buffer_is_refused(void **state)
{
	(void)state;
	struct buf text = test_text_like(200000, 10);
	struct buf frame =
		compress_with(text.p, text.len, (struct knobs){1, 0, 0, LZ4F_max64KB, 0});
	uint8_t *out;
	size_t out_len;
	assert_int_equal(ours(frame.p, frame.len, text.len - 1, &out, &out_len, NULL, NULL),
			 KS_ENOSPC);
	free(out);
	free(frame.p);
	free(text.p);
}

static void assert_same_verdict(const uint8_t *frame, size_t len)
{
	static uint8_t lib[CORRUPT_OUT_MAX];
	long lib_len = lz4_reference_frames(lib, sizeof(lib), frame, len);
	uint8_t *out;
	size_t out_len;
	const char *why = NULL;
	int rc = ours(frame, len, lib_len >= 0 ? (size_t)lib_len : CORRUPT_OUT_MAX, &out, &out_len,
		      &why, NULL);
	if (rc == KS_OK) {
		assert_true(lib_len >= 0);
		assert_int_equal(out_len, lib_len);
		assert_memory_equal(out, lib, out_len);
	} else if (lib_len >= 0 && !lz4_deliberately_refused(why)) {
		fail_msg("liblz4 accepts a frame we refuse: %s", why);
	}
	free(out);
}

static void test_corrupted_frames_refused_like_the_library(void **state)
{
	(void)state;
	struct buf text = test_text_like(CORPUS_CONTENT, 11);
	const struct knobs kinds[] = {{0, 0, 0, LZ4F_max64KB, 1},
				      {9, 0, 1, LZ4F_max64KB, 0},
				      {12, 1, 1, LZ4F_max256KB, 1},
				      {1, 1, 0, LZ4F_max4MB, 0}};
	for (size_t k = 0; k < sizeof(kinds) / sizeof(kinds[0]); k++) {
		struct buf frame = compress_with(text.p, text.len, kinds[k]);
		uint8_t *copy = malloc(frame.len);
		for (size_t at = 0; at < frame.len; at++) {
			memcpy(copy, frame.p, frame.len);
			copy[at] ^= (uint8_t)(1u << (at % 8));
			assert_same_verdict(copy, frame.len);
			copy[at] = (uint8_t)(frame.p[at] + 0x41);
			assert_same_verdict(copy, frame.len);
			assert_same_verdict(frame.p, at);
		}
		free(copy);
		free(frame.p);
	}
	free(text.p);
}

/* Hand-made frames: a block size word of 0x80000000 is an empty uncompressed block, not the
 * EndMark, for liblz4 as for us. */
static void test_an_empty_uncompressed_block_is_no_end_mark(void **state)
{
	(void)state;
	/* FLG 0x6C: independent blocks, content size 1, content checksum; then 0x80000001 'A',
	 * then 0x80000000 and the checksum, which must not be read as an EndMark. */
	static const uint8_t frame[] = {0x04, 0x22, 0x4D, 0x18, 0x6C, 0x40, 0x01, 0x00, 0x00, 0x00,
					0x00, 0x00, 0x00, 0x00, 0x49, 0x01, 0x00, 0x00, 0x80, 0x41,
					0x00, 0x00, 0x00, 0x80, 0x4D, 0x9A, 0x65, 0x10};
	uint8_t out[1];
	size_t out_len;
	assert_int_not_equal(
		lz4_decompress(out, sizeof(out), frame, sizeof(frame), &out_len, NULL, NULL),
		KS_OK);
	assert_same_verdict(frame, sizeof(frame));
	/* The same with a real EndMark inserted before the checksum: both accept it. */
	uint8_t fixed[sizeof(frame) + 4];
	memcpy(fixed, frame, 24);
	memset(fixed + 24, 0, 4);
	memcpy(fixed + 28, frame + 24, 4);
	assert_int_equal(
		lz4_decompress(out, sizeof(out), fixed, sizeof(fixed), &out_len, NULL, NULL),
		KS_OK);
	assert_int_equal(out[0], 'A');
	assert_same_verdict(fixed, sizeof(fixed));
}

/* Blocks alone, against LZ4_decompress_safe with the same capacity. */
static void test_blocks_agree_with_the_library(void **state)
{
	(void)state;
	struct buf text = test_text_like(60000, 12);
	int bound = LZ4_compressBound((int)text.len);
	char *block = malloc((size_t)bound);
	for (int level = 0; level <= LZ4HC_CLEVEL_MAX; level += 4) {
		int len = level ? LZ4_compress_HC((const char *)text.p, block, (int)text.len, bound,
						  level)
				: LZ4_compress_default((const char *)text.p, block, (int)text.len,
						       bound);
		assert_true(len > 0);
		uint8_t *out = malloc(text.len);
		size_t decoded;
		assert_int_equal(lz4_block_decompress(out, 0, text.len, (const uint8_t *)block,
						      (size_t)len, &decoded, NULL),
				 KS_OK);
		assert_int_equal(decoded, text.len);
		assert_memory_equal(out, text.p, text.len);
		/* One byte less room: the library and we both refuse. */
		assert_true(LZ4_decompress_safe(block, (char *)out, len, (int)text.len - 1) < 0);
		assert_int_not_equal(lz4_block_decompress(out, 0, text.len - 1,
							  (const uint8_t *)block, (size_t)len,
							  &decoded, NULL),
				     KS_OK);
		free(out);
	}
	free(block);
	free(text.p);
}

/*
 * A block decoded with room to spare: the decoder's fast loop runs on to the block's last
 * sequences, so they must be read from the block alone (an exact-size copy, under ASan).
 */
static void test_a_block_decodes_the_same_with_room_to_spare(void **state)
{
	(void)state;
	struct buf text = test_text_like(60000, 13);
	int bound = LZ4_compressBound((int)text.len);
	char *scratch = malloc((size_t)bound);
	size_t capacity = text.len + 4096;
	for (int level = 0; level <= LZ4HC_CLEVEL_MAX; level += 4) {
		int len = level ? LZ4_compress_HC((const char *)text.p, scratch, (int)text.len,
						  bound, level)
				: LZ4_compress_default((const char *)text.p, scratch,
						       (int)text.len, bound);
		assert_true(len > 0);
		uint8_t *block = malloc((size_t)len);
		memcpy(block, scratch, (size_t)len);
		uint8_t *out = malloc(capacity);
		size_t decoded;
		assert_int_equal(LZ4_decompress_safe((const char *)block, (char *)out, len,
						     (int)capacity),
				 (int)text.len);
		memset(out, 0, capacity);
		assert_int_equal(
			lz4_block_decompress(out, 0, capacity, block, (size_t)len, &decoded, NULL),
			KS_OK);
		assert_int_equal(decoded, text.len);
		assert_memory_equal(out, text.p, text.len);
		free(out);
		free(block);
	}
	free(scratch);
	free(text.p);
}

/*
 * A literal run longer than the output's room, with input enough behind it: refused like the
 * library refuses it, and nothing written past the buffer (exact-size, under ASan). 929 bytes
 * of 'A' (one literal, then offset 1 and a match of 4 + 15 + 910), then 100 literals where 70
 * bytes of room are left, then 40 more bytes of input.
 */
static void test_a_literal_run_past_the_room_left_is_refused(void **state)
{
	(void)state;
	enum { CAPACITY = 1000, LITERALS = 100, AFTER = 40 };
	static const uint8_t head[] = {0x1F, 'A', 0x01, 0x00, 0xFF, 0xFF, 0xFF, 0x91, 0xF0,
				       LITERALS - 15};
	size_t len = sizeof(head) + LITERALS + AFTER;
	uint8_t *block = malloc(len);
	memcpy(block, head, sizeof(head));
	memset(block + sizeof(head), 'B', LITERALS);
	memset(block + sizeof(head) + LITERALS, 0, AFTER);
	uint8_t *out = malloc(CAPACITY);
	assert_true(LZ4_decompress_safe((const char *)block, (char *)out, (int)len, CAPACITY) < 0);
	size_t decoded;
	const char *why = NULL;
	assert_int_equal(lz4_block_decompress(out, 0, CAPACITY, block, len, &decoded, &why),
			 KS_EFORMAT);
	/* Refused at the run: too long to leave room for a match, and not the block's end. */
	assert_string_equal(why, "LZ4 block: end rule: a match after the last literals");
	free(out);
	free(block);
}

static void test_the_i386_build_decodes_the_same_frames(void **state)
{
	(void)state;
	struct buf kernel = test_read_file("build/i386/kernel.elf");
	assert_i386_checker_built();
	const struct knobs kinds[] = {{12, 0, 1, LZ4F_max64KB, 1},
				      {0, 1, 1, LZ4F_max256KB, 0},
				      {9, 0, 0, LZ4F_max4MB, 0}};
	assert_i386_decodes(kernel.p, kernel.len, kinds, 3);
	free(kernel.p);
}

int main(int argc, char **argv)
{
	/* make unit-i386-emulated runs only the i386 case: a cmocka filter. */
	if (argc > 1)
		cmocka_set_test_filter(argv[1]);
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_every_mode_of_a_reference_kernel_round_trips),
		cmocka_unit_test(test_big_binaries_round_trip),
		cmocka_unit_test(test_empty_one_byte_random_and_runs_round_trip),
		cmocka_unit_test(test_progress_trails_by_the_window_of_linked_blocks),
		cmocka_unit_test(test_too_small_a_buffer_is_refused),
		cmocka_unit_test(test_corrupted_frames_refused_like_the_library),
		cmocka_unit_test(test_an_empty_uncompressed_block_is_no_end_mark),
		cmocka_unit_test(test_blocks_agree_with_the_library),
		cmocka_unit_test(test_a_block_decodes_the_same_with_room_to_spare),
		cmocka_unit_test(test_a_literal_run_past_the_room_left_is_refused),
		cmocka_unit_test(test_the_i386_build_decodes_the_same_frames),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
