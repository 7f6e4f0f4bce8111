/*
 * libFuzzer target: lib/reloc.c reloc_apply on a fixed-size image. The input is
 *
 *   | delta: int64 LE (8) | image bytes (IMAGE_BYTES, zero padded) | relocation table ... |
 *
 * Checked: a failed apply leaves the image byte-identical (the all-or-nothing promise); apply
 * and validate agree on which tables are well formed; a successful move by delta is undone
 * exactly by a move by -delta; reloc_move gives what memcpy, memset and reloc_apply give
 * (the copied part's length comes from the table's, so both vary) and the word sums of the
 * copied part; reloc_stream, fed limits taken from the image's first bytes, gives what
 * reloc_apply gives, or KS_EORDER for a table out of image order.
 */
#include <stdlib.h>
#include <string.h>

#include "lib/errors.h"
#include "lib/reloc.h"
#include "lib/word_sums.h"

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
	struct word_sums sums, sums_expected = { 0, 0 };
	word_sums_add(&sums_expected, src, file_size);
	if (reloc_move(moved, src, file_size, IMAGE_BYTES, table, table_size, delta, &sums) != want ||
	    memcmp(moved, expect, IMAGE_BYTES) != 0 || sums.sum != sums_expected.sum ||
	    sums.sum_of_sums != sums_expected.sum_of_sums)
		abort();
}

/*
 * reloc_stream over src, the limits rising by steps of src[i] % 8 bytes (0: the same limit
 * again), then to IMAGE_BYTES: reloc_apply's result, or KS_EORDER before any other failure
 * reloc_apply would meet later in the table.
 */
static void check_stream(const uint8_t *src, const uint8_t *table, size_t table_size,
			 int64_t delta)
{
	uint8_t expect[IMAGE_BYTES], streamed[IMAGE_BYTES];
	memcpy(expect, src, IMAGE_BYTES);
	memcpy(streamed, src, IMAGE_BYTES);
	int want = reloc_apply(expect, IMAGE_BYTES, table, table_size, delta);
	struct reloc_stream s;
	reloc_stream_init(&s, streamed, IMAGE_BYTES, table, table_size, delta);
	int rc = KS_OK;
	uint64_t limit = 0;
	for (unsigned i = 0; rc == KS_OK && limit < IMAGE_BYTES; i++) {
		limit += i < IMAGE_BYTES ? src[i] % 8 : IMAGE_BYTES;
		if (limit > IMAGE_BYTES)
			limit = IMAGE_BYTES;
		rc = reloc_stream_patch(&s, limit);
	}
	if (rc == KS_OK && limit < IMAGE_BYTES)
		abort();
	if (rc == KS_EORDER)
		return;
	if (rc != want || (rc == KS_OK && memcmp(streamed, expect, IMAGE_BYTES) != 0))
		abort();
	if (reloc_stream_patch(&s, IMAGE_BYTES) != rc)
		abort(); /* not sticky, or not finished */
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
	check_stream(before, table, table_size, delta);
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
