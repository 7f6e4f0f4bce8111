/*
 * What the LZ4 and Zstandard decoders (lib/lz4.h, lib/zstd.h) share: the progress hook through
 * which a caller learns, block by block, which part of the output is done for good.
 *
 * Both decoders write into one contiguous destination buffer and read their back-references
 * from the output already written there (there is no separate window). After each block the
 * decoder reports a watermark 'final': output bytes [0, final) are complete, were already
 * covered by the content checksum (if the frame has one), and will never be read or written
 * again by this decoder call; the caller may change them (the stub relocates them while they
 * are still in cache). For a frame with window W, after B bytes of it have been decoded:
 *
 *     dst: | earlier frames | this frame: decoded ............. | not yet written
 *          0                                   B - W            B
 *          |<------------ final ------------->|<-- window W -->|
 *
 * final = B - W (0 if B < W) plus what earlier frames wrote; when a frame ends, all of it is
 * final. LZ4's window is 64 KiB for linked blocks and 0 for independent ones; zstd's is the
 * frame's Window_Size. Calls come in non-decreasing order of 'final'; the last one, made only
 * after every check of the whole input passed, has final == the total output. A negative
 * return value stops decoding, and the decoder returns that value.
 *
 * zstd also reports, after each block, how far the output is written: 'written' (NULL for
 * none). Bytes in [final, written) may still be read by later blocks' matches (and hashed, in
 * a frame with a content checksum); a caller may change one of them only when it knows that
 * nothing later reads it: kslide-pack proves that for each relocation field it lists as early
 * (lib/reloc_schedule.h). LZ4 reports no 'written'.
 */
#ifndef KSLIDE_LIB_DECOMPRESS_H
#define KSLIDE_LIB_DECOMPRESS_H

#include <stddef.h>

struct decode_progress {
	int (*final)(void *ctx, size_t final);
	void *ctx;
	int (*written)(void *ctx, size_t written);
};

#endif
