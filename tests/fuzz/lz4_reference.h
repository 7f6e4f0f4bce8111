/* liblz4's frame decoder run over a whole input, frame after frame, as the lz4 tool does. */
#ifndef KSLIDE_TESTS_FUZZ_LZ4_REFERENCE_H
#define KSLIDE_TESTS_FUZZ_LZ4_REFERENCE_H

#include <stdint.h>
#include <stdlib.h>

#include <lz4frame.h>

/* The output size, or -1 if the library refuses the input or it ends inside a frame. */
static inline long lz4_reference_frames(uint8_t *dst, size_t capacity, const uint8_t *src,
					size_t len)
{
	LZ4F_dctx *dctx;
	if (LZ4F_isError(LZ4F_createDecompressionContext(&dctx, LZ4F_VERSION)))
		abort();
	size_t at = 0, out = 0, hint = 0;
	while (at < len) {
		size_t dst_len = capacity - out, src_len = len - at;
		hint = LZ4F_decompress(dctx, dst + out, &dst_len, src + at, &src_len, NULL);
		if (LZ4F_isError(hint) || (dst_len == 0 && src_len == 0))
			break;
		at += src_len;
		out += dst_len;
	}
	LZ4F_freeDecompressionContext(dctx);
	return at == len && hint == 0 ? (long)out : -1;
}

#endif
