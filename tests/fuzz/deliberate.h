/*
 * Inputs the real libraries accept and lib/ refuses on purpose (docs/compression.md, "What is
 * checked"): the fuzz targets and unit tests allow these differences and no others.
 */
#ifndef KSLIDE_TESTS_FUZZ_DELIBERATE_H
#define KSLIDE_TESTS_FUZZ_DELIBERATE_H

#include <string.h>

/*
 * libzstd's one-shot decoder, with the whole output in one buffer, takes windows past its own
 * streaming limit (ours is ZSTD_WINDOW_MAX) and checks offsets only against the frame's start
 * (the watermark contract needs them within the window). It also lets sequences bitstreams
 * end with bits unread or overread, and ignores the sequence modes' reserved bits, where
 * RFC 8878 calls both corruption.
 */
static inline int zstd_deliberately_refused(const char *why)
{
	static const char *const reasons[] = {
		"zstd: window larger than supported",
		"zstd: match offset beyond the window",
		"zstd: sequences read past their bitstream",
		"zstd: sequences bitstream not consumed exactly",
		"zstd: reserved sequence mode bits",
	};
	for (size_t i = 0; why && i < sizeof(reasons) / sizeof(reasons[0]); i++)
		if (strcmp(why, reasons[i]) == 0)
			return 1;
	return 0;
}

/*
 * liblz4 fills an offset-0 match from whatever the output held (the block format calls the
 * offset invalid), and its fast paths let through some breaks of the format's end-of-block
 * conditions that its careful path refuses ("end rule").
 */
#define LZ4_END_RULE "LZ4 block: end rule:"
static inline int lz4_deliberately_refused(const char *why)
{
	return why && (strcmp(why, "LZ4 block: match offset 0") == 0 ||
		       strncmp(why, LZ4_END_RULE, strlen(LZ4_END_RULE)) == 0);
}

#endif
