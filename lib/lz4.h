/*
 * LZ4 decoding into one contiguous buffer: the frame format (lz4_Frame_format.md 1.6.1:
 * linked or independent blocks, uncompressed blocks, block and content checksums with XXH32,
 * content size, skippable frames) and the block format (lz4_Block_format.md). No allocation
 * and no workspace: back-references read the output already written. Every read and write is
 * bounds-checked; malformed input returns KS_EFORMAT, too small a buffer KS_ENOSPC.
 */
#ifndef KSLIDE_LIB_LZ4_H
#define KSLIDE_LIB_LZ4_H

#include <stddef.h>
#include <stdint.h>

#include "lib/decompress.h"

#define LZ4_FRAME_MAGIC 0x184D2204u
#define LZ4_WINDOW	(64u * 1024) /* how far back a linked block's matches may reach */

/*
 * Decode src[0, src_len), a sequence of LZ4 frames and skippable frames, into dst; the total
 * goes to *out_len (on failure: how far decoding got). progress may be NULL (lib/decompress.h
 * says what it is told). On failure *why (if why is not NULL) names the problem.
 */
int lz4_decompress(void *dst, size_t dst_capacity, const void *src, size_t src_len, size_t *out_len,
		   const struct decode_progress *progress, const char **why);

/*
 * Decode one compressed block of src_len bytes to out + pos, where the 'pos' bytes before it
 * are history that matches may reach back into, and at most 'capacity' bytes may be written.
 * The end-of-block rules (lz4_Block_format.md, "End of block conditions") are applied as the
 * reference decoder applies them, relative to 'capacity': a literal run ending within 12
 * bytes of it must end the block, and no match may end within its last 5 bytes.
 * Offset 0 is refused. The decoded size goes to *decoded.
 */
int lz4_block_decompress(uint8_t *out, size_t pos, size_t capacity, const uint8_t *src,
			 size_t src_len, size_t *decoded, const char **why);

#endif
