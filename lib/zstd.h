/*
 * Zstandard decoding (RFC 8878) into one contiguous buffer, with a fixed workspace and no
 * allocation. Accepted: Zstandard frames without a dictionary, with any block type, Huffman
 * and FSE modes, and an optional content checksum (checked); skippable frames (skipped);
 * windows up to ZSTD_WINDOW_MAX. Refused with KS_EFORMAT: everything malformed, a dictionary
 * ID other than 0, a larger window, offsets beyond the window. KS_ENOSPC: dst too small.
 * docs/compression.md says what is checked and why the bounds are what they are.
 */
#ifndef KSLIDE_LIB_ZSTD_H
#define KSLIDE_LIB_ZSTD_H

#include <stddef.h>
#include <stdint.h>

#include "lib/decompress.h"

#define ZSTD_MAGIC 0xFD2FB528u
/*
 * Window bound: libzstd's own default decoder limit (ZSTD_WINDOWLOG_LIMIT_DEFAULT, 27), which
 * covers every level up to --ultra -22 and --long without an explicit larger window. The
 * output is the window, so the bound costs no memory; it bounds how far the progress
 * watermark (lib/decompress.h) trails the output.
 */
#define ZSTD_WINDOW_LOG_MAX 27
#define ZSTD_WINDOW_MAX	    ((uint64_t)1 << ZSTD_WINDOW_LOG_MAX)

/*
 * The caller's workspace: ZSTD_WORKSPACE_SIZE bytes aligned to ZSTD_WORKSPACE_ALIGN. It holds
 * one block's literals (128 KiB and copy slack), the Huffman and FSE decoding tables and the
 * checksum state; lib/zstd_internal.h lays it out and checks that it fits.
 */
#define ZSTD_WORKSPACE_SIZE  (160u * 1024)
#define ZSTD_WORKSPACE_ALIGN 8

/*
 * Decode src[0, src_len), a sequence of Zstandard and skippable frames, into dst; the total
 * goes to *out_len (on failure: how far decoding got). progress may be NULL. On failure *why
 * (if why is not NULL) names the problem.
 */
int zstd_decompress(void *workspace, size_t workspace_size, void *dst, size_t dst_capacity,
		    const void *src, size_t src_len, size_t *out_len,
		    const struct decode_progress *progress, const char **why);

#endif
