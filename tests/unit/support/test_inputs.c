/* Inputs the decoder tests compress and decode (test_inputs.h). */
#include "tests/unit/support/test_inputs.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct buf test_read_file(const char *path)
{
	struct buf b = {NULL, 0};
	FILE *f = fopen(path, "rb");
	if (!f)
		return b;
	long n = fseek(f, 0, SEEK_END) == 0 ? ftell(f) : -1;
	rewind(f);
	if (n > 0 && (b.p = malloc((size_t)n)) && fread(b.p, 1, (size_t)n, f) == (size_t)n) {
		b.len = (size_t)n;
	} else {
		free(b.p);
		b.p = NULL;
	}
	fclose(f);
	return b;
}

int test_write_file(const char *path, const uint8_t *data, size_t len)
{
	FILE *f = fopen(path, "wb");
	if (!f)
		return -1;
	int ok = fwrite(data, 1, len, f) == len;
	return fclose(f) == 0 && ok ? 0 : -1;
}

static uint64_t next(uint64_t *seed)
{
	*seed = *seed * 6364136223846793005ull + 1442695040888963407ull;
	return *seed;
}

struct buf test_text_like(size_t len, uint64_t seed)
{
	static const char *const words[] = {"kslide ", "kernel ",  "slot ",	   "reloc ",
					    "stub ",   "\x90\x90", "\xe8\x10\x00", "entropy\n"};
	struct buf b = {malloc(len ? len : 1), len};
	for (size_t at = 0; at < len;) {
		const char *w = words[(next(&seed) >> 33) % (sizeof(words) / sizeof(words[0]))];
		for (size_t i = 0; w[i] && at < len; i++)
			b.p[at++] = (uint8_t)w[i];
	}
	return b;
}

struct buf test_random_bytes(size_t len, uint64_t seed)
{
	struct buf b = {malloc(len ? len : 1), len};
	for (size_t i = 0; i < len; i++)
		b.p[i] = (uint8_t)(next(&seed) >> 56);
	return b;
}

struct buf test_periodic(size_t len, size_t period)
{
	struct buf b = {malloc(len ? len : 1), len};
	for (size_t i = 0; i < len; i++)
		b.p[i] = i % period < 4 ? (uint8_t)(0x10 + i % period) : 0xa5;
	return b;
}
