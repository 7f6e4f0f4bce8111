/*
 * Decompressing a bzImage's payload with the real libraries: zlib (gzip), liblzma (xz and
 * lzma), liblz4 (the legacy LZ4 format Linux's `lz4 -l` writes), libzstd and libbz2.
 */
#ifndef KSLIDE_TOOLS_PACK_DECOMPRESS_H
#define KSLIDE_TOOLS_PACK_DECOMPRESS_H

#include <stddef.h>
#include <stdint.h>

/* The formats boot.rst lists for payload_offset, known by their first two bytes. */
enum payload_codec {
	CODEC_UNKNOWN,
	CODEC_GZIP,
	CODEC_BZIP2,
	CODEC_LZMA,
	CODEC_XZ,
	CODEC_LZO,
	CODEC_LZ4,
	CODEC_ZSTD,
};

enum payload_codec payload_codec_detect(const uint8_t *in, size_t len);
const char *payload_codec_name(enum payload_codec codec);

/*
 * Decompress a payload of len bytes into a new buffer (*out, *out_len; the caller frees it).
 * Linux appends the uncompressed size as 4 little-endian bytes after the compressed stream
 * (size_append, scripts/Makefile.lib): the stream must end exactly there and decompress to
 * exactly that size, at most max_out bytes. 0, or -1 with a message in err.
 */
int payload_decompress(const uint8_t *in, size_t len, uint64_t max_out, uint8_t **out,
		       size_t *out_len, char *err, size_t err_cap);

#endif
