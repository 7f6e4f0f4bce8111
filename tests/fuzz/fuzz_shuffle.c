/*
 * libFuzzer target: lib/shuffle.c shuffle_parse on arbitrary bytes; a table it accepts must
 * then shuffle an image of the size it was checked against without a byte out of bounds
 * (ASan watches the exact-size image and scratch) and keep every unit's alignment.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "lib/errors.h"
#include "lib/shuffle.h"

#define IMAGE_SIZE 0x10000u
#define ENTRY 0x10u

static uint64_t counter_next(void *ctx)
{
	uint64_t *c = ctx;
	return (*c += 0x9e3779b97f4a7c15ull) * 0xbf58476d1ce4e5b9ull;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct shuffle_table t;
	const char *why = NULL;
	if (shuffle_parse(data, size, IMAGE_SIZE, ENTRY, &t, &why) != KS_OK) {
		if (!why)
			abort();
		return 0;
	}
	uint8_t *image = calloc(1, IMAGE_SIZE);
	uint8_t *scratch = malloc((size_t)shuffle_scratch_size(&t));
	if (!image || !scratch)
		abort();
	uint64_t c = size;
	if (shuffle_run(image, &t, scratch, counter_next, &c) != KS_OK)
		abort(); /* a parsed table always lays out */
	const uint32_t *at = (const uint32_t *)(const void *)(scratch + shuffle_scratch_size(&t) -
							     4u * t.unit_count);
	for (uint32_t i = 0; i < t.unit_count; i++) {
		struct shuffle_unit u = shuffle_unit_at(&t, i);
		if (at[i] % u.align || at[i] < t.region_start || at[i] + (uint64_t)u.size > t.region_end)
			abort();
	}
	free(image);
	free(scratch);
	return 0;
}
