/*
 * Inputs the real libraries accept and lib/ refuses on purpose (docs/compression.md, "What is
 * checked"): the fuzz targets and unit tests allow these differences and no others.
 */
#ifndef KSLIDE_TESTS_FUZZ_DELIBERATE_H
#define KSLIDE_TESTS_FUZZ_DELIBERATE_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

/*
 * libzstd's one-shot decoder, with the whole output in one buffer, takes windows past its own
 * streaming limit (ours is ZSTD_WINDOW_MAX) and checks offsets only against the frame's start
 * (the watermark contract needs them within the window), and takes raw and RLE blocks larger
 * than Block_Maximum_Size (RFC 8878 3.1.1.2). It also lets sequences bitstreams
 * end with bits unread or overread, and ignores the sequence modes' reserved bits, where
 * RFC 8878 calls both corruption.
 */
static inline int zstd_deliberately_refused(const char *why)
{
	static const char *const reasons[] = {
		"zstd: window larger than supported",
		"zstd: match offset beyond the window",
		"zstd: raw or RLE block larger than its maximum",
		"zstd: sequences read past their bitstream",
		"zstd: sequences bitstream not consumed exactly",
		"zstd: reserved sequence mode bits",
		"zstd: zero sequences counted in more than one byte",
	};
	for (size_t i = 0; why && i < sizeof(reasons) / sizeof(reasons[0]); i++)
		if (strcmp(why, reasons[i]) == 0)
			return 1;
	return 0;
}

/*
 * Debian's libzstd also decodes the pre-standard formats v0.1 to v0.7 (magic numbers
 * 0xFD2FB51E to 0xFD2FB527); lib/ decodes RFC 8878 frames only.
 */
#define ZSTD_LEGACY_MAGIC_FIRST 0x1E
#define ZSTD_LEGACY_MAGIC_LAST	0x27
static inline int zstd_legacy_refused(const char *why, const uint8_t *data, size_t size)
{
	if (!why || strcmp(why, "zstd: not a Zstandard frame") != 0)
		return 0;
	for (size_t i = 0; i + 4 <= size; i++)
		if (data[i] >= ZSTD_LEGACY_MAGIC_FIRST && data[i] <= ZSTD_LEGACY_MAGIC_LAST &&
		    data[i + 1] == 0xB5 && data[i + 2] == 0x2F && data[i + 3] == 0xFD)
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
