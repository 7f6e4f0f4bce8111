/* Payload compression with libzstd and liblz4 (lz4frame), in the forms the stub's decoders read. */
#include <lz4frame.h>
#include <lz4hc.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zstd.h>

#include "include/kslide/image.h"
#include "lib/zstd.h"
#include "tools/pack/compress.h"
#include "tools/pack/fail.h"

static const struct {
	const char *name;
	int codec;
} codecs[] = {
	{ "none", KSLIDE_CODEC_NONE },
	{ "zstd", KSLIDE_CODEC_ZSTD },
	{ "lz4", KSLIDE_CODEC_LZ4 },
	{ "auto", PACK_CODEC_AUTO },
};

int pack_codec_parse(const char *name, int *codec)
{
	for (size_t i = 0; i < sizeof(codecs) / sizeof(codecs[0]); i++)
		if (strcmp(name, codecs[i].name) == 0) {
			*codec = codecs[i].codec;
			return 0;
		}
	return -1;
}

const char *pack_codec_name(int codec)
{
	for (size_t i = 0; i < sizeof(codecs) / sizeof(codecs[0]); i++)
		if (codecs[i].codec == codec)
			return codecs[i].name;
	return "?";
}

uint32_t pack_codec_auto(uint64_t size)
{
	return size < PACK_COMPRESS_AUTO_MIN ? KSLIDE_CODEC_NONE : KSLIDE_CODEC_ZSTD;
}

uint32_t pack_codec_choose(int chosen, int container_default, uint64_t size)
{
	int codec = chosen == PACK_CODEC_DEFAULT ? container_default : chosen;
	return codec == PACK_CODEC_AUTO ? pack_codec_auto(size) : (uint32_t)codec;
}

/* zstd at its highest level (--ultra -22) with long-distance matching; the window capped
 * where the stub's decoder stops (lib/zstd.h, ZSTD_WINDOW_LOG_MAX). No content checksum:
 * the image's payload sums fix the frame, and so what it decodes to (docs/format.md). */
static int compress_zstd(const uint8_t *src, size_t size, uint8_t **out, size_t *out_size,
			 char *err, size_t err_cap)
{
	ZSTD_CCtx *cctx = ZSTD_createCCtx();
	size_t cap = ZSTD_compressBound(size);
	uint8_t *buf = malloc(cap);
	if (!cctx || !buf) {
		ZSTD_freeCCtx(cctx);
		free(buf);
		return pack_fail(err, err_cap, "out of memory");
	}
	size_t r = ZSTD_CCtx_setParameter(cctx, ZSTD_c_compressionLevel, ZSTD_maxCLevel());
	if (!ZSTD_isError(r))
		r = ZSTD_CCtx_setParameter(cctx, ZSTD_c_checksumFlag, 0);
	if (!ZSTD_isError(r))
		r = ZSTD_CCtx_setParameter(cctx, ZSTD_c_enableLongDistanceMatching, 1);
	if (!ZSTD_isError(r))
		r = ZSTD_CCtx_setParameter(cctx, ZSTD_c_windowLog, ZSTD_WINDOW_LOG_MAX);
	if (!ZSTD_isError(r))
		r = ZSTD_compress2(cctx, buf, cap, src, size);
	ZSTD_freeCCtx(cctx);
	if (ZSTD_isError(r)) {
		free(buf);
		return pack_fail(err, err_cap, "zstd: %s", ZSTD_getErrorName(r));
	}
	*out = buf;
	*out_size = r;
	return 0;
}

/*
 * LZ4: one frame at LZ4HC's highest level, linked 64 KiB blocks, content size, no content
 * checksum (as for zstd). The smallest blocks the format has: the stub relocates each one as
 * soon as the next has been decoded (the window is 64 KiB), while it is still in cache, and
 * the Debian 686 kernel's frame is only 0.02% larger than with 4 MiB blocks.
 */
static int compress_lz4(const uint8_t *src, size_t size, uint8_t **out, size_t *out_size,
			char *err, size_t err_cap)
{
	LZ4F_preferences_t prefs;
	memset(&prefs, 0, sizeof(prefs));
	prefs.frameInfo.blockSizeID = LZ4F_max64KB;
	prefs.frameInfo.blockMode = LZ4F_blockLinked;
	prefs.frameInfo.contentChecksumFlag = LZ4F_noContentChecksum;
	prefs.frameInfo.contentSize = size;
	prefs.compressionLevel = LZ4HC_CLEVEL_MAX;
	size_t cap = LZ4F_compressFrameBound(size, &prefs);
	uint8_t *buf = malloc(cap);
	if (!buf)
		return pack_fail(err, err_cap, "out of memory");
	size_t r = LZ4F_compressFrame(buf, cap, src, size, &prefs);
	if (LZ4F_isError(r)) {
		free(buf);
		return pack_fail(err, err_cap, "lz4: %s", LZ4F_getErrorName(r));
	}
	*out = buf;
	*out_size = r;
	return 0;
}

int pack_compress(uint32_t codec, const uint8_t *src, size_t size, uint8_t **out, size_t *out_size,
		  char *err, size_t err_cap)
{
	switch (codec) {
	case KSLIDE_CODEC_ZSTD: return compress_zstd(src, size, out, out_size, err, err_cap);
	case KSLIDE_CODEC_LZ4: return compress_lz4(src, size, out, out_size, err, err_cap);
	}
	return pack_fail(err, err_cap, "internal error: codec %u", codec);
}
