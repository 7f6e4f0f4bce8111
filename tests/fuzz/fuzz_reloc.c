/*
 * libFuzzer target: lib/reloc.c reloc_apply on a fixed-size image. The input is
 *
 *   | delta: int64 LE (8) | image bytes (IMAGE_BYTES, zero padded) | relocation table ... |
 *
 * Checked: a failed apply leaves the image byte-identical (the all-or-nothing promise); apply
 * and validate agree on which tables are well formed; a successful move by delta is undone
 * exactly by a move by -delta; reloc_move gives what memcpy, memset and reloc_apply give
 * (the copied part's length comes from the table's, so both vary).
 */
#include <stdlib.h>
#include <string.h>

#include "lib/errors.h"
#include "lib/reloc.h"

#define DELTA_BYTES 8
#define IMAGE_BYTES 64

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static int64_t read_delta(const uint8_t *p)
{
	uint64_t v = 0;
	for (unsigned i = DELTA_BYTES; i-- > 0;)
		v = v << 8 | p[i];
	return (int64_t)v;
}

/* reloc_move against the three steps it fuses, from a fresh destination. */
static void check_move(const uint8_t *src, const uint8_t *table, size_t table_size,
		       int64_t delta)
{
	size_t file_size = IMAGE_BYTES - table_size % (IMAGE_BYTES / 4);
	uint8_t expect[IMAGE_BYTES], moved[IMAGE_BYTES];
	memcpy(expect, src, file_size);
	memset(expect + file_size, 0, IMAGE_BYTES - file_size);
	int want = reloc_apply(expect, IMAGE_BYTES, table, table_size, delta);
	memset(moved, 0xee, IMAGE_BYTES);
	if (reloc_move(moved, src, file_size, IMAGE_BYTES, table, table_size, delta) != want ||
	    memcmp(moved, expect, IMAGE_BYTES) != 0)
		abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (size < DELTA_BYTES)
		return 0;
	int64_t delta = read_delta(data);
	data += DELTA_BYTES;
	size -= DELTA_BYTES;

	uint8_t before[IMAGE_BYTES] = { 0 }, image[IMAGE_BYTES];
	size_t image_part = size < IMAGE_BYTES ? size : IMAGE_BYTES;
	memcpy(before, data, image_part);
	/* An exact-size heap copy of the table, so ASan sees any read past its end. */
	size_t table_size = size - image_part;
	uint8_t *table = malloc(table_size ? table_size : 1);
	if (!table)
		return 0;
	if (table_size)
		memcpy(table, data + image_part, table_size);

	check_move(before, table, table_size, delta);
	memcpy(image, before, IMAGE_BYTES);
	int rc = reloc_apply(image, IMAGE_BYTES, table, table_size, delta);
	int valid = reloc_validate(table, table_size, IMAGE_BYTES, NULL);
	if (rc != KS_OK) {
		if (memcmp(image, before, IMAGE_BYTES) != 0)
			abort(); /* a failed apply wrote something */
	} else if (valid != KS_OK) {
		abort(); /* applied a table that validation rejects */
	} else if (delta != INT64_MIN) {
		if (reloc_apply(image, IMAGE_BYTES, table, table_size, -delta) != KS_OK ||
		    memcmp(image, before, IMAGE_BYTES) != 0)
			abort(); /* moving back did not restore the image */
	}
	/* A well-formed table always applies with delta 0, changing nothing. */
	if (valid == KS_OK) {
		memcpy(image, before, IMAGE_BYTES);
		if (reloc_apply(image, IMAGE_BYTES, table, table_size, 0) != KS_OK ||
		    memcmp(image, before, IMAGE_BYTES) != 0)
			abort();
	}
	free(table);
	return 0;
}
