/*
 * The payload codecs (tools/pack/decompress.h). Each decodes one whole stream into a buffer
 * of exactly the size Linux appended, and must end exactly at the appended size: a stream
 * that stops early is truncated, one that wants more room or leaves bytes over is corrupt.
 */
#include <bzlib.h>
#include <lz4.h>
#include <lzma.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>
#include <zstd.h>
#include <zstd_errors.h>

#include "lib/unaligned.h"
#include "tools/pack/decompress.h"
#include "tools/pack/fail.h"

#define SIZE_TRAILER_BYTES 4
#define GZIP_WINDOW_BITS (16 + MAX_WBITS) /* zlib: expect a gzip header */
/* Linux's LZ4 payload is the legacy format: a magic, then blocks of a 4-byte compressed size
 * and the block, each decoding to 8 MiB except the last (lib/decompress_unlz4.c). */
#define LZ4_LEGACY_MAGIC 0x184C2102u
#define LZ4_LEGACY_BLOCK (8u << 20)

struct codec_magic {
	enum payload_codec codec;
	uint8_t first, second;
	const char *name;
};

static const struct codec_magic magics[] = {
	{ CODEC_GZIP, 0x1f, 0x8b, "gzip" }, { CODEC_GZIP, 0x1f, 0x9e, "gzip" },
	{ CODEC_BZIP2, 0x42, 0x5a, "bzip2" }, { CODEC_LZMA, 0x5d, 0x00, "lzma" },
	{ CODEC_XZ, 0xfd, 0x37, "xz" },	    { CODEC_LZO, 0x89, 0x4c, "lzo" },
	{ CODEC_LZ4, 0x02, 0x21, "lz4" },   { CODEC_ZSTD, 0x28, 0xb5, "zstd" },
};
#define MAGIC_COUNT (sizeof(magics) / sizeof(magics[0]))

enum payload_codec payload_codec_detect(const uint8_t *in, size_t len)
{
	for (size_t i = 0; len >= 2 && i < MAGIC_COUNT; i++)
		if (in[0] == magics[i].first && in[1] == magics[i].second)
			return magics[i].codec;
	return CODEC_UNKNOWN;
}

const char *payload_codec_name(enum payload_codec codec)
{
	for (size_t i = 0; i < MAGIC_COUNT; i++)
		if (magics[i].codec == codec)
			return magics[i].name;
	return "unknown";
}

/* A stream, its destination, and where to say what went wrong. */
struct job {
	const uint8_t *in;
	size_t in_len; /* the compressed stream, without the size trailer */
	uint8_t *out;
	size_t out_len; /* exactly what it must decode to */
	const char *name;
	char *err;
	size_t err_cap;
};

static int corrupt(const struct job *j, const char *why)
{
	return pack_fail(j->err, j->err_cap, "corrupt %s payload: %s", j->name, why);
}

static int truncated(const struct job *j)
{
	return pack_fail(j->err, j->err_cap,
			 "truncated %s payload: the stream ends before its end "
			 "marker (%zu compressed bytes)",
			 j->name, j->in_len);
}

static int wrong_size(const struct job *j, const char *how)
{
	return pack_fail(j->err, j->err_cap,
			 "corrupt %s payload: it decodes to %s than the %zu bytes "
			 "its size trailer says",
			 j->name, how, j->out_len);
}

static int left_over(const struct job *j, size_t bytes)
{
	return pack_fail(j->err, j->err_cap,
			 "corrupt %s payload: %zu bytes follow the end of its "
			 "stream, before the size trailer",
			 j->name, bytes);
}

static int gunzip(const struct job *j)
{
	z_stream z = { 0 };
	if (inflateInit2(&z, GZIP_WINDOW_BITS) != Z_OK)
		return pack_fail(j->err, j->err_cap, "cannot start zlib: %s", z.msg ? z.msg : "?");
	z.next_in = (Bytef *)j->in;
	z.avail_in = (uInt)j->in_len;
	z.next_out = j->out;
	z.avail_out = (uInt)j->out_len;
	int rc = inflate(&z, Z_FINISH);
	size_t rest = z.avail_in, room = z.avail_out;
	const char *msg = z.msg;
	int result = 0;
	if (rc == Z_DATA_ERROR)
		result = corrupt(j, msg ? msg : "zlib data error");
	else if (rc == Z_STREAM_END)
		result = room ? wrong_size(j, "fewer bytes") : rest ? left_over(j, rest) : 0;
	else if (rc == Z_BUF_ERROR && room == 0)
		result = wrong_size(j, "more bytes");
	else if (rc == Z_BUF_ERROR)
		result = truncated(j);
	else
		result = corrupt(j, msg ? msg : "zlib error");
	inflateEnd(&z);
	return result;
}

/* xz streams and the older lzma ("alone") format, both liblzma. */
static int unxz(const struct job *j, bool alone)
{
	lzma_stream s = LZMA_STREAM_INIT;
	lzma_ret rc = alone ? lzma_alone_decoder(&s, UINT64_MAX)
			    : lzma_stream_decoder(&s, UINT64_MAX, 0);
	if (rc != LZMA_OK)
		return pack_fail(j->err, j->err_cap, "cannot start liblzma (error %d)", rc);
	s.next_in = j->in;
	s.avail_in = j->in_len;
	s.next_out = j->out;
	s.avail_out = j->out_len;
	rc = lzma_code(&s, LZMA_FINISH);
	size_t rest = s.avail_in, room = s.avail_out;
	lzma_end(&s);
	switch (rc) {
	case LZMA_STREAM_END:
		return room ? wrong_size(j, "fewer bytes") : rest ? left_over(j, rest) : 0;
	case LZMA_BUF_ERROR:
		return room == 0 ? wrong_size(j, "more bytes") : truncated(j);
	case LZMA_OK:
		return room == 0 ? wrong_size(j, "more bytes") : truncated(j);
	case LZMA_DATA_ERROR:
		return corrupt(j, "liblzma data error (a checksum or the compressed data)");
	case LZMA_FORMAT_ERROR:
		return corrupt(j, "not in the format its magic says");
	case LZMA_OPTIONS_ERROR:
		return corrupt(j, "options liblzma does not support");
	case LZMA_MEM_ERROR:
		return pack_fail(j->err, j->err_cap, "out of memory decompressing the payload");
	default:
		return corrupt(j, "liblzma error");
	}
}

static int unlz4(const struct job *j)
{
	if (j->in_len < 4 || load_le32(j->in) != LZ4_LEGACY_MAGIC)
		return corrupt(j, "not the legacy LZ4 format (magic 0x184c2102) Linux writes");
	size_t at = 4, done = 0;
	while (at < j->in_len) {
		if (j->in_len - at < 4)
			return truncated(j);
		uint32_t block = load_le32(j->in + at);
		at += 4;
		if (block == LZ4_LEGACY_MAGIC)
			continue; /* a concatenated archive's magic (lz4 -l of several inputs) */
		if (block > j->in_len - at)
			return truncated(j);
		if (done == j->out_len)
			return wrong_size(j, "more bytes");
		size_t room = j->out_len - done;
		int got = LZ4_decompress_safe((const char *)j->in + at, (char *)j->out + done,
					      (int)block, (int)(room < LZ4_LEGACY_BLOCK ? room
										: LZ4_LEGACY_BLOCK));
		if (got < 0)
			return corrupt(j, room < LZ4_LEGACY_BLOCK
						  ? "a block is malformed or decodes past the size trailer"
						  : "a block is malformed");
		done += (size_t)got;
		at += block;
	}
	return done == j->out_len ? 0 : wrong_size(j, "fewer bytes");
}

static int unzstd(const struct job *j)
{
	size_t frame = ZSTD_findFrameCompressedSize(j->in, j->in_len);
	if (ZSTD_isError(frame))
		return ZSTD_getErrorCode(frame) == ZSTD_error_srcSize_wrong ? truncated(j)
									     : corrupt(j, ZSTD_getErrorName(frame));
	if (frame != j->in_len)
		return left_over(j, j->in_len - frame);
	size_t got = ZSTD_decompress(j->out, j->out_len, j->in, frame);
	if (ZSTD_isError(got))
		return ZSTD_getErrorCode(got) == ZSTD_error_dstSize_tooSmall
			       ? wrong_size(j, "more bytes")
			       : corrupt(j, ZSTD_getErrorName(got));
	return got == j->out_len ? 0 : wrong_size(j, "fewer bytes");
}

static int bunzip2(const struct job *j)
{
	unsigned int got = (unsigned int)j->out_len;
	int rc = BZ2_bzBuffToBuffDecompress((char *)j->out, &got, (char *)j->in,
					    (unsigned int)j->in_len, 0, 0);
	switch (rc) {
	case BZ_OK:
		return got == j->out_len ? 0 : wrong_size(j, "fewer bytes");
	case BZ_OUTBUFF_FULL:
		return wrong_size(j, "more bytes");
	case BZ_UNEXPECTED_EOF:
		return truncated(j);
	case BZ_MEM_ERROR:
		return pack_fail(j->err, j->err_cap, "out of memory decompressing the payload");
	default:
		return corrupt(j, "libbz2 data error");
	}
}

int payload_decompress(const uint8_t *in, size_t len, uint64_t max_out, uint8_t **out,
		       size_t *out_len, char *err, size_t err_cap)
{
	enum payload_codec codec = payload_codec_detect(in, len);
	if (codec == CODEC_UNKNOWN)
		return pack_fail(err, err_cap,
				 "unknown payload compression (first bytes %02x %02x; boot.rst "
				 "lists gzip, bzip2, lzma, xz, lzo, lz4 and zstd)",
				 len > 0 ? in[0] : 0, len > 1 ? in[1] : 0);
	if (codec == CODEC_LZO)
		return pack_fail(err, err_cap,
				 "LZO-compressed payloads are not supported: build Linux "
				 "with another CONFIG_KERNEL_* compression");
	if (len <= SIZE_TRAILER_BYTES)
		return pack_fail(err, err_cap, "truncated %s payload (%zu bytes)",
				 payload_codec_name(codec), len);
	uint32_t size = load_le32(in + len - SIZE_TRAILER_BYTES);
	if (size == 0 || size > max_out)
		return pack_fail(err, err_cap,
				 "corrupt %s payload: its size trailer says %u bytes "
				 "(at most %llu)",
				 payload_codec_name(codec), size, (unsigned long long)max_out);
	struct job j = { .in = in, .in_len = len - SIZE_TRAILER_BYTES, .out = malloc(size),
			 .out_len = size, .name = payload_codec_name(codec), .err = err,
			 .err_cap = err_cap };
	if (!j.out)
		return pack_fail(err, err_cap, "out of memory for a %u-byte payload", size);
	int rc;
	switch (codec) {
	case CODEC_GZIP: rc = gunzip(&j); break;
	case CODEC_XZ: rc = unxz(&j, false); break;
	case CODEC_LZMA: rc = unxz(&j, true); break;
	case CODEC_LZ4: rc = unlz4(&j); break;
	case CODEC_ZSTD: rc = unzstd(&j); break;
	case CODEC_BZIP2: rc = bunzip2(&j); break;
	default: rc = pack_fail(err, err_cap, "internal error: no decoder for %s", j.name); break;
	}
	if (rc) {
		free(j.out);
		return -1;
	}
	*out = j.out;
	*out_len = j.out_len;
	return 0;
}
