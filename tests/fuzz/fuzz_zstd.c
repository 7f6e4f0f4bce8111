/*
 * libFuzzer target: lib/zstd.h against libzstd, under ASan with exact-size buffers.
 * 1. The input as frames: ZSTD_decompress and zstd_decompress must agree on accepting it,
 *    and on every byte when both do. Our output buffer is exactly as large as the library's
 *    output, so any write past it is caught.
 * 2. The input as content: libzstd compresses it (level, window, checksum from its first
 *    byte) and zstd_decompress must give it back exactly.
 * Both runs go through progress_check.h's hook, which flips every byte reported final.
 */
#include <stdlib.h>
#include <string.h>

#include <zstd.h>

#include "lib/errors.h"
#include "lib/zstd.h"
#include "tests/fuzz/deliberate.h"
#include "tests/fuzz/progress_check.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* The most output one input may produce; past it both decoders must refuse. */
#define OUT_MAX		    (256u << 10)
#define WINDOW_LOG_SMALLEST 10 /* RFC 8878: Window_Size is at least 1 KiB */

static _Alignas(ZSTD_WORKSPACE_ALIGN) uint8_t workspace[ZSTD_WORKSPACE_SIZE];

/* Ours into exactly 'capacity' bytes, through the checking hook. */
static int ours(uint8_t *dst, size_t capacity, const uint8_t *src, size_t len, size_t *out,
		const char **why)
{
	struct progress_check check;
	struct decode_progress hook = progress_check_hook(&check, dst, capacity);
	int rc = zstd_decompress(workspace, sizeof(workspace), dst, capacity, src, len, out, &hook,
				 why);
	if (!progress_restore(&check, rc, *out))
		abort();
	return rc;
}

static void as_frames(const uint8_t *data, size_t size)
{
	static uint8_t lib[OUT_MAX], unsized[OUT_MAX];
	size_t lib_len = ZSTD_decompress(lib, OUT_MAX, data, size);
	int lib_ok = !ZSTD_isError(lib_len);
	size_t capacity = lib_ok ? lib_len : OUT_MAX;
	/* Exactly the right size when there is one (a global's redzone guards the other). */
	uint8_t *mine = lib_ok ? malloc(capacity ? capacity : 1) : unsized;
	size_t out;
	const char *why = NULL;
	int rc = ours(mine, capacity, data, size, &out, &why);
	if (rc == KS_OK && (!lib_ok || out != lib_len || memcmp(mine, lib, out) != 0))
		abort();
	if (rc != KS_OK && lib_ok && !zstd_deliberately_refused(why) &&
	    !zstd_legacy_refused(why, data, size))
		abort();
	if (lib_ok)
		free(mine);
}

static void as_content(const uint8_t *data, size_t size)
{
	if (size < 1)
		return;
	unsigned knobs = data[0];
	ZSTD_CCtx *cctx = ZSTD_createCCtx();
	ZSTD_CCtx_setParameter(cctx, ZSTD_c_compressionLevel, (int)(knobs & 7) * 2 + 1);
	ZSTD_CCtx_setParameter(cctx, ZSTD_c_checksumFlag, (knobs >> 3) & 1);
	ZSTD_CCtx_setParameter(cctx, ZSTD_c_contentSizeFlag, (knobs >> 4) & 1);
	/* Small windows, so that matches reach the window's edge and frames are multi-block. */
	ZSTD_CCtx_setParameter(cctx, ZSTD_c_windowLog, WINDOW_LOG_SMALLEST + (int)(knobs >> 5));
	size_t bound = ZSTD_compressBound(size);
	uint8_t *frame = malloc(bound);
	size_t frame_len = ZSTD_compress2(cctx, frame, bound, data, size);
	ZSTD_freeCCtx(cctx);
	if (ZSTD_isError(frame_len))
		abort();
	uint8_t *mine = malloc(size);
	size_t out;
	if (ours(mine, size, frame, frame_len, &out, NULL) != KS_OK || out != size ||
	    memcmp(mine, data, size) != 0)
		abort();
	free(frame);
	free(mine);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	as_frames(data, size);
	as_content(data, size);
	return 0;
}
