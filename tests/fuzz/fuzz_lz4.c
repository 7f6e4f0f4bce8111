/*
 * libFuzzer target: lib/lz4.h against liblz4, under ASan with exact-size buffers.
 * 1. The input as frames: LZ4F_decompress (frame after frame, as the lz4 tool does) and
 *    lz4_decompress must agree on accepting it, and on every byte when both do.
 * 2. The input as one block: LZ4_decompress_safe and lz4_block_decompress, with the same
 *    capacity (a fixed one, then exactly the library's output size).
 * 3. The input as content: liblz4 compresses it as a frame (level, block size and mode,
 *    checksums from its first byte) and lz4_decompress must give it back exactly; and as one
 *    block, which lz4_block_decompress must give back with room to spare.
 */
#include <stdlib.h>
#include <string.h>

#include <lz4.h>
#include <lz4frame.h>

#include "lib/errors.h"
#include "lib/lz4.h"
#include "tests/fuzz/deliberate.h"
#include "tests/fuzz/lz4_reference.h"
#include "tests/fuzz/progress_check.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* The most output one input may produce; past it both decoders must refuse. */
#define OUT_MAX	       (256u << 10)
#define BLOCK_CAPACITY (64u << 10)
#define ROOM_TO_SPARE  4096 /* more than the decoders' fast loops leave at the end */

static int ours(uint8_t *dst, size_t capacity, const uint8_t *src, size_t len, size_t *out,
		const char **why)
{
	struct progress_check check;
	struct decode_progress hook = progress_check_hook(&check, dst, capacity);
	int rc = lz4_decompress(dst, capacity, src, len, out, &hook, why);
	if (!progress_restore(&check, rc, *out))
		abort();
	return rc;
}

static void as_frames(const uint8_t *data, size_t size)
{
	static uint8_t lib[OUT_MAX], unsized[OUT_MAX];
	long lib_len = lz4_reference_frames(lib, OUT_MAX, data, size);
	size_t capacity = lib_len >= 0 ? (size_t)lib_len : OUT_MAX, out;
	/* Exactly the right size when there is one (a global's redzone guards the other). */
	uint8_t *mine = lib_len >= 0 ? malloc(capacity ? capacity : 1) : unsized;
	const char *why = NULL;
	int rc = ours(mine, capacity, data, size, &out, &why);
	if (rc == KS_OK && (lib_len < 0 || out != (size_t)lib_len || memcmp(mine, lib, out)))
		abort();
	if (rc != KS_OK && lib_len >= 0 && !lz4_deliberately_refused(why))
		abort();
	if (lib_len >= 0)
		free(mine);
}

/* One block at one capacity; returns the library's output size (or -1). */
static int as_block(const uint8_t *data, size_t size, size_t capacity)
{
	uint8_t *lib = malloc(capacity ? capacity : 1);
	uint8_t *mine = malloc(capacity ? capacity : 1);
	int lib_len =
		LZ4_decompress_safe((const char *)data, (char *)lib, (int)size, (int)capacity);
	size_t out;
	const char *why = NULL;
	int rc = lz4_block_decompress(mine, 0, capacity, data, size, &out, &why);
	if (rc == KS_OK && (lib_len < 0 || out != (size_t)lib_len || memcmp(mine, lib, out)))
		abort();
	if (rc != KS_OK && lib_len >= 0 && !lz4_deliberately_refused(why))
		abort();
	free(lib);
	free(mine);
	return lib_len;
}

static void as_content(const uint8_t *data, size_t size)
{
	if (size < 1)
		return;
	unsigned knobs = data[0];
	LZ4F_preferences_t prefs;
	memset(&prefs, 0, sizeof(prefs));
	prefs.compressionLevel = (int)(knobs & 3) * 4; /* 0 (fast) to 12 (HC max) */
	prefs.frameInfo.blockSizeID = (LZ4F_blockSizeID_t)(LZ4F_max64KB + ((knobs >> 2) & 3));
	prefs.frameInfo.blockMode = (knobs >> 4) & 1 ? LZ4F_blockIndependent : LZ4F_blockLinked;
	prefs.frameInfo.blockChecksumFlag = (knobs >> 5) & 1;
	prefs.frameInfo.contentChecksumFlag = (knobs >> 6) & 1;
	prefs.frameInfo.contentSize = (knobs >> 7) ? size : 0;
	size_t bound = LZ4F_compressFrameBound(size, &prefs);
	uint8_t *frame = malloc(bound);
	size_t frame_len = LZ4F_compressFrame(frame, bound, data, size, &prefs);
	if (LZ4F_isError(frame_len))
		abort();
	uint8_t *mine = malloc(size);
	size_t out;
	if (ours(mine, size, frame, frame_len, &out, NULL) != KS_OK || out != size ||
	    memcmp(mine, data, size) != 0)
		abort();
	free(frame);
	free(mine);
	/* The same content as one block, decoded with room to spare from an exact-size copy:
	 * the decoder's fast loop then runs on to the block's last sequences. */
	int block_bound = LZ4_compressBound((int)size);
	char *scratch = malloc((size_t)block_bound);
	int block_len = LZ4_compress_default((const char *)data, scratch, (int)size, block_bound);
	if (block_len <= 0)
		abort();
	uint8_t *block = malloc((size_t)block_len);
	memcpy(block, scratch, (size_t)block_len);
	free(scratch);
	size_t room = size + ROOM_TO_SPARE;
	mine = malloc(room);
	if (lz4_block_decompress(mine, 0, room, block, (size_t)block_len, &out, NULL) != KS_OK ||
	    out != size || memcmp(mine, data, size) != 0)
		abort();
	free(block);
	free(mine);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	as_frames(data, size);
	int lib_len = as_block(data, size, BLOCK_CAPACITY);
	if (lib_len >= 0)
		as_block(data, size, (size_t)lib_len);
	as_content(data, size);
	return 0;
}
